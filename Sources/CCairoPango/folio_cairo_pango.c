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

/// Whether `text` holds a soft hyphen (U+00AD) at `index`.
static inline int folio_is_soft_hyphen(const char *text, int index) {
    return (unsigned char)text[index] == 0xC2 && (unsigned char)text[index + 1] == 0xAD;
}

/// Which bytes of `run` start a soft hyphen drawn as nothing (a break not taken: its glyphs are
/// all empty, wide only by the line's letter spacing; one a line breaks at is drawn as a hyphen):
/// a mask of the run's length (freed by the caller), or NULL when there is none. One pass over the
/// bytes and one over the glyphs.
static char *folio_hidden_soft_hyphens(const char *text, PangoGlyphItem *run) {
    int length = run->item->length;
    const char *source = text + run->item->offset;
    int any = 0;
    for (int index = 0; index + 1 < length && !any; index++) any = folio_is_soft_hyphen(source, index);
    if (!any) return NULL;
    /* drawn[i]: a glyph that is not empty stands for the character at byte i. */
    char *drawn = g_new0(char, length);
    for (int index = 0; index < run->glyphs->num_glyphs; index++) {
        int cluster = run->glyphs->log_clusters[index];
        if (cluster >= 0 && cluster < length && run->glyphs->glyphs[index].glyph != PANGO_GLYPH_EMPTY) drawn[cluster] = 1;
    }
    int hidden = 0;
    for (int index = 0; index < length; index++) {
        int soft = index + 1 < length && folio_is_soft_hyphen(source, index) && !drawn[index];
        drawn[index] = (char)soft;
        hidden |= soft;
    }
    if (hidden) return drawn;
    g_free(drawn);
    return NULL;
}

/// Whether the run's text is spaces only, all drawn as nothing: the space a line wraps at, in a
/// run of its own (after a link or a change of style), whose text Pango then never gives Cairo.
static int folio_run_is_hidden_space(const char *text, PangoGlyphItem *run) {
    if (run->item->length == 0 || run->glyphs->num_glyphs == 0) return 0;
    for (int index = 0; index < run->item->length; index++) {
        if (text[run->item->offset + index] != ' ') return 0;
    }
    for (int index = 0; index < run->glyphs->num_glyphs; index++) {
        if (run->glyphs->glyphs[index].glyph != PANGO_GLYPH_EMPTY) return 0;
    }
    return 1;
}

/// Whether `run` holds a soft hyphen the line does not break at (which Pango gives Cairo as a lone U+00AD).
static int folio_run_has_hidden_soft_hyphen(const char *text, PangoGlyphItem *run) {
    char *hidden = folio_hidden_soft_hyphens(text, run);
    g_free(hidden);
    return hidden != NULL;
}

/// Whether Pango would give Cairo other text than the words of `run`: a soft hyphen where the line
/// does not break, or a wrapping space it would not give at all.
static int folio_run_needs_own_text(const char *text, PangoGlyphItem *run) {
    return folio_run_is_hidden_space(text, run) || folio_run_has_hidden_soft_hyphen(text, run);
}

