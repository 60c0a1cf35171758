#ifndef FOLIO_SVG_H
#define FOLIO_SVG_H
#include <stddef.h>

/* Draws SVG markup (already sanitised: no external references) scaled into the rectangle
   x, y, width, height of the cairo context `cr`, keeping its aspect ratio, with librsvg.
   librsvg is loaded on first use, so documents without SVG pictures (and the process start)
   never pay for it. Returns 1 when drawn, 0 when librsvg cannot read or draw the markup,
   and -1 when librsvg is not installed. */
int folio_svg_render(void *cr, const char *data, size_t size, double x, double y, double width, double height);

/* 1 when librsvg can be loaded (it is then loaded), else 0. */
int folio_svg_available(void);

#endif
