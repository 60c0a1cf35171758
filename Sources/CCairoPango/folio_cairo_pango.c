#include <limits.h>
#include "folio_cairo_pango.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

/// Makes room for `length` more bytes (the rare path, kept out of the write Cairo calls for every
/// token it writes, tens of thousands of times a page). False when the sink cannot grow.
static __attribute__((noinline)) int folio_byte_sink_grow(folio_byte_sink *sink, size_t length) {
    size_t wanted = sink->capacity + sink->capacity / 2 + 65536;
    if (wanted < sink->length + length) wanted = sink->length + length;
    unsigned char *grown = realloc(sink->data, wanted);
    if (grown == NULL) return 0;
    sink->data = grown;
    sink->capacity = wanted;
    return 1;
}

/// Copies `length` bytes, at most 32, with fixed-size moves (two that may overlap) instead of a
/// call to memcpy: most of Cairo's writes are a number or an operator, a few bytes long.
static inline void folio_copy_short(unsigned char *target, const unsigned char *source, size_t length) {
    if (length >= 16) {
        __builtin_memcpy(target, source, 16);
        __builtin_memcpy(target + length - 16, source + length - 16, 16);
    } else if (length >= 8) {
        __builtin_memcpy(target, source, 8);
        __builtin_memcpy(target + length - 8, source + length - 8, 8);
    } else if (length >= 4) {
        __builtin_memcpy(target, source, 4);
        __builtin_memcpy(target + length - 4, source + length - 4, 4);
    } else {
        for (size_t index = 0; index < length; ++index) target[index] = source[index];
    }
}

cairo_status_t folio_byte_sink_write(void *closure, const unsigned char *data, unsigned int length) {
    folio_byte_sink *sink = closure;
    if (sink == NULL || (data == NULL && length > 0)) return CAIRO_STATUS_WRITE_ERROR;
    if (__builtin_expect(length > sink->capacity - sink->length, 0) && !folio_byte_sink_grow(sink, length)) {
        return CAIRO_STATUS_NO_MEMORY;
    }
    if (length <= 32) {
        folio_copy_short(sink->data + sink->length, data, length);
    } else {
        memcpy(sink->data + sink->length, data, length);
    }
    sink->length += length;
    return CAIRO_STATUS_SUCCESS;
}

void folio_byte_sink_clear(folio_byte_sink *sink) {
    free(sink->data);
    sink->data = NULL;
    sink->length = 0;
    sink->capacity = 0;
}

void folio_return_free_memory(void) { malloc_trim(0); }

/* GLib's diagnostics as one line each, handed to `folio_glib_sink` instead of standard error. */
static void (*folio_glib_sink)(const char *text, size_t length, int out_of_memory);

static void folio_glib_forward(const char *domain, const char *message) {
    char line[512];
    size_t used = 0;
    const char *parts[] = {domain != NULL ? domain : "GLib", ": ", message != NULL ? message : ""};
    for (size_t part = 0; part < 3; part++) {
        for (const char *c = parts[part]; *c != '\0' && used < sizeof line; c++) {
            /* One line: a line break or control character becomes a space. */
            line[used++] = ((unsigned char)*c < 0x20 || *c == 0x7F) ? ' ' : *c;
        }
    }
    int out_of_memory = message != NULL && strstr(message, "failed to allocate") != NULL;
    if (folio_glib_sink != NULL) folio_glib_sink(line, used, out_of_memory);
}

static void folio_glib_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)level;
    (void)data;
    folio_glib_forward(domain, message);
}

static GLogWriterOutput folio_glib_write(GLogLevelFlags level, const GLogField *fields, gsize count, gpointer data) {
    (void)level;
    (void)data;
    const char *domain = NULL;
    const char *message = NULL;
    for (gsize index = 0; index < count; index++) {
        if (fields[index].length >= 0) continue; /* not a string */
        if (strcmp(fields[index].key, "GLIB_DOMAIN") == 0) domain = fields[index].value;
        if (strcmp(fields[index].key, "MESSAGE") == 0) message = fields[index].value;
    }
    folio_glib_forward(domain, message);
    return G_LOG_WRITER_HANDLED;
}

void folio_glib_messages_capture(void (*sink)(const char *text, size_t length, int out_of_memory)) {
    folio_glib_sink = sink;
    g_log_set_default_handler(folio_glib_log, NULL);
    g_log_set_writer_func(folio_glib_write, NULL, NULL);
}

/// A run of a line and where it starts (its left edge).
typedef struct folio_placed_run {
    PangoGlyphItem *run;
    double x;
} folio_placed_run;

static int folio_compare_runs(const void *a, const void *b) {
    int left = ((const folio_placed_run *)a)->run->item->offset;
    int right = ((const folio_placed_run *)b)->run->item->offset;
    return (left > right) - (left < right);
}