/// Draws `run` at the current point as pango_cairo_show_glyph_item does, with the text its glyphs
/// stand for being the words: soft hyphens not broken at are left out of it (glyphs and text), and
/// `spaces` spaces (the line's wrapping space, in a run of its own after this one) are added to it
/// with a zero-wide space glyph. (Cairo draws nothing, text included, for glyphs without ink alone.)
static void folio_show_run_text(cairo_t *cr, const char *text, PangoGlyphItem *run, int spaces) {
    char *hidden = folio_hidden_soft_hyphens(text, run);
    hb_codepoint_t space = 0;
    if (spaces > 0) {
        hb_font_t *font = pango_font_get_hb_font(run->item->analysis.font);
        if (font == NULL || !hb_font_get_nominal_glyph(font, ' ', &space)) spaces = 0;
    }
    if (hidden == NULL && spaces == 0) {
        pango_cairo_show_glyph_item(cr, text, run);
        return;
    }
    PangoGlyphItem *copy = pango_glyph_item_copy(run);
    PangoGlyphString *glyphs = copy->glyphs;
    int length = run->item->length;
    const char *source = text + run->item->offset;
    /* kept[index]: where byte `index` of the run lands in the text given (the bytes before it kept). */
    int *kept = g_new(int, length + 1);
    char *words = g_new(char, length + spaces + 1);
    int used = 0, removed = 0;
    for (int index = 0; index < length; index++) {
        kept[index] = used;
        if (hidden != NULL && hidden[index]) {
            kept[index + 1] = used;
            index++;
            removed++;
            continue;
        }
        words[used++] = source[index];
    }
    kept[length] = used;
    int count = 0;
    /* The advance of empty glyphs left out, given to the next glyph kept when none was before. */
    int carried = 0;
    for (int index = 0; index < glyphs->num_glyphs; index++) {
        int cluster = glyphs->log_clusters[index];
        PangoGlyphInfo glyph = glyphs->glyphs[index];
        /* The empty glyph of a soft hyphen left out goes with it, its advance (letter spacing)
           kept by the glyph before it, so every glyph stays where Pango put it. */
        if (hidden != NULL && cluster >= 0 && cluster < length && hidden[cluster]) {
            if (count > 0) glyphs->glyphs[count - 1].geometry.width += glyph.geometry.width;
            else carried += glyph.geometry.width;
            continue;
        }
        if (carried != 0) {
            glyph.geometry.x_offset += carried;
            glyph.geometry.width += carried;
            carried = 0;
        }
        glyphs->glyphs[count] = glyph;
        glyphs->log_clusters[count] = kept[cluster];
        count++;
    }
    glyphs->num_glyphs = count;
    if (spaces > 0) {
        /* The space goes where the text ends: the right for left-to-right, the left for right-to-left. */
        pango_glyph_string_set_size(glyphs, count + 1);
        int at = run->item->analysis.level % 2 == 1 ? 0 : count;
        memmove(glyphs->glyphs + at + 1, glyphs->glyphs + at, (size_t)(count - at) * sizeof *glyphs->glyphs);
        memmove(glyphs->log_clusters + at + 1, glyphs->log_clusters + at, (size_t)(count - at) * sizeof *glyphs->log_clusters);
        glyphs->glyphs[at] = (PangoGlyphInfo){.glyph = space, .geometry = {0, 0, 0}, .attr = {.is_cluster_start = 1}};
        glyphs->log_clusters[at] = used;
        for (int index = 0; index < spaces; index++) words[used++] = ' ';
        count++;
    }
    words[used] = '\0';
    copy->item->offset = 0;
    copy->item->length = used;
    copy->item->num_chars += spaces - removed;
    if (count > 0) pango_cairo_show_glyph_item(cr, words, copy);
    g_free(words);
    g_free(kept);
    g_free(hidden);
    pango_glyph_item_free(copy);
}

