// Folio's PDF finishing step, written against libqpdf (C++) and exposed to Swift as C.
// Cairo 1.16 writes the pages, the structure tree and the link annotations; this step
// adds what Cairo cannot (PDF/UA-1, optionally PDF/A-2): decoration as Artifacts,
// /Alt on figures and links, /Scope and /ColSpan on cells, one Table element per table, /Contents
// on links, /Tabs, /Lang, /MarkInfo, XMP metadata and an output intent.
#ifndef FOLIO_PDF_FINISH_H
#define FOLIO_PDF_FINISH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What to add to a PDF written by Cairo. Strings are UTF-8 and NUL-terminated.
typedef struct folio_pdf_finishing {
    /// BCP 47 language of the document (catalog /Lang); NULL or "" leaves it out.
    const char *language;
    /// The complete XMP packet for the catalog's /Metadata; NULL for none.
    const char *xmp;
    size_t xmp_length;
    /// The text alternative of every Figure structure element, in drawing order.
    const char *const *figure_alternatives;
    size_t figure_count;
    /// One flag per Table structure element, in drawing order: 1 when it continues the
    /// table before it (the same table, split over pages), so the two become one element.
    const unsigned char *table_continues;
    size_t table_count;
    /// The table cells (TH and TD elements, numbered from 0 in drawing order) that cover more
    /// than one column, in increasing order, and how many columns each covers (/ColSpan).
    const size_t *spanning_cells;
    const size_t *spanning_columns;
    size_t spanning_count;
    /// The description (/Contents) of every link annotation, in drawing order.
    const char *const *link_descriptions;
    size_t link_count;
    /// Non-zero for a tagged PDF: page content outside any structure element becomes an
    /// /Artifact marked-content sequence (running headers, footers, rules, backgrounds), and
    /// pages and catalog get PDF/UA-1's /Tabs /S and /MarkInfo.
    int tagged;
    /// An ICC profile for a PDF/A output intent; NULL for none.
    const unsigned char *icc_profile;
    size_t icc_profile_length;
    /// The output condition identifier of that profile, such as "sRGB IEC61966-2.1".
    const char *output_condition;
    /// AES-256 encryption (security handler revision 6): the password that opens the file, or
    /// NULL for none; the owner password (not NULL when encrypting); non-zero for each thing the
    /// user password allows. Text extraction for accessibility is always allowed.
    const char *user_password;
    const char *owner_password;
    int allow_print;
    int allow_copy;
    int allow_modify;
    int allow_annotate;
} folio_pdf_finishing;

/// Finishes `pdf` (`length` bytes). On success returns 0 and sets `*output` (free it with
/// `folio_pdf_free`) and `*output_length`; on failure returns non-zero and writes a
/// one-line reason into `message` (at most `message_capacity` bytes, NUL-terminated).
int folio_pdf_finish(
    const folio_pdf_finishing *finishing, const unsigned char *pdf, size_t length, unsigned char **output,
    size_t *output_length, char *message, size_t message_capacity);

/// Frees an output of `folio_pdf_finish`.
void folio_pdf_free(unsigned char *output);

#ifdef __cplusplus
}
#endif

#endif
