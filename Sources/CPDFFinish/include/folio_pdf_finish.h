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

/// A key and certificate that sign PDFs (PAdES baseline B-B: a detached CMS with
/// SubFilter ETSI.CAdES.detached over SHA-256, with the signing-certificate-v2 attribute), made
/// with OpenSSL's libcrypto. Loaded once, used by any number of threads.
typedef struct folio_pdf_signer folio_pdf_signer;

/// What went wrong loading a signer (`folio_pdf_signer_create`).
typedef enum folio_pdf_signer_problem {
    FOLIO_SIGNER_OK = 0,
    /// The private key cannot be read (not PEM, or encrypted and the passphrase is wrong or missing).
    FOLIO_SIGNER_BAD_KEY = 1,
    /// The certificate cannot be read.
    FOLIO_SIGNER_BAD_CERTIFICATE = 2,
    /// A certificate of the chain cannot be read.
    FOLIO_SIGNER_BAD_CHAIN = 3,
    /// The private key is not the certificate's.
    FOLIO_SIGNER_KEY_MISMATCH = 4,
    /// The certificate's key usage does not allow signing documents.
    FOLIO_SIGNER_USAGE = 5,
    /// A test signature failed.
    FOLIO_SIGNER_FAILED = 6,
} folio_pdf_signer_problem;

/// A signer from the bytes of its files: the private key (PEM, PKCS#8 or traditional, or DER; or a
/// PKCS #12 bundle holding the key, its certificate and chain; `passphrase` for an encrypted one,
/// or NULL), the signing certificate (PEM or DER; `certificate_length` 0 to take the bundle's),
/// and optionally more certificates to embed (the chain up to the root, `chain_length` 0 for
/// none). Returns NULL and sets `*problem` and a one-line reason in `message` when they cannot sign.
folio_pdf_signer *folio_pdf_signer_create(
    const char *key_pem, size_t key_length, const char *certificate_pem, size_t certificate_length, const char *chain_pem,
    size_t chain_length, const char *passphrase, folio_pdf_signer_problem *problem, char *message, size_t message_capacity);

/// The certificate's validity (seconds since 1970, UTC) and its subject's common name (UTF-8,
/// NUL-terminated, cut to `name_capacity`).
void folio_pdf_signer_describe(
    const folio_pdf_signer *signer, long long *not_before, long long *not_after, char *name, size_t name_capacity);

/// Frees a signer.
void folio_pdf_signer_free(folio_pdf_signer *signer);

/// 1 when a PDF can be encrypted: GnuTLS, qpdf's crypto provider, opened on first use, is installed
/// (libgnutls.so.30); 0 otherwise.
int folio_pdf_encryption_available(void);

/// A file carried inside the PDF as an associated file (ISO 32000-2 14.13; PDF/A-3): an embedded
/// file stream with its MIME type and /Params, a file specification with /AFRelationship, listed in
/// the catalog's /AF and /Names /EmbeddedFiles. Strings are UTF-8 and NUL-terminated.
typedef struct folio_pdf_attachment {
    /// The file's name (/UF; /F holds it with other than ASCII letters, digits and . _ - as _).
    const char *name;
    /// Its MIME type, such as "application/fhir+json" (the stream's /Subtype).
    const char *mime_type;
    /// Data, Source, Alternative, Supplement or Unspecified.
    const char *relationship;
    /// What it is (/Desc).
    const char *description;
    /// Its creation and modification date as a PDF date, such as "D:20261116080000Z".
    const char *date;
    /// Its MD5 digest (/Params /CheckSum).
    unsigned char checksum[16];
    /// Its bytes.
    const unsigned char *bytes;
    size_t length;
} folio_pdf_attachment;

/// What to add to the PDF Cairo writes, for the whole document. Strings are UTF-8 and NUL-terminated.
typedef struct folio_pdf_finishing {
    /// BCP 47 language of the document (catalog /Lang); NULL or "" leaves it out.
    const char *language;
    /// The complete XMP packet for the catalog's /Metadata; NULL for none.
    const char *xmp;
    size_t xmp_length;
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
    /// Signs the finished file (an invisible signature field on the first page, a Form element
    /// in a tagged document's structure), or NULL for none.
    const folio_pdf_signer *signer;
    /// The signing time (seconds since 1970) for the signature dictionary's /M.
    long long signing_time;
    /// The signature field's description (/TU, and /Alt of its Form element), such as "Digital
    /// signature of Example Clinic".
    const char *signature_description;
    /// Writes the file identifier (the trailer's /ID) of the finished body of `length` bytes at
    /// `bytes` into `identifier`: a digest, so that the same document gets the same identifier.
    /// Called once, from the thread finishing the document, with `identify_context`. The body is
    /// the start of the finished file unless it is encrypted or signed (both write it again), so
    /// the digest can be continued into the whole file's.
    void (*identify)(void *context, const unsigned char *bytes, size_t length, unsigned char identifier[16]);
    void *identify_context;
    /// A file descriptor the finished file is written to as it is made, so a long document's file is
    /// never held in memory whole; -1 to hand the file over in memory (`folio_pdf_output_bytes`).
    /// Not for a file that is encrypted or signed (both are written again once whole). With one,
    /// `absorb` (with `identify_context`) is given every byte written to it, in order: the body's
    /// first bytes before `identify` is called with the rest of the body, the trailer's after.
    int output_fd;
    void (*absorb)(void *context, const unsigned char *bytes, size_t length);
    /// Files carried inside the PDF (copied), `attachment_count` of them; NULL for none.
    const folio_pdf_attachment *attachments;
    size_t attachment_count;
} folio_pdf_finishing;

