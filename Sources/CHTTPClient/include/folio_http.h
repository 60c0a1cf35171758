#ifndef FOLIO_HTTP_H
#define FOLIO_HTTP_H

#include <stddef.h>

struct sockaddr;

/* A network an address may be in: IPv4 (family 4, the first 4 bytes) or IPv6 (family 6), and its
   prefix length. */
typedef struct {
    int family;
    unsigned char address[16];
    int prefix;
} folio_http_network;

/* HTTP(S) through Debian's libcurl, opened with dlopen on the first request (`folio fetch` and the
   commands that talk to a FHIR server): a render never binds it. */

/* One request. A body of the answer goes to `output_fd` when it is 0 or more (a download, streamed),
   else into memory; either way at most `maximum_bytes` of it. */
typedef struct {
    const char *method;
    const char *url;
    const char *const *headers; /* "Name: value" lines */
    size_t header_count;
    const void *body;
    size_t body_length;
    int output_fd;
    size_t maximum_bytes;
    long timeout_seconds;         /* the whole exchange; 0: none (a download's stall limit still holds) */
    long connect_timeout_seconds;
    const char *ca_file;          /* NULL: the system's trust store */
    int allow_plain_http;         /* http:// allowed (to loopback; a redirect goes to https only) */
    int decompress;               /* ask for gzip and deflate and inflate them */
    int despite_cancel;           /* made even after folio_http_cancel (the export's DELETE on Ctrl-C) */
    /* Connect only to public addresses (and loopback), checked as each connection is opened, after the
       name is resolved, so a name cannot rebind into a private network; no redirects, no proxy. */
    int public_addresses_only;
    const folio_http_network *allowed_networks; /* private networks allowed all the same */
    size_t allowed_network_count;
} folio_http_request;

/* What came back: the final answer's status and header lines, and its body when not streamed. */
typedef struct {
    long status;
    char *headers; /* malloc'd, "name: value\n" lines of the final answer (NUL-terminated) */
    size_t headers_length;
    char *body;    /* malloc'd when the body was kept in memory (NUL-terminated) */
    size_t body_length;
    size_t bytes_written; /* the body's bytes (after decompression) */
    size_t lines;         /* its non-empty lines (an NDJSON file's resources) */
    int exceeded;  /* the body was longer than maximum_bytes: cut off */
    int cancelled; /* folio_http_cancel was called during the exchange */
    char error[256];
} folio_http_response;

/* 1 when libcurl could be opened (and initialised), else 0 with a reason in `reason`. */
int folio_http_available(char *reason, size_t reason_size);

/* Performs `request`: 0 when an answer came (any status), else -1 with `response->error` saying why. */
int folio_http_perform(const folio_http_request *request, folio_http_response *response);

/* 1 when a connection to `address` (IPv4 or IPv6) may be opened under `public_addresses_only`: a public
   or loopback address, or one in `allowed`; 0 for private, link-local, shared, multicast, reserved and
   unspecified addresses (IPv4-mapped, NAT64 and 6to4 forms judged by the IPv4 address they carry). */
int folio_http_address_allowed(const struct sockaddr *address, const folio_http_network *allowed, size_t allowed_count);

/* Frees what folio_http_perform allocated in `response`. */
void folio_http_response_free(folio_http_response *response);

/* Makes every exchange under way, and every later one, stop (Ctrl-C); safe from a signal handler. */
void folio_http_cancel(void);

/* Ctrl-C and SIGTERM call folio_http_cancel from now on. */
void folio_http_catch_interrupts(void);

/* 1 once folio_http_cancel was called. */
int folio_http_is_cancelled(void);

#endif
