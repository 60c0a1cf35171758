#include "folio_cairo_pango.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

cairo_status_t folio_byte_sink_write(void *closure, const unsigned char *data, unsigned int length) {
    folio_byte_sink *sink = closure;
    if (sink == NULL || (data == NULL && length > 0)) return CAIRO_STATUS_WRITE_ERROR;
    if (length > sink->capacity - sink->length) {
        size_t wanted = sink->capacity + sink->capacity / 2 + 65536;
        if (wanted < sink->length + length) wanted = sink->length + length;
        unsigned char *grown = realloc(sink->data, wanted);
        if (grown == NULL) return CAIRO_STATUS_NO_MEMORY;
        sink->data = grown;
        sink->capacity = wanted;
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