/// A picture's image object (and soft mask) as Cairo writes it, made once from a one-page PDF and
/// written into any number of documents, from any thread (it never changes once made).
typedef struct folio_pdf_picture folio_pdf_picture;

/// The picture of `pdf` (`length` bytes: a one-page PDF Cairo wrote with one picture drawn alone),
/// or NULL when the file is not such a PDF or memory runs out.
folio_pdf_picture *folio_pdf_picture_create(const unsigned char *pdf, size_t length);

/// How many bytes a picture holds (its dictionaries and compressed data).
size_t folio_pdf_picture_size(const folio_pdf_picture *picture);

/// Frees a picture.
void folio_pdf_picture_free(folio_pdf_picture *picture);

/// A PDF made elsewhere whose pages a document shows (a `pdf` block): read and checked once, then
/// held as the objects its chosen pages need.
typedef struct folio_pdf_import folio_pdf_import;

/// Reads and checks `pdf` (`length` bytes): refused, with a one-line reason in `message` and NULL
/// returned, when it is encrypted, damaged, holds JavaScript or a launch action, has no page, a loop
/// in its page tree or more than `maximum_pages` pages.
folio_pdf_import *folio_pdf_import_open(const unsigned char *pdf, size_t length, size_t maximum_pages, char *message, size_t message_capacity);

/// How many pages the file has.
size_t folio_pdf_import_page_count(const folio_pdf_import *import);

/// Keeps pages `pages` (`count` of them, from 0, in the order to show them) and lets the parsed file
/// go. With `require_embedded_fonts`, a page using a font that is not embedded is refused. Returns
/// non-zero with a one-line reason in `message` when a page cannot be shown. Called once.
int folio_pdf_import_choose(
    folio_pdf_import *import, const size_t *pages, size_t count, int require_embedded_fonts, char *message, size_t message_capacity);

/// The size (points, its rotation applied) of chosen page `index` (from 0).
void folio_pdf_import_page_size(const folio_pdf_import *import, size_t index, double *width, double *height);

/// How many bytes the chosen pages' objects hold.
size_t folio_pdf_import_size(const folio_pdf_import *import);

/// The bytes the chosen pages' content inflated to, all together.
size_t folio_pdf_import_content_size(const folio_pdf_import *import);

/// The most text-showing operators (Tj, TJ, ', ") of one chosen page.
size_t folio_pdf_import_most_text_operators(const folio_pdf_import *import);

/// The text-showing operators of all the chosen pages.
size_t folio_pdf_import_text_operators(const folio_pdf_import *import);

/// How many links to web addresses chosen page `index` has (its other annotations are not kept).
size_t folio_pdf_import_link_count(const folio_pdf_import *import, size_t index);

/// Link `link` of chosen page `index`: its address (NUL-terminated, valid while the import lives) and
/// where it is on the page as shown, `rect` x, y (from the top left), width and height as fractions
/// of the page's size. NULL when there is no such link.
const char *folio_pdf_import_link(const folio_pdf_import *import, size_t index, size_t link, double rect[4]);

/// A picture showing chosen page `index` (from 0): drawn as a placeholder like any stored picture,
/// the page's Form XObject (and the objects it needs, once per document) written in its place.
/// NULL when there is no such page.
folio_pdf_picture *folio_pdf_import_picture(const folio_pdf_import *import, size_t index);

/// Frees an import (pictures made from it keep what they need).
void folio_pdf_import_free(folio_pdf_import *import);

