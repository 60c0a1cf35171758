#include "folio_cairo_pango.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>

/* A page picture as PNG, for pictures shown at once (a preview, `folio render --format png`):
 * zlib level 1 and the Sub filter on every row, where Cairo's own writer takes libpng's defaults
 * (level 6, every filter tried on every row), which took most of a page's time. */

struct folio_png_writer {
    void *sink;
    int failed;
};

static void folio_png_write(png_structp png, png_bytep data, size_t length) {
    struct folio_png_writer *writer = png_get_io_ptr(png);
    while (length > 0 && !writer->failed) {
        unsigned int part = length > 1u << 30 ? 1u << 30 : (unsigned int)length;
        if (folio_byte_sink_write(writer->sink, data, part) != CAIRO_STATUS_SUCCESS) writer->failed = 1;
        data += part;
        length -= part;
    }
}

static void folio_png_flush(png_structp png) { (void)png; }

int folio_write_png_quickly(cairo_surface_t *surface, void *sink) {
    if (cairo_image_surface_get_format(surface) != CAIRO_FORMAT_RGB24) return 0;
    int width = cairo_image_surface_get_width(surface);
    int height = cairo_image_surface_get_height(surface);
    int stride = cairo_image_surface_get_stride(surface);
    const unsigned char *pixels = cairo_image_surface_get_data(surface);
    if (width <= 0 || height <= 0 || pixels == NULL) return 0;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (png == NULL) return 0;
    png_infop info = png_create_info_struct(png);
    unsigned char *row = malloc((size_t)width * 3);
    struct folio_png_writer writer = {sink, 0};
    if (info == NULL || row == NULL || setjmp(png_jmpbuf(png))) {
        free(row);
        png_destroy_write_struct(&png, info == NULL ? NULL : &info);
        return 0;
    }
    png_set_write_fn(png, &writer, folio_png_write, folio_png_flush);
    png_set_compression_level(png, 1);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        const uint32_t *source = (const uint32_t *)(pixels + (size_t)y * (size_t)stride);
        for (int x = 0; x < width; x++) {
            uint32_t pixel = source[x];
            row[3 * x] = (unsigned char)(pixel >> 16);
            row[3 * x + 1] = (unsigned char)(pixel >> 8);
            row[3 * x + 2] = (unsigned char)pixel;
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    free(row);
    png_destroy_write_struct(&png, &info);
    return !writer.failed;
}
