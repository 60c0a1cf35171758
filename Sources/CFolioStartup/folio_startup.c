#include "folio_startup.h"

#include <string.h>

#include "folio_cairo_pango.h"

/* Runs as the executable is loaded, before the Swift runtime and `main`: for `folio render`, the
   font configuration (fontconfig's files and cache, 2.5 ms) is read from here on, on a thread of its
   own, so that a cold render does not wait for it at its first text. glibc passes constructors the
   program's arguments. */
__attribute__((constructor)) static void folio_start_up(int argc, char **argv, char **environment) {
    (void)environment;
    if (argc > 1 && argv != NULL && argv[1] != NULL && strcmp(argv[1], FOLIO_RENDER_COMMAND) == 0) {
        folio_start_reading_font_configuration();
    }
}
