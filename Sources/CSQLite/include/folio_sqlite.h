#ifndef FOLIO_SQLITE_H
#define FOLIO_SQLITE_H

/* SQLite, loaded with dlopen on first use: only a FHIR export's index needs it, so no other
   command, and no process start, spends time binding libsqlite3's symbols. sqlite3.h gives the
   types and constants; its functions are reached only through the table below (calling one of
   them directly would not link, since nothing links libsqlite3). */
#include <sqlite3.h>

typedef struct {
    __typeof__(sqlite3_open_v2) *_Nonnull open_v2;
    __typeof__(sqlite3_errmsg) *_Nonnull errmsg;
    __typeof__(sqlite3_close) *_Nonnull close;
    __typeof__(sqlite3_close_v2) *_Nonnull close_v2;
    __typeof__(sqlite3_memory_used) *_Nonnull memory_used;
    __typeof__(sqlite3_exec) *_Nonnull exec;
    __typeof__(sqlite3_free) *_Nonnull free;
    __typeof__(sqlite3_prepare_v2) *_Nonnull prepare_v2;
    __typeof__(sqlite3_finalize) *_Nonnull finalize;
    __typeof__(sqlite3_bind_text) *_Nonnull bind_text;
    __typeof__(sqlite3_bind_int64) *_Nonnull bind_int64;
    __typeof__(sqlite3_bind_double) *_Nonnull bind_double;
    __typeof__(sqlite3_bind_null) *_Nonnull bind_null;
    __typeof__(sqlite3_step) *_Nonnull step;
    __typeof__(sqlite3_reset) *_Nonnull reset;
    __typeof__(sqlite3_clear_bindings) *_Nonnull clear_bindings;
    __typeof__(sqlite3_column_type) *_Nonnull column_type;
    __typeof__(sqlite3_column_text) *_Nonnull column_text;
    __typeof__(sqlite3_column_bytes) *_Nonnull column_bytes;
    __typeof__(sqlite3_column_int64) *_Nonnull column_int64;
    __typeof__(sqlite3_column_double) *_Nonnull column_double;
} folio_sqlite_api;

/* SQLite's entry points, loaded on the first call (once per process, thread-safe); NULL when
   libsqlite3.so.0 is not installed or lacks one of them. */
const folio_sqlite_api *_Nullable folio_sqlite(void);

#endif
