#include "folio_svg.h"

#include <dlfcn.h>
#include <pthread.h>

/* The few librsvg, GObject and GLib entry points used, declared here so that nothing links
   librsvg at build time. RsvgRectangle is four doubles. */
typedef struct {
    double x, y, width, height;
} folio_rsvg_rectangle;

typedef void *(*new_from_data_fn)(const unsigned char *data, size_t size, void **error);
typedef void (*set_dpi_fn)(void *handle, double dpi);
typedef int (*render_document_fn)(void *handle, void *cr, const folio_rsvg_rectangle *viewport, void **error);
typedef void (*object_unref_fn)(void *object);
typedef void (*error_free_fn)(void *error);

static struct {
    new_from_data_fn new_from_data;
    set_dpi_fn set_dpi;
    render_document_fn render_document;
    object_unref_fn object_unref;
    error_free_fn error_free;
    int available;
} librsvg;

static pthread_once_t librsvg_once = PTHREAD_ONCE_INIT;

static void folio_load_librsvg(void) {
    void *library = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    librsvg.new_from_data = (new_from_data_fn)dlsym(library, "rsvg_handle_new_from_data");
    librsvg.set_dpi = (set_dpi_fn)dlsym(library, "rsvg_handle_set_dpi");
    librsvg.render_document = (render_document_fn)dlsym(library, "rsvg_handle_render_document");
    librsvg.object_unref = (object_unref_fn)dlsym(library, "g_object_unref");
    librsvg.error_free = (error_free_fn)dlsym(library, "g_error_free");
    librsvg.available = librsvg.new_from_data && librsvg.set_dpi && librsvg.render_document && librsvg.object_unref
                        && librsvg.error_free;
}

int folio_svg_render(void *cr, const char *data, size_t size, double x, double y, double width, double height) {
    pthread_once(&librsvg_once, folio_load_librsvg);
    if (!librsvg.available) return -1;
    void *error = NULL;
    void *handle = librsvg.new_from_data((const unsigned char *)data, size, &error);
    if (handle == NULL) {
        if (error != NULL) librsvg.error_free(error);
        return 0;
    }
    librsvg.set_dpi(handle, 96.0);
    folio_rsvg_rectangle viewport = {x, y, width, height};
    int drawn = librsvg.render_document(handle, cr, &viewport, &error);
    if (error != NULL) librsvg.error_free(error);
    librsvg.object_unref(handle);
    return drawn ? 1 : 0;
}

int folio_svg_available(void) {
    pthread_once(&librsvg_once, folio_load_librsvg);
    return librsvg.available;
}
