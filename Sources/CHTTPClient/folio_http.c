#define _GNU_SOURCE
#include "folio_http.h"
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* libcurl's entry points, found with dlsym: binding libcurl (and its TLS, HTTP/2 and IDN
   libraries) would cost every process start, and only the commands that talk to a server use it. */
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *handle);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    void (*easy_cleanup)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
    void (*slist_free_all)(struct curl_slist *list);
    int available;
    char reason[200];
} curl;

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static volatile sig_atomic_t cancelled = 0;

static void folio_load_curl(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(curl.reason, sizeof curl.reason, "libcurl.so.4 cannot be opened (install libcurl4)");
        return;
    }
    *(void **)&curl.global_init = dlsym(library, "curl_global_init");
    *(void **)&curl.easy_init = dlsym(library, "curl_easy_init");
    *(void **)&curl.easy_setopt = dlsym(library, "curl_easy_setopt");
    *(void **)&curl.easy_perform = dlsym(library, "curl_easy_perform");
    *(void **)&curl.easy_getinfo = dlsym(library, "curl_easy_getinfo");
    *(void **)&curl.easy_cleanup = dlsym(library, "curl_easy_cleanup");
    *(void **)&curl.easy_reset = dlsym(library, "curl_easy_reset");
    *(void **)&curl.easy_strerror = dlsym(library, "curl_easy_strerror");
    *(void **)&curl.slist_append = dlsym(library, "curl_slist_append");
    *(void **)&curl.slist_free_all = dlsym(library, "curl_slist_free_all");
    if (!(curl.global_init && curl.easy_init && curl.easy_setopt && curl.easy_perform && curl.easy_getinfo &&
          curl.easy_cleanup && curl.easy_reset && curl.easy_strerror && curl.slist_append && curl.slist_free_all)) {
        snprintf(curl.reason, sizeof curl.reason, "libcurl.so.4 lacks an entry point Folio needs");
        return;
    }
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(curl.reason, sizeof curl.reason, "libcurl could not be initialised");
        return;
    }
    curl.available = 1;
}

int folio_http_available(char *reason, size_t reason_size) {
    pthread_once(&curl_once, folio_load_curl);
    if (!curl.available && reason != NULL && reason_size > 0) snprintf(reason, reason_size, "%s", curl.reason);
    return curl.available;
}

void folio_http_cancel(void) { cancelled = 1; }

int folio_http_is_cancelled(void) { return cancelled != 0; }

/* A growing buffer, bounded. */
typedef struct {
    char *bytes;
    size_t length;
    size_t capacity;
} buffer;

static int buffer_append(buffer *into, const char *bytes, size_t length) {
    if (into->length + length + 1 > into->capacity) {
        size_t capacity = into->capacity ? into->capacity : 4096;
        while (capacity < into->length + length + 1) capacity *= 2;
        char *grown = realloc(into->bytes, capacity);
        if (grown == NULL) return 0;
        into->bytes = grown;
        into->capacity = capacity;
    }
    memcpy(into->bytes + into->length, bytes, length);
    into->length += length;
    into->bytes[into->length] = 0;
    return 1;
}

typedef struct {
    const folio_http_request *request;
    folio_http_response *response;
    buffer body;
    buffer headers;
    int write_failed;
    int in_line;
    size_t synced;
    int address_refused; /* a connection was refused by public_addresses_only */
    char refused_address[64];
} exchange;

