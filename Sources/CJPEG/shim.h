#ifndef CJPEG_SHIM_H
#define CJPEG_SHIM_H
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <setjmp.h>
#include <jpeglib.h>

/* libjpeg reports errors by calling error_exit, which must not return: it jumps back here. */
struct folio_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf back;
};

static void folio_jpeg_error_exit(j_common_ptr info) {
    struct folio_jpeg_error *error = (struct folio_jpeg_error *)info->err;
    longjmp(error->back, 1);
}

static void folio_jpeg_silence(j_common_ptr info, int level) { (void)info; (void)level; }

/* Decodes a CMYK JPEG into 32-bit xRGB pixels (Cairo's RGB24), `stride` bytes a row.
   Adobe writers store the inks inverted; `inverted` says so. Returns 1 on success. */
static inline int folio_jpeg_decode_cmyk(const unsigned char *data, unsigned long size, unsigned char *out,
                                         int width, int height, int stride, int inverted) {
    struct jpeg_decompress_struct info;
    struct folio_jpeg_error error;
    /* Allocated before setjmp, so its value is the same after a jump back. */
    JSAMPROW row = (JSAMPROW)malloc((size_t)width * 4);
    if (!row) return 0;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = folio_jpeg_error_exit;
    error.manager.emit_message = folio_jpeg_silence;
    if (setjmp(error.back)) {
        jpeg_destroy_decompress(&info);
        free(row);
        return 0;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    if (jpeg_read_header(&info, TRUE) != JPEG_HEADER_OK || info.num_components != 4
        || (int)info.image_width != width || (int)info.image_height != height) {
        jpeg_destroy_decompress(&info);
        free(row);
        return 0;
    }
    info.out_color_space = JCS_CMYK;
    jpeg_start_decompress(&info);
    while (info.output_scanline < info.output_height) {
        int y = (int)info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
        unsigned int *pixels = (unsigned int *)(out + (size_t)y * (size_t)stride);
        for (int x = 0; x < width; x++) {
            unsigned int c = row[4 * x], m = row[4 * x + 1], yl = row[4 * x + 2], k = row[4 * x + 3];
            if (!inverted) { c = 255 - c; m = 255 - m; yl = 255 - yl; k = 255 - k; }
            /* Inverted values are 255 - ink: red = (255 - cyan) * (255 - black) / 255. */
            unsigned int r = c * k / 255, g = m * k / 255, b = yl * k / 255;
            pixels[x] = 0xFF000000u | (r << 16) | (g << 8) | b;
        }
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    free(row);
    return 1;
}
#endif
