#ifndef CRSVG_SHIM_H
#define CRSVG_SHIM_H
#include <stddef.h>
#include <cairo.h>
#include <librsvg/rsvg.h>

/* Draws SVG markup (already sanitised: no external references) scaled into the rectangle
   x, y, width, height of `cr`, keeping its aspect ratio. Returns 1 on success, 0 when librsvg
   cannot read or draw it. */
static inline int folio_svg_render(cairo_t *cr, const char *data, size_t size, double x, double y, double width,
                                   double height) {
    GError *error = NULL;
    RsvgHandle *handle = rsvg_handle_new_from_data((const guint8 *)data, (gsize)size, &error);
    if (handle == NULL) {
        if (error != NULL) g_error_free(error);
        return 0;
    }
    rsvg_handle_set_dpi(handle, 96.0);
    RsvgRectangle viewport = {x, y, width, height};
    gboolean drawn = rsvg_handle_render_document(handle, cr, &viewport, &error);
    if (error != NULL) g_error_free(error);
    g_object_unref(handle);
    return drawn ? 1 : 0;
}
#endif