static size_t on_body(char *bytes, size_t size, size_t count, void *context) {
    exchange *state = context;
    size_t length = size * count;
    if (state->response->bytes_written + length > state->request->maximum_bytes) {
        state->response->exceeded = 1;
        return 0;
    }
    if (state->request->output_fd >= 0) {
        size_t done = 0;
        while (done < length) {
            ssize_t wrote = write(state->request->output_fd, bytes + done, length - done);
            if (wrote < 0 && errno == EINTR) continue;
            if (wrote <= 0) {
                state->write_failed = errno ? errno : EIO;
                return 0;
            }
            done += (size_t)wrote;
        }
    } else if (!buffer_append(&state->body, bytes, length)) {
        state->write_failed = ENOMEM;
        return 0;
    }
    state->response->bytes_written += length;
    /* Non-empty lines, found with memchr: a line counts once a byte other than CR is in it. */
    size_t start = 0;
    while (start < length) {
        const char *newline = memchr(bytes + start, '\n', length - start);
        size_t end = newline ? (size_t)(newline - bytes) : length;
        if (!state->in_line) {
            for (size_t index = start; index < end; index++) {
                if (bytes[index] != '\r') {
                    state->in_line = 1;
                    state->response->lines++;
                    break;
                }
            }
        }
        if (newline == NULL) break;
        state->in_line = 0;
        start = end + 1;
    }
    /* A download's written pages start on their way to the disk every 8 MB, so the fsync before
       its rename has little left to wait for. */
    if (state->request->output_fd >= 0 && state->response->bytes_written - state->synced >= (8u << 20)) {
        sync_file_range(state->request->output_fd, (off_t)state->synced, (off_t)(state->response->bytes_written - state->synced),
                        SYNC_FILE_RANGE_WRITE);
        state->synced = state->response->bytes_written;
    }
    return length;
}

static size_t on_header(char *bytes, size_t size, size_t count, void *context) {
    exchange *state = context;
    size_t length = size * count;
    /* A status line starts the headers of a new answer (after a redirect or a 100 Continue). */
    if (length >= 5 && memcmp(bytes, "HTTP/", 5) == 0) {
        state->headers.length = 0;
        if (state->headers.bytes) state->headers.bytes[0] = 0;
        return length;
    }
    if (state->headers.length + length > 256 * 1024) return 0; /* headers bounded */
    size_t kept = length;
    while (kept > 0 && (bytes[kept - 1] == '\n' || bytes[kept - 1] == '\r')) kept--;
    if (kept == 0) return length;
    if (!buffer_append(&state->headers, bytes, kept) || !buffer_append(&state->headers, "\n", 1)) return 0;
    return length;
}

static void on_interrupt(int signal_number) {
    (void)signal_number;
    cancelled = 1;
}

