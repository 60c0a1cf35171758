#ifndef FOLIO_CAIRO_PANGO_H
#define FOLIO_CAIRO_PANGO_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
#include <stddef.h>

/// The bytes a Cairo stream surface writes, collected in C: Cairo writes a tagged PDF in millions
/// of small pieces, too many to hand to Swift one at a time.
typedef struct folio_byte_sink {
    unsigned char *data;
    size_t length;
    size_t capacity;
} folio_byte_sink;

/// A `cairo_write_func_t` appending `length` bytes to the `folio_byte_sink` `closure`;
/// CAIRO_STATUS_NO_MEMORY when the sink cannot grow.
cairo_status_t folio_byte_sink_write(void *closure, const unsigned char *data, unsigned int length);

/// Frees a sink's bytes and empties it.
void folio_byte_sink_clear(folio_byte_sink *sink);
/// Gives the system back the free memory of every malloc arena (glibc's malloc_trim): called after
/// each part of a long document, so the garbage of one part is not resident while the next is made.
void folio_return_free_memory(void);

/// Starts reading fontconfig's configuration and font cache (FcInit: 2.5 ms, a sixth of a small
/// render's start) on a thread of its own, so that it overlaps what a process does before it first
/// shapes text (reading its arguments and its document). Once per process; Pango reads them on
/// first use otherwise.
void folio_start_loading_fonts(void);

/// Waits until the reading `folio_start_loading_fonts` started has finished (at once when none
/// was started): called before Pango is first used, so that Pango finds the configuration read
/// instead of reading all of it a second time beside the thread.
void folio_wait_for_fonts(void);
#endif
