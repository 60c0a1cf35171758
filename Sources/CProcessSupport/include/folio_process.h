#ifndef FOLIO_PROCESS_H
#define FOLIO_PROCESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What a render is doing, kept where a crash cannot erase it.

   Every process records its current activity ("drawing elements[3]") in a page of memory: its
   own, or a page it shares with the supervisor that started it (a render worker), so that the
   supervisor can say what a worker was drawing when a signal killed it. The same page carries the
   supervisor's request to stop the current render. */

/* Creates an anonymous shared page (memfd); returns its file descriptor (close-on-exec) or -1. */
int folio_shared_page_create(void);

/* Maps the shared page `fd` (as created above, or inherited); returns NULL on failure. */
void *folio_shared_page_map(int fd);

/* Unmaps a page mapped by folio_shared_page_map. */
void folio_shared_page_unmap(void *page);

/* From now on this process records its activity and reads stop requests in `page`. */
void folio_activity_use_page(void *page);

/* Records what this process is doing now (copied, cut to the page's room). */
void folio_activity_set(const void *text, size_t length);

/* Records in `page` what the process using it is about to do (a supervisor, before a new
   document: "reading record 5"), copied and cut to the page's room. */
void folio_activity_write(void *page, const void *text, size_t length);

/* Copies the activity recorded in `page` into `out` (at most `capacity` bytes); returns its length. */
size_t folio_activity_read(const void *page, char *out, size_t capacity);

/* Whether the worker using `page` died because its memory ran out: its memory watch found the
   address space at its limit, or a library said an allocation failed (folio_worker_message). */
int folio_out_of_memory(const void *page);

/* Copies the last library diagnostic recorded in `page` into `out` (at most `capacity` bytes);
   returns its length. */
size_t folio_message_read(const void *page, char *out, size_t capacity);

/* Records a library's diagnostic (GLib's) in this process's page instead of writing it to standard
   error; `out_of_memory` also marks the process as dying of an allocation that failed. */
void folio_worker_message(const char *text, size_t length, int out_of_memory);

/* Makes a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP) first check whether the
   address space has reached `limit` bytes (RLIMIT_AS), and if so mark the page as out of memory;
   the process then dies by the same signal. Runs on its own stack. */
void folio_worker_memory_watch_install(uint64_t limit);

/* Asks the process using `page` to stop its current render (1), or clears the request (0). */
void folio_stop_request_set(void *page, uint32_t value);

/* Whether this process has been asked to stop its current render. */
int folio_stop_requested(void);

/* Starts `path` with `argv` and `envp` (NULL-terminated): `channel_fd` becomes its fd 3 and `page_fd`
   its fd 4; standard input, output and error are /dev/null, every other
   descriptor is closed, and signals start with their default handling. Returns the pid, or -1
   with errno set. */
pid_t folio_spawn_worker(const char *path, char *const argv[], char *const envp[], int channel_fd, int page_fd);

/* Limits this process's address space to `bytes` (0: no limit) and turns off core dumps;
   returns 0, or -1 with errno set. */
int folio_limit_memory(uint64_t bytes);

/* Makes the heap keep what it freed for the next allocation instead of giving it back: a render
   worker's allocations under 32 MB come from the heap (not each from mmap) and up to 64 MB free at
   its top is kept, so each document reuses the pages the last one touched rather than faulting in
   fresh ones (about 70 page faults a weekly summary otherwise). A worker that grows past its limit
   retires (RenderWorker). */
void folio_keep_freed_memory(void);

/* Makes a crash of this process (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP) one line on
   standard error, "<prefix> the renderer crashed (signal 11, SIGSEGV) while <activity>", and exit
   status 1, instead of a core dump or a backtrace. The handler runs on its own stack, so a stack
   overflow is reported too. `prefix` is copied. */
void folio_crash_report_install(const char *prefix);

/* Remembers `path` (copied; NULL for none) as the file being written, which an interrupt removes. */
void folio_interrupt_cleanup_path_set(const char *path);

/* Makes SIGINT and SIGTERM remove the file set above, write `message` (copied) to standard error
   and exit with status 130. The handler does only what is async-signal-safe: unlink, write, _exit. */
void folio_interrupt_exit_install(const char *message);

#endif