/// Draws the runs of `line` whose text starts within bytes [start, end), each where the line
/// places it, in logical order, with its colour and underline, from the current point (the
/// line's start on its baseline).
static void folio_show_runs(cairo_t *cr, PangoLayoutLine *line, int start, int end) {
    unsigned int count = 0;
    for (GSList *item = line->runs; item != NULL; item = item->next) count++;
    if (count == 0) return;
    folio_placed_run *runs = g_new(folio_placed_run, count);
    double x0 = 0, y0 = 0;
    cairo_get_current_point(cr, &x0, &y0);
    double x = x0;
    unsigned int index = 0;
    for (GSList *item = line->runs; item != NULL; item = item->next) {
        PangoGlyphItem *run = item->data;
        runs[index].run = run;
        runs[index].x = x;
        x += (double)pango_glyph_string_get_width(run->glyphs) / PANGO_SCALE;
        index++;
    }
    qsort(runs, count, sizeof *runs, folio_compare_runs);
    const char *text = pango_layout_get_text(line->layout);
    cairo_pattern_t *source = cairo_pattern_reference(cairo_get_source(cr));
    for (index = 0; index < count; index++) {
        PangoGlyphItem *run = runs[index].run;
        if (run->item->offset < start || run->item->offset >= end) continue;
        PangoAttrColor *foreground = NULL;
        int underline = 0;
        for (GSList *item = run->item->analysis.extra_attrs; item != NULL; item = item->next) {
            PangoAttribute *attribute = item->data;
            if (attribute->klass->type == PANGO_ATTR_FOREGROUND) foreground = (PangoAttrColor *)attribute;
            if (attribute->klass->type == PANGO_ATTR_UNDERLINE && ((PangoAttrInt *)attribute)->value != PANGO_UNDERLINE_NONE) underline = 1;
        }
        if (foreground != NULL) {
            cairo_set_source_rgb(cr, foreground->color.red / 65535.0, foreground->color.green / 65535.0, foreground->color.blue / 65535.0);
        } else {
            cairo_set_source(cr, source);
        }
        cairo_move_to(cr, runs[index].x, y0);
        pango_cairo_show_glyph_item(cr, text, run);
        if (underline) {
            PangoFontMetrics *metrics = pango_font_get_metrics(run->item->analysis.font, NULL);
            double position = (double)pango_font_metrics_get_underline_position(metrics) / PANGO_SCALE;
            double thickness = (double)pango_font_metrics_get_underline_thickness(metrics) / PANGO_SCALE;
            double width = (double)pango_glyph_string_get_width(run->glyphs) / PANGO_SCALE;
            cairo_rectangle(cr, runs[index].x, y0 - position, width, thickness > 0 ? thickness : 0.5);
            cairo_fill(cr);
            pango_font_metrics_unref(metrics);
        }
    }
    cairo_set_source(cr, source);
    cairo_pattern_destroy(source);
    cairo_move_to(cr, x0, y0);
    g_free(runs);
}

void folio_show_layout_line(cairo_t *cr, PangoLayoutLine *line) {
    int mixed = 0;
    unsigned int count = 0;
    for (GSList *item = line->runs; item != NULL; item = item->next) {
        PangoGlyphItem *run = item->data;
        if (run->item->analysis.level % 2 == 1) mixed = 1;
        count++;
    }
    if (!mixed || count < 2) {
        pango_cairo_show_layout_line(cr, line);
        return;
    }
    folio_show_runs(cr, line, 0, INT_MAX);
}

void folio_show_layout_line_bytes(cairo_t *cr, PangoLayoutLine *line, int start, int end) {
    folio_show_runs(cr, line, start, end);
}

void folio_show_layout(cairo_t *cr, PangoLayout *layout) {
    double x0 = 0, y0 = 0;
    cairo_get_current_point(cr, &x0, &y0);
    PangoLayoutIter *iter = pango_layout_get_iter(layout);
    do {
        PangoRectangle logical;
        pango_layout_iter_get_line_extents(iter, NULL, &logical);
        int baseline = pango_layout_iter_get_baseline(iter);
        cairo_move_to(cr, x0 + (double)logical.x / PANGO_SCALE, y0 + (double)baseline / PANGO_SCALE);
        folio_show_layout_line(cr, pango_layout_iter_get_line_readonly(iter));
    } while (pango_layout_iter_next_line(iter));
    pango_layout_iter_free(iter);
    cairo_move_to(cr, x0, y0);
}

size_t folio_layout_unknown_characters(PangoLayout *layout, uint32_t *characters, size_t capacity) {
    size_t found = 0;
    PangoLayoutIter *iter = pango_layout_get_iter(layout);
    do {
        PangoLayoutRun *run = pango_layout_iter_get_run_readonly(iter);
        if (run == NULL) continue;
        for (int index = 0; index < run->glyphs->num_glyphs && found < capacity; index++) {
            PangoGlyph glyph = run->glyphs->glyphs[index].glyph;
            // An unknown glyph carries the character it stands for (pango's hex box).
            if (glyph & PANGO_GLYPH_UNKNOWN_FLAG) characters[found++] = glyph & ~PANGO_GLYPH_UNKNOWN_FLAG;
        }
    } while (found < capacity && pango_layout_iter_next_run(iter));
    pango_layout_iter_free(iter);
    return found;
}
