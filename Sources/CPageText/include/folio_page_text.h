// The text of a PDF's pages, read by poppler-glib (Debian's libpoppler-glib8), opened with dlopen on
// first use: what an appended page says, as its text alternative when its block gives none.
#ifndef FOLIO_PAGE_TEXT_H
#define FOLIO_PAGE_TEXT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What reading the text went to.
typedef enum folio_page_text_status {
    FOLIO_PAGE_TEXT_OK = 0,
    /// libpoppler-glib.so.8 could not be opened.
    FOLIO_PAGE_TEXT_NO_LIBRARY = 1,
    /// The PDF could not be opened by poppler.
    FOLIO_PAGE_TEXT_UNREADABLE = 2,
} folio_page_text_status;

/// The text of pages `pages` (`count` of them, from 0) of `pdf` (`length` bytes), each as UTF-8 in
/// `texts[i]` (NULL for a page that does not exist), each cut to `maximum_bytes`. Free with
/// `folio_page_texts_free`. `texts` must hold `count` pointers.
folio_page_text_status folio_page_texts(
    const unsigned char *pdf, size_t length, const size_t *pages, size_t count, size_t maximum_bytes, char **texts);

/// Frees what `folio_page_texts` gave.
void folio_page_texts_free(char **texts, size_t count);

#ifdef __cplusplus
}
#endif

#endif