void folio_http_catch_interrupts(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

static int on_progress(void *context, curl_off_t total_down, curl_off_t now_down, curl_off_t total_up, curl_off_t now_up) {
    const exchange *state = context;
    (void)total_down;
    (void)now_down;
    (void)total_up;
    (void)now_up;
    return cancelled && !state->request->despite_cancel ? 1 : 0;
}

/* Whether the first `prefix` bits of `a` and `b` are the same. */
static int same_prefix(const unsigned char *a, const unsigned char *b, int prefix) {
    int whole = prefix / 8, rest = prefix % 8;
    if (memcmp(a, b, (size_t)whole) != 0) return 0;
    if (rest == 0) return 1;
    unsigned char mask = (unsigned char)(0xFF << (8 - rest));
    return (a[whole] & mask) == (b[whole] & mask);
}

static int in_allowed(int family, const unsigned char *bytes, const folio_http_network *allowed, size_t count) {
    for (size_t index = 0; index < count; index++) {
        if (allowed[index].family == family && same_prefix(bytes, allowed[index].address, allowed[index].prefix)) return 1;
    }
    return 0;
}

/* An IPv4 address (4 bytes) that may be connected to: public or loopback, else only when allowed. */
static int ipv4_allowed(const unsigned char *v4, const folio_http_network *allowed, size_t count) {
    static const struct {
        unsigned char address[4];
        int prefix;
    } refused[] = {
        {{0, 0, 0, 0}, 8},       {{10, 0, 0, 0}, 8},     {{100, 64, 0, 0}, 10},  {{169, 254, 0, 0}, 16},
        {{172, 16, 0, 0}, 12},   {{192, 0, 0, 0}, 24},   {{192, 0, 2, 0}, 24},   {{192, 88, 99, 0}, 24},
        {{192, 168, 0, 0}, 16},  {{198, 18, 0, 0}, 15},  {{198, 51, 100, 0}, 24}, {{203, 0, 113, 0}, 24},
        {{224, 0, 0, 0}, 4},     {{240, 0, 0, 0}, 4},
    };
    if (in_allowed(4, v4, allowed, count)) return 1;
    if (v4[0] == 127) return 1;
    for (size_t index = 0; index < sizeof refused / sizeof refused[0]; index++) {
        if (same_prefix(v4, refused[index].address, refused[index].prefix)) return 0;
    }
    return 1;
}

int folio_http_address_allowed(const struct sockaddr *address, const folio_http_network *allowed, size_t allowed_count) {
    if (address == NULL) return 0;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        return ipv4_allowed((const unsigned char *)&v4->sin_addr, allowed, allowed_count);
    }
    if (address->sa_family != AF_INET6) return 0;
    const unsigned char *v6 = ((const struct sockaddr_in6 *)address)->sin6_addr.s6_addr;
    static const unsigned char zeros[16] = {0};
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
    static const unsigned char nat64[12] = {0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0};
    /* Forms that carry an IPv4 address are judged by it: mapped, compatible, NAT64, 6to4. */
    if (memcmp(v6, mapped, 12) == 0 || memcmp(v6, nat64, 12) == 0) return ipv4_allowed(v6 + 12, allowed, allowed_count);
    if (memcmp(v6, zeros, 12) == 0) {
        if (memcmp(v6 + 12, "\0\0\0\1", 4) == 0) return 1; /* ::1 */
        if (memcmp(v6 + 12, "\0\0\0\0", 4) == 0) return in_allowed(6, v6, allowed, allowed_count); /* :: */
        return ipv4_allowed(v6 + 12, allowed, allowed_count);
    }
    if (v6[0] == 0x20 && v6[1] == 0x02) return ipv4_allowed(v6 + 2, allowed, allowed_count);
    if (in_allowed(6, v6, allowed, allowed_count)) return 1;
    static const struct {
        unsigned char address[16];
        int prefix;
    } refused[] = {
        {{0xFC}, 7},                           /* unique local (fd00:ec2::254, a cloud's metadata, among them) */
        {{0xFE, 0x80}, 10},                    /* link-local */
        {{0xFE, 0xC0}, 10},                    /* site-local */
        {{0xFF}, 8},                           /* multicast */
        {{0x20, 0x01, 0x0D, 0xB8}, 32},        /* documentation */
        {{0x01, 0x00, 0, 0, 0, 0, 0, 0}, 64},  /* discard */
        {{0x20, 0x01, 0, 0}, 23},              /* IETF protocol assignments (Teredo among them) */
    };
    for (size_t index = 0; index < sizeof refused / sizeof refused[0]; index++) {
        if (same_prefix(v6, refused[index].address, refused[index].prefix)) return 0;
    }
    return 1;
}

/* Opens a connection's socket only to an address public_addresses_only allows. */
static curl_socket_t on_open_socket(void *context, curlsocktype purpose, struct curl_sockaddr *address) {
    exchange *state = context;
    (void)purpose;
    if (!folio_http_address_allowed(&address->addr, state->request->allowed_networks, state->request->allowed_network_count)) {
        state->address_refused = 1;
        char text[INET6_ADDRSTRLEN] = "";
        if (address->family == AF_INET) {
            inet_ntop(AF_INET, &((const struct sockaddr_in *)&address->addr)->sin_addr, text, sizeof text);
        } else if (address->family == AF_INET6) {
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)&address->addr)->sin6_addr, text, sizeof text);
        }
        snprintf(state->refused_address, sizeof state->refused_address, "%s", text);
        return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype, address->protocol);
}

