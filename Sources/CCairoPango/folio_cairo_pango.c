#include "folio_cairo_pango.h"

#include <fontconfig/fontconfig.h>
#include <malloc.h>
#include <pthread.h>
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

cairo_status_t folio_byte_sink_write(void *closure, const unsigned char *data, unsigned int length) {
    folio_byte_sink *sink = closure;
    if (sink == NULL || (data == NULL && length > 0)) return CAIRO_STATUS_WRITE_ERROR;
    if (__builtin_expect(length > sink->capacity - sink->length, 0) && !folio_byte_sink_grow(sink, length)) {
        return CAIRO_STATUS_NO_MEMORY;
    }
    if (length > 0) memcpy(sink->data + sink->length, data, length);
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

/* Whether the loader thread is reading the configuration; guarded by fonts_mutex. */
static pthread_mutex_t fonts_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fonts_read = PTHREAD_COND_INITIALIZER;
static int fonts_started = 0;
static int fonts_loading = 0;

static void folio_fonts_done(void) {
    pthread_mutex_lock(&fonts_mutex);
    fonts_loading = 0;
    pthread_cond_broadcast(&fonts_read);
    pthread_mutex_unlock(&fonts_mutex);
}

static void *folio_load_font_configuration(void *unused) {
    (void)unused;
    FcInit();
    folio_fonts_done();
    return NULL;
}

void folio_start_loading_fonts(void) {
    pthread_mutex_lock(&fonts_mutex);
    int first = !fonts_started;
    fonts_started = 1;
    if (first) fonts_loading = 1;
    pthread_mutex_unlock(&fonts_mutex);
    if (!first) return;
    pthread_attr_t attributes;
    pthread_t thread;
    /* When no thread can be started, Pango reads the configuration when it first needs it, as always. */
    int started = pthread_attr_init(&attributes) == 0;
    if (started) {
        started = pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED) == 0
                  && pthread_create(&thread, &attributes, folio_load_font_configuration, NULL) == 0;
        pthread_attr_destroy(&attributes);
    }
    if (!started) folio_fonts_done();
}

void folio_wait_for_fonts(void) {
    pthread_mutex_lock(&fonts_mutex);
    while (fonts_loading) pthread_cond_wait(&fonts_read, &fonts_mutex);
    pthread_mutex_unlock(&fonts_mutex);
}
