#include "folio_cairo_pango.h"

#include <fontconfig/fontconfig.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void folio_configure_context(PangoContext *context) {
    pango_cairo_context_set_resolution(context, 72);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    pango_cairo_context_set_font_options(context, options);
    cairo_font_options_destroy(options);
}

PangoFontDescription *folio_font_description(const char *family, double size, int bold, int italic) {
    PangoFontDescription *description = pango_font_description_from_string(family);
    if (description == NULL) return NULL;
    // Made from the family's name, then the fields are set one by one.
    pango_font_description_set_family(description, family);
    pango_font_description_set_absolute_size(description, size * PANGO_SCALE);
    pango_font_description_set_weight(description, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_style(description, italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
    return description;
}

/* The loading thread's state, guarded by `mutex`; but `family`, `fonts` and `count`, which are written
   once before `given` is set and read by the thread only after it saw `given`. */
static struct {
    pthread_mutex_t mutex;
    pthread_cond_t finished;
    pthread_cond_t changed; /* `given` or `stop` was set */
    int started;            /* the thread was started */
    int given;              /* folio_start_loading_fonts handed over the fonts to load */
    int running;            /* the thread has not finished */
    int stop;               /* asked to stop after the font it is loading */
    int taken;              /* a thread adopted its font map (or found none) */
    PangoFontMap *map;      /* the font map it filled, from when it finished until it is taken */
    char *family;
    folio_font_request *fonts;
    size_t count;
} loader = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0};

static int folio_loader_asked_to_stop(void) {
    pthread_mutex_lock(&loader.mutex);
    int stop = loader.stop;
    pthread_mutex_unlock(&loader.mutex);
    return stop;
}

static void folio_loader_finish(PangoFontMap *map) {
    pthread_mutex_lock(&loader.mutex);
    loader.map = map;
    loader.running = 0;
    pthread_cond_broadcast(&loader.finished);
    pthread_mutex_unlock(&loader.mutex);
}

/* Reads the configuration, then, in a font map of its own configured as the text engine's, asks
   for each requested font's fontset and lays out a line in each font: what the first layouts would
   otherwise wait for. Pango 1.50 starts two threads for each new fontset, a match (which the font's
   first layout waits for) and a sort (needed only for characters the font lacks; 2.2 M instructions
   with the CJK fonts installed). Asked for one at a time, as layouts meet them, each font's match
   starts only then and shares the machine's cores with the sorts of the fonts before it. Asked for
   all at once here, the matches start together while the process reads its document, and a font's
   first layout waits for its own match at most. The fontsets are asked for even when the first
   engine is already waiting (it adopts the font map right after); only the layouts stop. Nothing
   else touches the font map until it is handed over, after the thread has let go of it. */
static void *folio_load_fonts(void *unused) {
    (void)unused;
    FcInit();
    /* Started before the fonts were known (folio_start_reading_font_configuration): wait for them. */
    pthread_mutex_lock(&loader.mutex);
    while (!loader.given && !loader.stop) pthread_cond_wait(&loader.changed, &loader.mutex);
    int given = loader.given;
    pthread_mutex_unlock(&loader.mutex);
    PangoFontMap *map = NULL;
    PangoFontDescription **descriptions = given && loader.count > 0 ? calloc(loader.count, sizeof *descriptions) : NULL;
    if (descriptions != NULL) {
        map = pango_cairo_font_map_new();
        pango_cairo_font_map_set_resolution(PANGO_CAIRO_FONT_MAP(map), 72);
        PangoContext *context = pango_font_map_create_context(map);
        folio_configure_context(context);
        /* The language layouts itemize with: the context's, which is the process's default unless set. */
        PangoLanguage *language = pango_context_get_language(context);
        if (language == NULL) language = pango_language_get_default();
        size_t made = 0;
        for (; made < loader.count; made++) {
            folio_font_request request = loader.fonts[made];
            PangoFontDescription *description = folio_font_description(loader.family, request.size, request.bold, request.italic);
            if (description == NULL) break;
            descriptions[made] = description;
            PangoFontset *fontset = pango_font_map_load_fontset(map, context, description, language);
            if (fontset != NULL) g_object_unref(fontset);
            if (request.italic) {
                /* A line's height comes from its font's metrics, which Pango takes from a layout in the
                   font's own description: where the family's slanted face is an Oblique (DejaVu Sans,
                   the only family fonts are loaded ahead for), that is an oblique fontset. */
                PangoFontDescription *oblique = pango_font_description_copy(description);
                pango_font_description_set_style(oblique, PANGO_STYLE_OBLIQUE);
                PangoFontset *obliqueFontset = pango_font_map_load_fontset(map, context, oblique, language);
                if (obliqueFontset != NULL) g_object_unref(obliqueFontset);
                pango_font_description_free(oblique);
            }
        }
        PangoLayout *layout = pango_layout_new(context);
        pango_layout_set_text(layout, "Ag", -1);
        for (size_t index = 0; index < made && !folio_loader_asked_to_stop(); index++) {
            pango_layout_set_font_description(layout, descriptions[index]);
            pango_layout_get_extents(layout, NULL, NULL);
        }
        g_object_unref(layout);
        g_object_unref(context);
        for (size_t index = 0; index < made; index++) pango_font_description_free(descriptions[index]);
        free(descriptions);
    }
    folio_loader_finish(map);
    return NULL;
}

/* Starts the thread unless it was started; called with `mutex` held. */
static void folio_start_loader_locked(void) {
    if (loader.started) return;
    loader.started = 1;
    loader.running = 1;
    pthread_attr_t attributes;
    pthread_t thread;
    /* When no thread can be started, Pango reads the configuration when it first needs it, as always. */
    int created = pthread_attr_init(&attributes) == 0;
    if (created) {
        created = pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED) == 0 &&
                  pthread_create(&thread, &attributes, folio_load_fonts, NULL) == 0;
        pthread_attr_destroy(&attributes);
    }
    if (!created) loader.running = 0;
}

void folio_start_reading_font_configuration(void) {
    pthread_mutex_lock(&loader.mutex);
    folio_start_loader_locked();
    pthread_mutex_unlock(&loader.mutex);
}

void folio_start_loading_fonts(const char *family, const folio_font_request *fonts, size_t count) {
    pthread_mutex_lock(&loader.mutex);
    if (!loader.given) {
        /* The thread reads these only after `given` is set, and nothing writes them again. */
        loader.family = strdup(family != NULL ? family : "");
        loader.fonts = count > 0 ? malloc(count * sizeof *fonts) : NULL;
        loader.count = loader.family != NULL && loader.fonts != NULL ? count : 0;
        if (loader.count > 0) memcpy(loader.fonts, fonts, count * sizeof *fonts);
        loader.given = 1;
        pthread_cond_broadcast(&loader.changed);
        folio_start_loader_locked();
    }
    pthread_mutex_unlock(&loader.mutex);
}

PangoFontMap *folio_font_map_for_this_thread(void) {
    pthread_mutex_lock(&loader.mutex);
    PangoFontMap *adopted = NULL;
    if (loader.started && !loader.taken) {
        loader.stop = 1;
        pthread_cond_broadcast(&loader.changed);
        while (loader.running) pthread_cond_wait(&loader.finished, &loader.mutex);
        adopted = loader.map;
        loader.map = NULL;
        loader.taken = 1;
    }
    pthread_mutex_unlock(&loader.mutex);
    if (adopted != NULL) {
        pango_cairo_font_map_set_default(PANGO_CAIRO_FONT_MAP(adopted));
        g_object_unref(adopted);
    }
    return pango_cairo_font_map_get_default();
}