/// What the finishing step needs to know about one part of the document: consecutive pages Cairo
/// wrote into a file of their own. Each list is in drawing order and counts from the part's start.
typedef struct folio_pdf_part {
    /// The text alternative of every Figure structure element, in drawing order.
    const char *const *figure_alternatives;
    size_t figure_count;
    /// One value per Table and L structure element, in drawing order: 0 when it begins a table or
    /// list, 1 when it continues the one before it (the same table or list, split over pages), so
    /// the two become one element, 2 when it is whole (a nested list: never joined, the open one left alone).
    const unsigned char *table_continues;
    size_t table_count;
    /// The table cells (TH and TD elements, numbered from 0 in drawing order) that cover more
    /// than one column, in increasing order, and how many columns each covers (/ColSpan).
    const size_t *spanning_cells;
    const size_t *spanning_columns;
    size_t spanning_count;
    /// The header cells (TH, numbered as above among all cells) that head their row rather than
    /// their column (/Scope /Row): a group's header row, a total's label; in increasing order.
    const size_t *row_header_cells;
    size_t row_header_count;
    /// The description (/Contents) of every link annotation, in drawing order.
    const char *const *link_descriptions;
    size_t link_count;
    /// The language (/Lang) of every P and H1–H6 element, in drawing order; NULL where it is the document's.
    const char *const *text_languages;
    size_t text_language_count;
    /// The language of every table cell (TH and TD), in drawing order; NULL where it is the document's.
    const char *const *cell_languages;
    size_t cell_language_count;
    /// The language of every passage its author marked (drawn as a Quote element, which Folio uses
    /// for nothing else), in drawing order: each becomes a Span with that /Lang.
    const char *const *passage_languages;
    size_t passage_language_count;
    /// Pictures drawn as placeholders: a 1×1 JPEG whose data starts with a comment holding
    /// `picture_marker` and a number N from 1 stands for `pictures[N - 1]`, whose image object is
    /// written in its place. `picture_marker` holds random bytes, so that no JPEG of a document can
    /// pass for a placeholder; NULL (and no pictures) when the part draws none.
    const char *picture_marker;
    const folio_pdf_picture *const *pictures;
    size_t picture_count;
} folio_pdf_part;

/// A bookmark: its title, its level (0 for the top), the page it points at (from 0) and where on
/// that page (PDF coordinates, from the bottom left).
typedef struct folio_pdf_outline {
    const char *title;
    int level;
    size_t page;
    double x;
    double y;
} folio_pdf_outline;

/// A finished PDF, owned by the caller until `folio_pdf_output_free`.
typedef struct folio_pdf_output folio_pdf_output;

/// One PDF being finished from the parts Cairo writes, one part at a time, so that memory holds one
/// part's structure and not the whole document's (a tagged table of 100,000 rows has 600,000
/// structure elements). The parts become one file: one page tree, one structure tree (a table
/// split over parts is one Table element), one parent tree, one set of named destinations and
/// page labels, bookmarks written from `folio_pdf_outline`s.
typedef struct folio_pdf_assembly folio_pdf_assembly;

/// A new assembly for a document finished as `finishing` says (copied: it need not outlive the
/// call; its signer must outlive the assembly). NULL when memory runs out.
folio_pdf_assembly *folio_pdf_assembly_create(const folio_pdf_finishing *finishing);

/// Finishes the next part, `pdf` (`length` bytes written by Cairo), described by `part`. On failure
/// returns non-zero and writes a one-line reason into `message` (at most `message_capacity` bytes,
/// NUL-terminated); the assembly is then of no further use.
int folio_pdf_assembly_add(
    folio_pdf_assembly *assembly, const folio_pdf_part *part, const unsigned char *pdf, size_t length, char *message,
    size_t message_capacity);

/// Writes the document-wide objects (page tree, structure tree root, bookmarks from `outlines`,
/// catalog, metadata), encrypts and signs as asked. On success returns 0 and sets `*output`; on
/// failure returns non-zero and writes a one-line reason into `message`.
int folio_pdf_assembly_finish(
    folio_pdf_assembly *assembly, const folio_pdf_outline *outlines, size_t outline_count, folio_pdf_output **output,
    char *message, size_t message_capacity);

/// Frees an assembly (finished or not).
void folio_pdf_assembly_free(folio_pdf_assembly *assembly);

/// The bytes of a finished PDF, valid until it is freed.
const unsigned char *folio_pdf_output_bytes(const folio_pdf_output *output);

/// How many bytes a finished PDF has.
size_t folio_pdf_output_length(const folio_pdf_output *output);

/// How many bytes of the finished file were written to the finishing's `output_fd` (0 without one).
size_t folio_pdf_output_written_length(const folio_pdf_output *output);

/// Copies the SHA-256 of a finished PDF's bytes into `digest` and returns 1 when the finishing step
/// took it (a signed file's, with the signature's own digest); 0 otherwise.
int folio_pdf_output_sha256(const folio_pdf_output *output, unsigned char digest[32]);

/// Frees a finished PDF.
void folio_pdf_output_free(folio_pdf_output *output);

#ifdef __cplusplus
}
#endif

#endif
