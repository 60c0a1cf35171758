#include "folio_cairo_pango.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

/// Makes room for `length` more bytes (the rare path, kept out of the write Cairo calls for every
/// token it writes, tens of thousands of times a page). False when the sink cannot grow.
static __attribute__((noinline)) int folio_byte_sink_grow(folio_byte_sink *sink, size_t length) {
    size_t wanted = sink->capacity + sink->capacity / 2 + 65536;
    if (wanted < sink->length + length) wanted = sink->length + length;
    unsigned char *grown = realloc(sink->data, wanted);
    if (grown == NULL) return 0;
    sink->data = grown;
    sink->capacity = wanted;
    return 1;
}

/// Copies `length` bytes, at most 32, with fixed-size moves (two that may overlap) instead of a
/// call to memcpy: most of Cairo's writes are a number or an operator, a few bytes long.
static inline void folio_copy_short(unsigned char *target, const unsigned char *source, size_t length) {
    if (length >= 16) {
        __builtin_memcpy(target, source, 16);
        __builtin_memcpy(target + length - 16, source + length - 16, 16);
    } else if (length >= 8) {
        __builtin_memcpy(target, source, 8);
        __builtin_memcpy(target + length - 8, source + length - 8, 8);
    } else if (length >= 4) {
        __builtin_memcpy(target, source, 4);
        __builtin_memcpy(target + length - 4, source + length - 4, 4);
    } else {
        for (size_t index = 0; index < length; ++index) target[index] = source[index];
    }
}

cairo_status_t folio_byte_sink_write(void *closure, const unsigned char *data, unsigned int length) {
    folio_byte_sink *sink = closure;
    if (sink == NULL || (data == NULL && length > 0)) return CAIRO_STATUS_WRITE_ERROR;
    if (__builtin_expect(length > sink->capacity - sink->length, 0) && !folio_byte_sink_grow(sink, length)) {
        return CAIRO_STATUS_NO_MEMORY;
    }
    if (length <= 32) {
        folio_copy_short(sink->data + sink->length, data, length);
    } else {
        memcpy(sink->data + sink->length, data, length);
    }
    sink->length += length;
    return CAIRO_STATUS_SUCCESS;
}

void folio_byte_sink_clear(folio_byte_sink *sink) {
    free(sink->data);
    sink->data = NULL;
    sink->length = 0;
    sink->capacity = 0;
}

void folio_return_free_memory(void) { malloc_trim(0); }

/* GLib's diagnostics as one line each, handed to `folio_glib_sink` instead of standard error. */
static void (*folio_glib_sink)(const char *text, size_t length, int out_of_memory);

static void folio_glib_forward(const char *domain, const char *message) {
    char line[512];
    size_t used = 0;
    const char *parts[] = {domain != NULL ? domain : "GLib", ": ", message != NULL ? message : ""};
    for (size_t part = 0; part < 3; part++) {
        for (const char *c = parts[part]; *c != '\0' && used < sizeof line; c++) {
            /* One line: a line break or control character becomes a space. */
            line[used++] = ((unsigned char)*c < 0x20 || *c == 0x7F) ? ' ' : *c;
        }
    }
    int out_of_memory = message != NULL && strstr(message, "failed to allocate") != NULL;
    if (folio_glib_sink != NULL) folio_glib_sink(line, used, out_of_memory);
}

static void folio_glib_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)level;
    (void)data;
    folio_glib_forward(domain, message);
}

static GLogWriterOutput folio_glib_write(GLogLevelFlags level, const GLogField *fields, gsize count, gpointer data) {
    (void)level;
    (void)data;
    const char *domain = NULL;
    const char *message = NULL;
    for (gsize index = 0; index < count; index++) {
        if (fields[index].length >= 0) continue; /* not a string */
        if (strcmp(fields[index].key, "GLIB_DOMAIN") == 0) domain = fields[index].value;
        if (strcmp(fields[index].key, "MESSAGE") == 0) message = fields[index].value;
    }
    folio_glib_forward(domain, message);
    return G_LOG_WRITER_HANDLED;
}

void folio_glib_messages_capture(void (*sink)(const char *text, size_t length, int out_of_memory)) {
    folio_glib_sink = sink;
    g_log_set_default_handler(folio_glib_log, NULL);
    g_log_set_writer_func(folio_glib_write, NULL, NULL);
}