/* Sets every option of one exchange on `handle`. */
static void configure(CURL *handle, const folio_http_request *request, exchange *state, struct curl_slist *headers) {
    const char *protocols = request->allow_plain_http ? "http,https" : "https";
    curl.easy_setopt(handle, CURLOPT_URL, request->url);
    curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, protocols);
    /* A redirect goes to HTTPS only: a server's redirect never reaches plain HTTP, nor this machine's ports. */
    curl.easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "https");
    curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(handle, CURLOPT_MAXREDIRS, 5L);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
    curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request->method);
    if (strcmp(request->method, "GET") == 0) curl.easy_setopt(handle, CURLOPT_HTTPGET, 1L);
    if (request->body != NULL) {
        curl.easy_setopt(handle, CURLOPT_POSTFIELDS, request->body);
        curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
    }
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, state);
    curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(handle, CURLOPT_HEADERDATA, state);
    curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl.easy_setopt(handle, CURLOPT_XFERINFODATA, state);
    curl.easy_setopt(handle, CURLOPT_BUFFERSIZE, 256L * 1024L);
    curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, request->connect_timeout_seconds > 0 ? request->connect_timeout_seconds : 30L);
    if (request->timeout_seconds > 0) curl.easy_setopt(handle, CURLOPT_TIMEOUT, request->timeout_seconds);
    /* A download that stalls (under 1 byte/s for 120 s) is given up. */
    curl.easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl.easy_setopt(handle, CURLOPT_LOW_SPEED_TIME, 120L);
    if (request->decompress) curl.easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "gzip, deflate");
    if (request->ca_file != NULL) curl.easy_setopt(handle, CURLOPT_CAINFO, request->ca_file);
    curl.easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, 1L);
    curl.easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, 2L);
    curl.easy_setopt(handle, CURLOPT_USERAGENT, "folio");
    if (request->public_addresses_only) {
        curl.easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, on_open_socket);
        curl.easy_setopt(handle, CURLOPT_OPENSOCKETDATA, state);
        curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
        curl.easy_setopt(handle, CURLOPT_PROXY, "");
    }
}

int folio_http_perform(const folio_http_request *request, folio_http_response *response) {
    memset(response, 0, sizeof *response);
    if (!folio_http_available(response->error, sizeof response->error)) return -1;
    if (cancelled && !request->despite_cancel) {
        response->cancelled = 1;
        snprintf(response->error, sizeof response->error, "interrupted");
        return -1;
    }
    /* One handle per thread, reset between requests: its connections (and TLS sessions) are kept
       for the next request to the same server, so a thousand posts do not make a thousand connections. */
    static __thread CURL *kept = NULL;
    CURL *handle = kept;
    if (handle != NULL) {
        curl.easy_reset(handle);
    } else {
        handle = curl.easy_init();
        kept = handle;
    }
    if (handle == NULL) {
        snprintf(response->error, sizeof response->error, "libcurl could not start a request");
        return -1;
    }
    exchange state = {.request = request, .response = response};
    struct curl_slist *headers = NULL;
    for (size_t index = 0; index < request->header_count; index++) {
        struct curl_slist *grown = curl.slist_append(headers, request->headers[index]);
        if (grown == NULL) break;
        headers = grown;
    }
    /* No "Expect: 100-continue" pause before a POST's body. */
    struct curl_slist *grown = curl.slist_append(headers, "Expect:");
    if (grown != NULL) headers = grown;
    configure(handle, request, &state, headers);

    CURLcode code = curl.easy_perform(handle);
    long status = 0;
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    response->status = status;
    response->headers = state.headers.bytes ? state.headers.bytes : calloc(1, 1);
    response->headers_length = state.headers.length;
    response->body = state.body.bytes ? state.body.bytes : calloc(1, 1);
    response->body_length = state.body.length;
    int result = 0;
    if (code != CURLE_OK) {
        result = -1;
        if ((cancelled && !request->despite_cancel) || code == CURLE_ABORTED_BY_CALLBACK) {
            response->cancelled = 1;
            snprintf(response->error, sizeof response->error, "interrupted");
        } else if (response->exceeded) {
            snprintf(response->error, sizeof response->error, "the answer is larger than %zu bytes", request->maximum_bytes);
        } else if (state.address_refused) {
            snprintf(response->error, sizeof response->error,
                     "refused to connect to %s: a private, link-local or reserved address (allow its network with --webhook-allow)",
                     state.refused_address);
        } else if (state.write_failed) {
            snprintf(response->error, sizeof response->error, "cannot write the download: %s", strerror(state.write_failed));
        } else {
            snprintf(response->error, sizeof response->error, "%s", curl.easy_strerror(code));
        }
    }
    curl.slist_free_all(headers);
    return result;
}

void folio_http_response_free(folio_http_response *response) {
    free(response->headers);
    free(response->body);
    response->headers = NULL;
    response->body = NULL;
}
