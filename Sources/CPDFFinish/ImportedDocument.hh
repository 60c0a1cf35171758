// Pages of a PDF made elsewhere, checked and held as the objects a document writes to show them.
#ifndef FOLIO_IMPORTED_DOCUMENT_HH
#define FOLIO_IMPORTED_DOCUMENT_HH

// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif
#include "Deflate.hh"

#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjectHandle.hh>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace folio_finish {

/// The pages of a PDF another program made, read once by qpdf and checked (not encrypted, not
/// damaged, no JavaScript or launch actions, a page tree without loops, at most so many pages), then
/// — once the pages to show are chosen — held as the text of the objects that draw them and nothing
/// else: each page a Form XObject (its content, its resources, its box mapped onto the unit square,
/// its rotation applied) standing in for a placeholder picture, with the fonts, images and patterns
/// it uses, and its links to web addresses (for the document to lay over the page again). What
/// printable annotations show (a filled form field, a signature's picture) becomes page content
/// first; the annotations themselves, forms, actions, embedded files and structure never come along; marked content in the
/// page's own stream is taken out (the page is one Figure of the document). The
/// parsed file is let go of once the pages are chosen. Immutable after that, so documents on any
/// thread may write it.
class ImportedDocument {
  public:
    /// One chosen page: its Form XObject (a local object number), the objects it needs (its own
    /// included; local numbers), and its size as shown (rotation applied).
    /// A link of the page to a web address, where it is on the page as shown: `x`, `y` (from the
    /// top left), `width` and `height` as fractions of the page's width and height.
    struct Link {
        std::string uri;
        double x = 0, y = 0, width = 0, height = 0;
    };

    struct Page {
        int form = 0;
        std::vector<int> closure;
        double width = 0;
        double height = 0;
        /// Its links to web addresses (URI actions), at most `maximumLinks`; its other annotations are not kept.
        std::vector<Link> links;
    };

    /// The most links kept of one page.
    static constexpr size_t maximumLinks = 500;

    /// Reads `pdf` and checks it; throws std::runtime_error with a reason a reader understands.
    /// `maximumPages` bounds the pages it may have.
    ImportedDocument(std::string_view pdf, size_t maximumPages);

    /// How many pages the file has.
    size_t pageCount() const { return sourcePageCount; }

    /// Keeps pages `indices` (from 0, in the order given) as objects and lets the parsed file go.
    /// Throws std::runtime_error naming the page (from 1) that cannot be shown; with
    /// `requireEmbeddedFonts`, a page using a font that is not embedded (PDF/UA and PDF/A need every
    /// font embedded). Called once.
    void choose(std::vector<size_t> const &indices, bool requireEmbeddedFonts);

    /// The chosen pages.
    std::vector<Page> const &pages() const { return chosen; }

    /// The text of local object `number` (from 1), numbered locally.
    std::string const &object(int number) const { return objects.at(static_cast<size_t>(number)); }

    /// How many local objects there are, plus one (object 0 is none).
    size_t objectSlots() const { return objects.size(); }

    /// The bytes held.
    size_t size() const { return heldBytes; }

    /// The bytes the chosen pages' content inflated to, all together.
    size_t contentSize() const { return contentBytes; }

    /// The most text-showing operators (`Tj`, `TJ`, `'`, `"`) of any one chosen page: reading a
    /// page's text costs poppler time that grows with their square where they overlap.
    size_t mostTextOperators() const { return mostTextShown; }

    /// The text-showing operators of all the chosen pages.
    size_t textOperators() const { return textShown; }

    /// The most bytes the content of all the pages chosen of one file may inflate to.
    static constexpr size_t maximumFileContentBytes = 128u << 20;

  private:
    std::unique_ptr<QPDF> source;
    std::string bytes;
    size_t sourcePageCount = 0;
    std::vector<Page> chosen;
    /// Local objects' texts (index 0 unused).
    std::vector<std::string> objects;
    size_t heldBytes = 0;
    size_t contentBytes = 0;
    size_t mostTextShown = 0;
    size_t textShown = 0;
    Deflate deflate;
};

} // namespace folio_finish

#endif
