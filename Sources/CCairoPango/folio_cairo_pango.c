#include "folio_cairo_pango.h"
