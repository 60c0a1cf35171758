#include "folio_page_text.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* poppler-glib is opened with dlopen when a page's text is first needed: binding it (and GLib's
   GObject) would cost every process start, and few documents append a PDF without a text
   alternative. Its entry points, declared here with the types poppler-glib's headers give them. */
typedef struct _PopplerDocument PopplerDocument;
typedef struct _PopplerPage PopplerPage;
typedef struct {
    unsigned int domain;
    int code;
    char *message;
} GError;
typedef struct {
    double x1, y1, x2, y2;
} PopplerRectangle;

static struct {
    PopplerDocument *(*new_from_data)(char *data, int length, const char *password, GError **error);
    int (*n_pages)(PopplerDocument *document);
    PopplerPage *(*get_page)(PopplerDocument *document, int index);
    char *(*get_text)(PopplerPage *page);
    int (*get_text_layout)(PopplerPage *page, PopplerRectangle **rectangles, unsigned int *count);
    void (*object_unref)(void *object);
    void (*free)(void *memory);
    void (*error_free)(GError *error);
    int available;
} poppler;

static pthread_once_t poppler_once = PTHREAD_ONCE_INIT;

static void folio_load_poppler(void) {
    void *library = dlopen("libpoppler-glib.so.8", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    *(void **)&poppler.new_from_data = dlsym(library, "poppler_document_new_from_data");
    *(void **)&poppler.n_pages = dlsym(library, "poppler_document_get_n_pages");
    *(void **)&poppler.get_page = dlsym(library, "poppler_document_get_page");
    *(void **)&poppler.get_text = dlsym(library, "poppler_page_get_text");
    *(void **)&poppler.get_text_layout = dlsym(library, "poppler_page_get_text_layout");
    *(void **)&poppler.object_unref = dlsym(library, "g_object_unref");
    *(void **)&poppler.free = dlsym(library, "g_free");
    *(void **)&poppler.error_free = dlsym(library, "g_error_free");
    poppler.available = poppler.new_from_data && poppler.n_pages && poppler.get_page && poppler.get_text &&
                        poppler.get_text_layout && poppler.object_unref && poppler.free && poppler.error_free;
}

/* The length of the UTF-8 character starting with `byte`. */
static size_t character_length(unsigned char byte) {
    if (byte < 0x80) return 1;
    if ((byte & 0xE0) == 0xC0) return 2;
    if ((byte & 0xF0) == 0xE0) return 3;
    if ((byte & 0xF8) == 0xF0) return 4;
    return 1;
}

static int is_space(unsigned char byte) { return byte == ' ' || byte == '\n' || byte == '\t' || byte == '\r'; }

/* `text` with a space put between two characters poppler runs together although the page sets
   them apart (a table's cells and rows: "Creatinine88 µmol/L60–110eGFR"): the next on another line,
   or on the same line starting more than a fifth of the line's height after the last ends. `rectangles` holds one box per character
   of `text` (poppler_page_get_text_layout). The result is malloc'd, cut to `maximum_bytes`. */
static char *spaced(const char *text, const PopplerRectangle *rectangles, size_t count, size_t maximum_bytes) {
    size_t length = strlen(text);
    size_t capacity = length * 2 + 1;
    if (capacity > maximum_bytes + 8) capacity = maximum_bytes + 8;
    char *out = malloc(capacity);
    if (out == NULL) return NULL;
    size_t written = 0;
    size_t character = 0;
    for (size_t position = 0; position < length;) {
        size_t size = character_length((unsigned char)text[position]);
        if (position + size > length) size = length - position;
        if (character > 0 && character < count && written > 0 && !is_space((unsigned char)text[position]) &&
            !is_space((unsigned char)out[written - 1])) {
            const PopplerRectangle *last = &rectangles[character - 1];
            const PopplerRectangle *next = &rectangles[character];
            double height = last->y2 - last->y1;
            int sameLine = next->y1 < last->y2 && next->y2 > last->y1;
            if (height > 0 && (!sameLine || next->x1 - last->x2 > height * 0.2)) {
                if (written + 1 >= capacity - 4) break;
                out[written++] = ' ';
            }
        }
        if (written + size >= capacity - 1 || written + size > maximum_bytes) break;
        memcpy(out + written, text + position, size);
        written += size;
        position += size;
        ++character;
    }
    out[written] = '\0';
    return out;
}

folio_page_text_status folio_page_texts(
    const unsigned char *pdf, size_t length, const size_t *pages, size_t count, size_t maximum_bytes, char **texts) {
    for (size_t index = 0; index < count; ++index) texts[index] = NULL;
    pthread_once(&poppler_once, folio_load_poppler);
    if (!poppler.available) return FOLIO_PAGE_TEXT_NO_LIBRARY;
    if (length > INT_MAX) return FOLIO_PAGE_TEXT_UNREADABLE;
    GError *error = NULL;
    /* poppler reads the bytes in place (they outlive the document); it does not change them. */
    PopplerDocument *document = poppler.new_from_data((char *)pdf, (int)length, NULL, &error);
    if (document == NULL) {
        if (error != NULL) poppler.error_free(error);
        return FOLIO_PAGE_TEXT_UNREADABLE;
    }
    int total = poppler.n_pages(document);
    for (size_t index = 0; index < count; ++index) {
        if (pages[index] >= (size_t)(total > 0 ? total : 0)) continue;
        PopplerPage *page = poppler.get_page(document, (int)pages[index]);
        if (page == NULL) continue;
        char *text = poppler.get_text(page);
        if (text != NULL) {
            PopplerRectangle *rectangles = NULL;
            unsigned int boxes = 0;
            if (!poppler.get_text_layout(page, &rectangles, &boxes)) boxes = 0;
            texts[index] = spaced(text, rectangles, boxes, maximum_bytes);
            if (rectangles != NULL) poppler.free(rectangles);
            poppler.free(text);
        }
        poppler.object_unref(page);
    }
    poppler.object_unref(document);
    return FOLIO_PAGE_TEXT_OK;
}

void folio_page_texts_free(char **texts, size_t count) {
    for (size_t index = 0; index < count; ++index) free(texts[index]);
}
