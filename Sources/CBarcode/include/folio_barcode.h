// Barcodes encoded by libzint (Debian's libzint-dev) as rectangles, for Folio's Canvas.
#ifndef FOLIO_BARCODE_H
#define FOLIO_BARCODE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The symbologies Folio draws.
enum folio_symbology { FOLIO_QR = 1, FOLIO_DATAMATRIX = 2, FOLIO_CODE128 = 3, FOLIO_PDF417 = 4, FOLIO_EAN13 = 5 };

/// One dark rectangle of a symbol, in X-dimension units from the top-left corner of the symbol
/// with its quiet zones.
typedef struct folio_barcode_rect {
    float x, y, width, height;
} folio_barcode_rect;

/// Encodes `length` bytes of UTF-8 `data` as `symbology`, with the symbology's quiet zones and no
/// human-readable text. On success returns 0 and sets `*rects` (free with `folio_barcode_free`),
/// `*count`, and the symbol's `*width` and `*height`; returns `FOLIO_BARCODE_NO_LIBRARY` when libzint
/// (opened on the first barcode) is not installed, and otherwise on failure 1 with zint's reason in
/// `message` (at most `capacity` bytes, NUL-terminated).
#define FOLIO_BARCODE_NO_LIBRARY 2

int folio_barcode_encode(
    int symbology, const unsigned char *data, int length, folio_barcode_rect **rects, size_t *count, float *width,
    float *height, char *message, size_t capacity);

/// Frees the rectangles of `folio_barcode_encode`.
void folio_barcode_free(folio_barcode_rect *rects);

#ifdef __cplusplus
}
#endif

#endif
