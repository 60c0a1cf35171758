#define _GNU_SOURCE
#include "folio_process.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* The page's layout. Writers store with release order and readers load with acquire order; a
   supervisor reads the activity only after the worker has died, so it never sees half a copy
   that matters. */
typedef struct {
    uint32_t stop;
    uint32_t length;
    /* Set by a worker that is dying because its memory ran out (folio_worker_memory_watch_install). */
    uint32_t out_of_memory;
    /* The length of `message`: the last diagnostic a library of the worker wrote (GLib's). */
    uint32_t message_length;
    char message[512];
    char activity[4096 - 16 - 512];
} folio_page;

static folio_page own_page;
static folio_page *current_page = &own_page;

int folio_shared_page_create(void) {
    int fd = memfd_create("folio-worker", MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (ftruncate(fd, sizeof(folio_page)) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

void *folio_shared_page_map(int fd) {
    void *page = mmap(NULL, sizeof(folio_page), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return page == MAP_FAILED ? NULL : page;
}

void folio_shared_page_unmap(void *page) {
    if (page != NULL) munmap(page, sizeof(folio_page));
}

void folio_activity_use_page(void *page) {
    if (page != NULL) current_page = (folio_page *)page;
}

void folio_activity_write(void *shared, const void *text, size_t length) {
    folio_page *page = (folio_page *)shared;
    if (length > sizeof(page->activity)) length = sizeof(page->activity);
    memcpy(page->activity, text, length);
    __atomic_store_n(&page->length, (uint32_t)length, __ATOMIC_RELEASE);
}

void folio_activity_set(const void *text, size_t length) { folio_activity_write(current_page, text, length); }

size_t folio_activity_read(const void *page, char *out, size_t capacity) {
    const folio_page *shared = (const folio_page *)page;
    size_t length = __atomic_load_n(&shared->length, __ATOMIC_ACQUIRE);
    if (length > sizeof(shared->activity)) length = sizeof(shared->activity);
    if (length > capacity) length = capacity;
    memcpy(out, shared->activity, length);
    return length;
}

int folio_out_of_memory(const void *page) {
    return __atomic_load_n(&((const folio_page *)page)->out_of_memory, __ATOMIC_ACQUIRE) != 0;
}

size_t folio_message_read(const void *page, char *out, size_t capacity) {
    const folio_page *shared = (const folio_page *)page;
    size_t length = __atomic_load_n(&shared->message_length, __ATOMIC_ACQUIRE);
    if (length > sizeof(shared->message)) length = sizeof(shared->message);
    if (length > capacity) length = capacity;
    memcpy(out, shared->message, length);
    return length;
}

void folio_worker_message(const char *text, size_t length, int out_of_memory) {
    if (length > sizeof(current_page->message)) length = sizeof(current_page->message);
    memcpy(current_page->message, text, length);
    __atomic_store_n(&current_page->message_length, (uint32_t)length, __ATOMIC_RELEASE);
    if (out_of_memory) __atomic_store_n(&current_page->out_of_memory, 1, __ATOMIC_RELEASE);
}

/* The address-space limit the watch compares against, and how near it counts as reached: an
   allocation that failed asked for more than was left, usually far less than this slack. */
static uint64_t memory_limit;
static const uint64_t memory_slack = 48u << 20;

/* The process's address-space size, from /proc/self/statm's first field (pages): open, read and
   close only, which are async-signal-safe. 0 when unknown. */
static uint64_t address_space_bytes(void) {
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[64];
    ssize_t count = read(fd, text, sizeof text - 1);
    close(fd);
    if (count <= 0) return 0;
    uint64_t pages = 0;
    for (ssize_t index = 0; index < count && text[index] >= '0' && text[index] <= '9'; index++) {
        pages = pages * 10 + (uint64_t)(text[index] - '0');
    }
    long size = sysconf(_SC_PAGESIZE);
    return pages * (uint64_t)(size > 0 ? size : 4096);
}

static void memory_watch_handler(int number) {
    /* The allocation that failed left ENOMEM behind (the Swift runtime and GLib abort right after a
       malloc that returned NULL); or the address space is at the limit. */
    int failed = errno == ENOMEM;
    if (memory_limit > 0 && (failed || address_space_bytes() + memory_slack >= memory_limit)) {
        __atomic_store_n(&current_page->out_of_memory, 1, __ATOMIC_RELEASE);
    }
    /* Die by the same signal, so the supervisor sees how (SA_RESETHAND restored the default). */
    raise(number);
}

void folio_worker_memory_watch_install(uint64_t limit) {
    memory_limit = limit;
    static char stack[64 * 1024];
    stack_t alternate = {.ss_sp = stack, .ss_size = sizeof stack, .ss_flags = 0};
    sigaltstack(&alternate, NULL);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = memory_watch_handler;
    action.sa_flags = SA_ONSTACK | SA_RESETHAND | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
    for (size_t index = 0; index < sizeof signals / sizeof signals[0]; index++) sigaction(signals[index], &action, NULL);
}

void folio_stop_request_set(void *page, uint32_t value) {
    __atomic_store_n(&((folio_page *)page)->stop, value, __ATOMIC_RELEASE);
}

int folio_stop_requested(void) { return __atomic_load_n(&current_page->stop, __ATOMIC_ACQUIRE) != 0; }

pid_t folio_spawn_worker(const char *path, char *const argv[], char *const envp[], int channel_fd, int page_fd) {
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) return -1;
    int failed = 0;
    failed |= posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    failed |= posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    /* Standard error too: what a worker has to say goes through its page (folio_worker_message) and
       its channel; a library's or the Swift runtime's own lines (an allocation that failed, with a
       stack trace) would reach the supervisor's terminal raw. */
    failed |= posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    /* dup2 onto a descriptor clears its close-on-exec flag; the sources are close-on-exec. */
    failed |= posix_spawn_file_actions_adddup2(&actions, channel_fd, 3);
    failed |= posix_spawn_file_actions_adddup2(&actions, page_fd, 4);
    /* Nothing else of the supervisor's (its listening socket, its manifest) reaches the worker. */
    failed |= posix_spawn_file_actions_addclosefrom_np(&actions, 5);
    pid_t pid = -1;
    if (failed == 0) {
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        /* The worker starts with default signal handling and nothing blocked. */
        sigset_t none, all;
        sigemptyset(&none);
        sigfillset(&all);
        posix_spawnattr_setsigmask(&attributes, &none);
        posix_spawnattr_setsigdefault(&attributes, &all);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        int status = posix_spawn(&pid, path, &actions, &attributes, argv, envp);
        posix_spawnattr_destroy(&attributes);
        if (status != 0) {
            errno = status;
            pid = -1;
        }
    } else {
        errno = ENOMEM;
    }
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

int folio_limit_memory(uint64_t bytes) {
    struct rlimit none = {0, 0};
    if (setrlimit(RLIMIT_CORE, &none) != 0) return -1;
    if (bytes == 0) return 0;
    struct rlimit limit = {(rlim_t)bytes, (rlim_t)bytes};
    return setrlimit(RLIMIT_AS, &limit);
}

void folio_keep_freed_memory(void) {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    /* Each thread arena reserves 64 MB of address space, which RLIMIT_AS counts: a worker's few
       threads (font loading, finishing parts, GLib's) would spend its limit on reservations. */
    mallopt(M_ARENA_MAX, 2);
}

/* The crash report: everything here is async-signal-safe (write, _exit, no allocation). */

static char crash_prefix[128];

static void append(char *buffer, size_t *used, size_t capacity, const char *text, size_t length) {
    if (*used + length > capacity) length = capacity - *used;
    memcpy(buffer + *used, text, length);
    *used += length;
}

static const char *signal_name(int number) {
    switch (number) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGTRAP: return "SIGTRAP";
    default: return "signal";
    }
}

static void crash_handler(int number) {
    char line[512];
    size_t used = 0;
    append(line, &used, sizeof line, crash_prefix, strlen(crash_prefix));
    const char *middle = "the renderer crashed (signal ";
    append(line, &used, sizeof line, middle, strlen(middle));
    char digits[4];
    int count = 0;
    int value = number;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0 && count < 4);
    while (count > 0) append(line, &used, sizeof line, &digits[--count], 1);
    append(line, &used, sizeof line, ", ", 2);
    const char *name = signal_name(number);
    append(line, &used, sizeof line, name, strlen(name));
    append(line, &used, sizeof line, ")", 1);
    size_t length = __atomic_load_n(&current_page->length, __ATOMIC_ACQUIRE);
    if (length > 0) {
        if (length > 200) length = 200;
        append(line, &used, sizeof line, " while ", 7);
        /* Control characters of the input never reach the terminal. */
        for (size_t index = 0; index < length; index++) {
            char character = current_page->activity[index];
            if ((unsigned char)character < 0x20 || character == 0x7F) character = '?';
            append(line, &used, sizeof line, &character, 1);
        }
    }
    append(line, &used, sizeof line, "\n", 1);
    ssize_t ignored = write(2, line, used);
    (void)ignored;
    _exit(1);
}

void folio_crash_report_install(const char *prefix) {
    strncpy(crash_prefix, prefix, sizeof crash_prefix - 1);
    static char stack[64 * 1024];
    stack_t alternate = {.ss_sp = stack, .ss_size = sizeof stack, .ss_flags = 0};
    sigaltstack(&alternate, NULL);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = crash_handler;
    action.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
    for (size_t index = 0; index < sizeof signals / sizeof signals[0]; index++) sigaction(signals[index], &action, NULL);
}

/* The file being written. Whoever swaps a path out owns it: the setter frees what it replaced,
   the handler takes the path for itself, so neither can use memory the other freed. */
static char *interrupt_cleanup_path = NULL;
static char interrupt_message[256];

void folio_interrupt_cleanup_path_set(const char *path) {
    char *copy = path != NULL ? strdup(path) : NULL;
    char *replaced = __atomic_exchange_n(&interrupt_cleanup_path, copy, __ATOMIC_ACQ_REL);
    free(replaced);
}

static void interrupt_handler(int number) {
    (void)number;
    char *path = __atomic_exchange_n(&interrupt_cleanup_path, NULL, __ATOMIC_ACQ_REL);
    if (path != NULL) unlink(path);
    ssize_t ignored = write(2, interrupt_message, strlen(interrupt_message));
    (void)ignored;
    _exit(130);
}

void folio_interrupt_exit_install(const char *message) {
    strncpy(interrupt_message, message, sizeof interrupt_message - 1);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = interrupt_handler;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    /* A closed terminal (or a service manager's reload) ends the run like an interrupt: status 130,
       the temporary file removed, never 129 with a half-written file. */
    sigaction(SIGHUP, &action, NULL);
}
