#include "folio_sqlite.h"

#include <dlfcn.h>
#include <pthread.h>

static folio_sqlite_api api;
static int available;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Each entry point by name into its field; 0 when one is missing. */
#define FOLIO_SQLITE_LOAD(field, symbol)                                  \
    do {                                                                  \
        void *address = dlsym(library, #symbol);                          \
        if (address == NULL) return 0;                                    \
        *(void **)&api.field = address;                                   \
    } while (0)

static int folio_load_entry_points(void *library) {
    FOLIO_SQLITE_LOAD(open_v2, sqlite3_open_v2);
    FOLIO_SQLITE_LOAD(errmsg, sqlite3_errmsg);
    FOLIO_SQLITE_LOAD(close, sqlite3_close);
    FOLIO_SQLITE_LOAD(close_v2, sqlite3_close_v2);
    FOLIO_SQLITE_LOAD(memory_used, sqlite3_memory_used);
    FOLIO_SQLITE_LOAD(exec, sqlite3_exec);
    FOLIO_SQLITE_LOAD(free, sqlite3_free);
    FOLIO_SQLITE_LOAD(prepare_v2, sqlite3_prepare_v2);
    FOLIO_SQLITE_LOAD(finalize, sqlite3_finalize);
    FOLIO_SQLITE_LOAD(bind_text, sqlite3_bind_text);
    FOLIO_SQLITE_LOAD(bind_int64, sqlite3_bind_int64);
    FOLIO_SQLITE_LOAD(bind_double, sqlite3_bind_double);
    FOLIO_SQLITE_LOAD(bind_null, sqlite3_bind_null);
    FOLIO_SQLITE_LOAD(step, sqlite3_step);
    FOLIO_SQLITE_LOAD(reset, sqlite3_reset);
    FOLIO_SQLITE_LOAD(clear_bindings, sqlite3_clear_bindings);
    FOLIO_SQLITE_LOAD(column_type, sqlite3_column_type);
    FOLIO_SQLITE_LOAD(column_text, sqlite3_column_text);
    FOLIO_SQLITE_LOAD(column_bytes, sqlite3_column_bytes);
    FOLIO_SQLITE_LOAD(column_int64, sqlite3_column_int64);
    FOLIO_SQLITE_LOAD(column_double, sqlite3_column_double);
    return 1;
}

static void folio_load_sqlite(void) {
    void *library = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    available = folio_load_entry_points(library);
}

const folio_sqlite_api *folio_sqlite(void) {
    pthread_once(&once, folio_load_sqlite);
    return available ? &api : NULL;
}
