#include "folio_barcode.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zint.h>

/* libzint is opened with dlopen on the first barcode: binding it cost every process start 0.3 ms,
   and few documents draw one. Its four entry points keep the types zint.h declares. */
static struct {
    __typeof__(ZBarcode_Create) *create;
    __typeof__(ZBarcode_Encode) *encode;
    __typeof__(ZBarcode_Buffer_Vector) *buffer_vector;
    __typeof__(ZBarcode_Delete) *delete_symbol;
    int available;
} zint;

static pthread_once_t zint_once = PTHREAD_ONCE_INIT;

static void folio_load_zint(void) {
    void *library = dlopen("libzint.so.2.11", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    *(void **)&zint.create = dlsym(library, "ZBarcode_Create");
    *(void **)&zint.encode = dlsym(library, "ZBarcode_Encode");
    *(void **)&zint.buffer_vector = dlsym(library, "ZBarcode_Buffer_Vector");
    *(void **)&zint.delete_symbol = dlsym(library, "ZBarcode_Delete");
    zint.available = zint.create && zint.encode && zint.buffer_vector && zint.delete_symbol;
}

static void copy_message(const char *text, char *message, size_t capacity) {
    if (message == NULL || capacity == 0) return;
    size_t length = strlen(text);
    if (length > capacity - 1) length = capacity - 1;
    memcpy(message, text, length);
    message[length] = '\0';
}

int folio_barcode_encode(
    int symbology, const unsigned char *data, int length, folio_barcode_rect **rects, size_t *count, float *width,
    float *height, char *message, size_t capacity) {
    int zint_symbology;
    switch (symbology) {
    case FOLIO_QR: zint_symbology = BARCODE_QRCODE; break;
    case FOLIO_DATAMATRIX: zint_symbology = BARCODE_DATAMATRIX; break;
    case FOLIO_CODE128: zint_symbology = BARCODE_CODE128; break;
    case FOLIO_PDF417: zint_symbology = BARCODE_PDF417; break;
    case FOLIO_EAN13: zint_symbology = BARCODE_EANX; break;
    default: copy_message("unknown symbology", message, capacity); return 1;
    }
    pthread_once(&zint_once, folio_load_zint);
    if (!zint.available) return FOLIO_BARCODE_NO_LIBRARY;
    struct zint_symbol *symbol = zint.create();
    if (symbol == NULL) {
        copy_message("out of memory", message, capacity);
        return 1;
    }
    symbol->symbology = zint_symbology;
    symbol->input_mode = UNICODE_MODE;
    symbol->output_options |= BARCODE_QUIET_ZONES;
    symbol->show_hrt = 0;
    symbol->scale = 1.0f;
    int status = zint.encode(symbol, data, length);
    if (status < ZINT_ERROR) status = zint.buffer_vector(symbol, 0);
    if (status >= ZINT_ERROR || symbol->vector == NULL) {
        copy_message(symbol->errtxt[0] != '\0' ? symbol->errtxt : "the data cannot be encoded", message, capacity);
        zint.delete_symbol(symbol);
        return 1;
    }
    size_t total = 0;
    for (struct zint_vector_rect *rect = symbol->vector->rectangles; rect != NULL; rect = rect->next) total++;
    folio_barcode_rect *out = malloc((total > 0 ? total : 1) * sizeof(folio_barcode_rect));
    if (out == NULL) {
        copy_message("out of memory", message, capacity);
        zint.delete_symbol(symbol);
        return 1;
    }
    size_t index = 0;
    for (struct zint_vector_rect *rect = symbol->vector->rectangles; rect != NULL; rect = rect->next) {
        out[index].x = rect->x;
        out[index].y = rect->y;
        out[index].width = rect->width;
        out[index].height = rect->height;
        index++;
    }
    *rects = out;
    *count = total;
    *width = symbol->vector->width;
    *height = symbol->vector->height;
    zint.delete_symbol(symbol);
    return 0;
}

void folio_barcode_free(folio_barcode_rect *rects) { free(rects); }
