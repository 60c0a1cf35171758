#ifndef FOLIO_CAIRO_PANGO_H
#define FOLIO_CAIRO_PANGO_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
#endif