/// Draws the runs of `line` whose text starts within bytes [start, end), each where the line
/// places it (its offsets, rise included), in logical order, with its colour and underline, from
/// the current point (the line's start on its baseline); each run's text as `folio_show_run_text` gives it.
static void folio_show_runs(cairo_t *cr, PangoLayoutLine *line, int start, int end) {
    unsigned int count = 0;
    for (GSList *item = line->runs; item != NULL; item = item->next) count++;
    if (count == 0) return;
    folio_placed_run *runs = g_new(folio_placed_run, count);
    double x0 = 0, y0 = 0;
    cairo_get_current_point(cr, &x0, &y0);
    int x = 0;
    unsigned int index = 0;
    for (GSList *item = line->runs; item != NULL; item = item->next) {
        PangoGlyphItem *run = item->data;
        x += run->start_x_offset;
        runs[index].run = run;
        runs[index].x = x0 + (double)x / PANGO_SCALE;
        x += pango_glyph_string_get_width(run->glyphs) + run->end_x_offset;
        index++;
    }
    qsort(runs, count, sizeof *runs, folio_compare_runs);
    const char *text = pango_layout_get_text(line->layout);
    cairo_pattern_t *source = cairo_pattern_reference(cairo_get_source(cr));
    for (index = 0; index < count; index++) {
        PangoGlyphItem *run = runs[index].run;
        if (run->item->offset < start || run->item->offset >= end) continue;
        /* A wrapping space in a run of its own is given with the run before it (see folio_show_run_text). */
        if (index > 0 && folio_run_is_hidden_space(text, run) && runs[index - 1].run->item->offset >= start &&
            runs[index - 1].run->item->offset + runs[index - 1].run->item->length == run->item->offset) {
            continue;
        }
        PangoGlyphItem *next = index + 1 < count ? runs[index + 1].run : NULL;
        int spaces = next != NULL && next->item->offset < end && next->item->offset == run->item->offset + run->item->length &&
                             folio_run_is_hidden_space(text, next)
                         ? next->item->length
                         : 0;
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
        /* At the run's start on its baseline, by a translation (exact, as Pango places runs). */
        cairo_save(cr);
        cairo_translate(cr, runs[index].x, y0 - (double)run->y_offset / PANGO_SCALE);
        cairo_move_to(cr, 0, 0);
        folio_show_run_text(cr, text, run, spaces);
        if (underline) {
            PangoFontMetrics *metrics = pango_font_get_metrics(run->item->analysis.font, NULL);
            double position = (double)pango_font_metrics_get_underline_position(metrics) / PANGO_SCALE;
            double thickness = (double)pango_font_metrics_get_underline_thickness(metrics) / PANGO_SCALE;
            double width = (double)pango_glyph_string_get_width(run->glyphs) / PANGO_SCALE;
            cairo_rectangle(cr, 0, -position, width, thickness > 0 ? thickness : 0.5);
            cairo_fill(cr);
            pango_font_metrics_unref(metrics);
        }
        cairo_restore(cr);
    }
    cairo_set_source(cr, source);
    cairo_pattern_destroy(source);
    cairo_move_to(cr, x0, y0);
    g_free(runs);
}

/// Whether `line` is drawn run by run (`folio_show_runs`) rather than by Pango: it holds
/// right-to-left text and more than one run, or a run whose text Pango would not give as its words.
static int folio_line_drawn_by_runs(PangoLayoutLine *line) {
    int mixed = 0, own = 0;
    unsigned int count = 0;
    const char *text = pango_layout_get_text(line->layout);
    for (GSList *item = line->runs; item != NULL; item = item->next) {
        PangoGlyphItem *run = item->data;
        if (run->item->analysis.level % 2 == 1) mixed = 1;
        if (folio_run_needs_own_text(text, run)) own = 1;
        count++;
    }
    return own || (mixed && count >= 2);
}

void folio_show_layout_line(cairo_t *cr, PangoLayoutLine *line) {
    if (folio_line_drawn_by_runs(line)) {
        folio_show_runs(cr, line, 0, INT_MAX);
    } else {
        pango_cairo_show_layout_line(cr, line);
    }
}

void folio_show_layout_line_bytes(cairo_t *cr, PangoLayoutLine *line, int start, int end) {
    folio_show_runs(cr, line, start, end);
}

void folio_show_layout(cairo_t *cr, PangoLayout *layout) {
    /* A layout Pango draws as it reads, Pango draws whole. */
    int byRuns = 0;
    for (GSList *line = pango_layout_get_lines_readonly(layout); line != NULL && !byRuns; line = line->next) {
        byRuns = folio_line_drawn_by_runs(line->data);
    }
    if (!byRuns) {
        pango_cairo_show_layout(cr, layout);
        return;
    }
    double x0 = 0, y0 = 0;
    cairo_get_current_point(cr, &x0, &y0);
    PangoLayoutIter *iter = pango_layout_get_iter(layout);
    do {
        PangoRectangle logical;
        pango_layout_iter_get_line_extents(iter, NULL, &logical);
        int baseline = pango_layout_iter_get_baseline(iter);
        /* Moved to by a translation, not cairo_move_to, which rounds the point to 1/256 unit:
           each line lands exactly where pango_cairo_show_layout puts it. */
        cairo_save(cr);
        cairo_translate(cr, x0 + (double)logical.x / PANGO_SCALE, y0 + (double)baseline / PANGO_SCALE);
        cairo_move_to(cr, 0, 0);
        folio_show_layout_line(cr, pango_layout_iter_get_line_readonly(iter));
        cairo_restore(cr);
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
