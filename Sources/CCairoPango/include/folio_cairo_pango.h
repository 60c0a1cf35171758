#ifndef FOLIO_CAIRO_PANGO_H
#define FOLIO_CAIRO_PANGO_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
#include <stddef.h>
#include <stdint.h>

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

/* Writes an RGB24 image surface as PNG to a byte sink (zlib level 1, the Sub filter): 1 on
 * success, 0 on failure (another format, a write error). */
int folio_write_png_quickly(cairo_surface_t *surface, void *sink);

/// Frees a sink's bytes and empties it.
void folio_byte_sink_clear(folio_byte_sink *sink);
/// Gives the system back the free memory of every malloc arena (glibc's malloc_trim): called after
/// each part of a long document, so the garbage of one part is not resident while the next is made.
void folio_return_free_memory(void);

/// The text engine's settings for a Pango context: 72 dpi, no hinting (sizes are the same in every
/// backend), grey antialiasing.
void folio_configure_context(PangoContext *context);

/// A font description of `family` at `size` points, bold and italic as asked (caller frees); NULL
/// when Pango cannot make one.
PangoFontDescription *folio_font_description(const char *family, double size, int bold, int italic);

/// A font to load ahead of the first document.
typedef struct folio_font_request {
    double size;
    int bold;
    int italic;
} folio_font_request;

/// Starts, once per process (unless `folio_start_reading_font_configuration` did), a thread that
/// reads fontconfig's configuration and cache (FcInit: 2.5 ms), asks for the fontsets of the
/// `count` fonts of `family` in `fonts` (copied) in a font map of its own, configured as the text
/// engine's, and then loads them, so that this overlaps what the process does before it first
/// shapes text (reading its arguments and its document) and Pango's matching of each font overlaps
/// the layouts. Without it Pango reads the configuration on first use, and each new font's first
/// layout starts its match then, beside the sorts of the fonts before it (0.4 ms a font).
void folio_start_loading_fonts(const char *family, const folio_font_request *fonts, size_t count);

/// Starts the thread of `folio_start_loading_fonts` before the fonts to load are known, so that
/// fontconfig's configuration is read from the process's first moments (`folio render`'s start-up
/// constructor); the thread loads the fonts once `folio_start_loading_fonts` names them.
void folio_start_reading_font_configuration(void);

/// This thread's Pango font map. The first call after the loading thread was started (by
/// `folio_start_loading_fonts` or `folio_start_reading_font_configuration`) stops it after the font
/// it is loading, waits for it, and makes its font map this thread's default
/// (`pango_cairo_font_map_set_default`); other threads, and later calls, get their thread's default.
PangoFontMap *folio_font_map_for_this_thread(void);

/* Sends GLib's diagnostics (g_warning, g_critical, g_error: GLib's, Pango's, Cairo's through them)
   to `sink` as one line each ("Pango: …", controls turned into spaces), instead of to standard
   error; `out_of_memory` is 1 for GLib's "failed to allocate" before it aborts. For a render worker,
   whose supervisor reports its failures; call once per process (GLib allows one writer). */
void folio_glib_messages_capture(void (*sink)(const char *text, size_t length, int out_of_memory));

/// Draws `line` as pango_cairo_show_layout_line does (the current point at its start, on its
/// baseline), but a line holding right-to-left text has its runs drawn in logical order, each at
/// its place: the PDF's content then reads as the text does ("the pain 10.4 mmol/L today"), not
/// run by run from the left. Each run's colour and underline (links) are drawn as Pango would.
/// The text given with the glyphs is the words: a soft hyphen the line does not break at is left
/// out (Pango gives it as a lone U+00AD), and a space the line wraps at after a change of style
/// (a link's end) is kept (Pango gives a run of it none), so the words either side stay apart.
void folio_show_layout_line(cairo_t *cr, PangoLayoutLine *line);
/// Draws the runs of `line` whose text starts within bytes [start, end) (a passage the caller tags
/// on its own), where the line places them, from the current point (the line's start on its baseline).
void folio_show_layout_line_bytes(cairo_t *cr, PangoLayoutLine *line, int start, int end);

/// Draws `layout` with its top-left corner at the current point, as pango_cairo_show_layout does,
/// each line through folio_show_layout_line.
void folio_show_layout(cairo_t *cr, PangoLayout *layout);

/// Writes to `characters` (at most `capacity`) the characters of the layout's glyphs no font could
/// draw (drawn as hex boxes), in text order; returns how many it wrote.
size_t folio_layout_unknown_characters(PangoLayout *layout, uint32_t *characters, size_t capacity);

#endif
