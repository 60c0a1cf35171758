import CPDFFinish
import CPageText
import FolioGraphics
import FolioModel
import Foundation

/// The chosen pages of a PDF made elsewhere (a `pdf` block), read and checked once by qpdf when the
/// document is prepared (`folio_pdf_import`) and held as the objects those pages need, for the PDF's
/// finishing step to write in place of each page's placeholder. Immutable once made, so shared
/// between threads.
package final class ImportedPDF: Sendable, Hashable {
    /// The import's address (owned, freed with this object): kept as a number, as the C object never
    /// changes once its pages are chosen and may be read from any thread.
    private let address: UInt
    /// The import, for the finishing step's functions (never nil: an import is made or refused whole).
    package var pointer: OpaquePointer? { OpaquePointer(bitPattern: address) }
    /// Each chosen page's size in points (its rotation applied), in the order they are shown.
    package let pageSizes: [Size]
    /// The file's name, for messages.
    package let name: String
    /// Each chosen page's text, as it reads (white space run together), when the block gives no `alt`:
    /// each page's text alternative. Nil when the block gives one.
    package let pageTexts: [String]?
    /// Each chosen page's links to web addresses (http, https or mailto), where each is on the page
    /// as a fraction of its size from the top left.
    package let pageLinks: [[(url: LinkTarget, rect: Rect)]]

    /// The pages `block` chooses of the PDF `bytes`; errors name `field` and say what is wrong with
    /// the file (encrypted, damaged, JavaScript, too many pages, a font not embedded where
    /// `requiresEmbeddedFonts`).
    package init(_ bytes: Data, block: AppendedPDF, field: String, pagesField: String, requiresEmbeddedFonts: Bool) throws {
        var message = [CChar](repeating: 0, count: 512)
        let opened = bytes.withUnsafeBytes { raw in
            folio_pdf_import_open(
                raw.bindMemory(to: UInt8.self).baseAddress, raw.count, AppendedPDF.maximumPages, &message, message.count)
        }
        guard let opened else { throw FolioError(path: field, "\(block.path) is refused: \(ImportedPDF.text(message))") }
        // Freed here until this object owns it.
        var owned: OpaquePointer? = opened
        defer { if let owned { folio_pdf_import_free(owned) } }
        let chosen = try block.chosenPages(of: folio_pdf_import_page_count(opened), field: pagesField)
        guard folio_pdf_import_choose(opened, chosen, chosen.count, requiresEmbeddedFonts ? 1 : 0, &message, message.count) == 0 else {
            throw FolioError(path: field, "\(block.path) is refused: \(ImportedPDF.text(message))")
        }
        if block.alt.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            // Reading a page's text costs poppler time that grows with the square of its text
            // operators where they overlap (20,000 on one spot: 2 s): bounded per page and in all.
            let most = folio_pdf_import_most_text_operators(opened)
            let all = folio_pdf_import_text_operators(opened)
            guard most <= ImportedPDF.mostTextOperatorsPerPage, all <= ImportedPDF.mostTextOperators else {
                throw FolioError(
                    path: field,
                    "\(block.path) has no alt, and its pages show text in \(all) pieces (\(most) on one page), more than Folio reads as their alternative (\(ImportedPDF.mostTextOperatorsPerPage) a page, \(ImportedPDF.mostTextOperators) in all): give the block an alt saying what its pages show"
                )
            }
            pageTexts = try ImportedPDF.texts(of: bytes, pages: chosen, block: block, field: field)
        } else {
            pageTexts = nil
        }
        pageSizes = (0..<chosen.count).map { index in
            var width = 0.0
            var height = 0.0
            folio_pdf_import_page_size(opened, index, &width, &height)
            return Size(width, height)
        }
        pageLinks = (0..<chosen.count).map { index in
            (0..<folio_pdf_import_link_count(opened, index)).compactMap { link in
                var rect = [0.0, 0.0, 0.0, 0.0]
                guard let uri = folio_pdf_import_link(opened, index, link, &rect) else { return nil }
                // The addresses a document's own links may have; others (javascript:, file:) and the
                // source's own anchors are left out.
                guard let target = LinkTarget(String(cString: uri)), target.anchor == nil else { return nil }
                return (target, Rect(x: rect[0], y: rect[1], width: rect[2], height: rect[3]))
            }
        }
        name = block.path
        address = UInt(bitPattern: opened)
        owned = nil
    }

    deinit { if let pointer { folio_pdf_import_free(pointer) } }

    /// How many bytes the chosen pages' objects hold.
    package var byteCount: Int { pointer.map { folio_pdf_import_size($0) } ?? 0 }

    /// The most text-showing operators of one page whose text is read as its alternative (a dense
    /// page of text has a few thousand; 5,000 on one spot take poppler 0.2 s).
    static let mostTextOperatorsPerPage = 5_000
    /// The most text-showing operators of all the pages whose text is read.
    static let mostTextOperators = 40_000

    /// The most bytes of a page's text kept as its alternative.
    static let maximumTextBytes = 20_000

    /// The text of `pages` (from 0) of the PDF `bytes` (poppler-glib), white space run together; throws
    /// naming `field` when it cannot be read or a page has none (an `alt` must then say what it shows).
    private static func texts(of bytes: Data, pages: [Int], block: AppendedPDF, field: String) throws -> [String] {
        var texts = [UnsafeMutablePointer<CChar>?](repeating: nil, count: pages.count)
        let status = bytes.withUnsafeBytes { raw in
            folio_page_texts(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, pages, pages.count, maximumTextBytes, &texts)
        }
        defer { folio_page_texts_free(&texts, texts.count) }
        switch status {
        case FOLIO_PAGE_TEXT_NO_LIBRARY:
            throw FolioError(
                path: field,
                "\(block.path) has no alt, and its pages' text cannot be read (libpoppler-glib8 is not installed): give it an alt saying what its pages show"
            )
        case FOLIO_PAGE_TEXT_OK: break
        default: throw FolioError(path: field, "\(block.path) is refused: its pages' text cannot be read")
        }
        return try texts.enumerated().map { index, text in
            let words = text.map { String(cString: $0) }?.split(whereSeparator: \.isWhitespace).joined(separator: " ") ?? ""
            guard !words.isEmpty else {
                throw FolioError(
                    path: field,
                    "page \(pages[index] + 1) of \(block.path) has no text to read out: give the block an alt saying what its pages show")
            }
            return words
        }
    }

    /// The text of a NUL-terminated message buffer.
    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package static func == (left: ImportedPDF, right: ImportedPDF) -> Bool { left === right }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// One chosen page of an appended PDF: what a page of the document draws in its place.
package struct AppendedPage: Sendable, Hashable {
    /// The appended PDF.
    package let document: ImportedPDF
    /// The page among the chosen ones, from 0.
    package let index: Int
    /// Its size in points.
    package var size: Size { document.pageSizes[index] }
    /// Its links to web addresses, where each is when the page is drawn in `rect`.
    package func links(in rect: Rect) -> [(url: LinkTarget, rect: Rect)] {
        document.pageLinks[index].map { link in
            (
                link.url,
                Rect(
                    x: rect.x + link.rect.x * rect.width, y: rect.y + link.rect.y * rect.height, width: link.rect.width * rect.width,
                    height: link.rect.height * rect.height)
            )
        }
    }

    package init(document: ImportedPDF, index: Int) {
        self.document = document
        self.index = index
    }
}

extension AppendedPDF: PreparedContent {
    /// Reads the PDF (within `maximumBytes`, confined as images are), checks it and keeps the pages it places.
    package func prepare(at path: String, into preparation: inout Preparation) throws {
        let bytes = try preparation.assets.read(self.path, field: "\(path).path", limit: AppendedPDF.maximumBytes)
        let imported = try ImportedPDF(
            bytes, block: self, field: "\(path).path", pagesField: "\(path).pages",
            requiresEmbeddedFonts: preparation.requiresEmbeddedFonts)
        preparation.appendedPages += imported.pageSizes.count
        guard preparation.appendedPages <= AppendedPDF.maximumDocumentPages else {
            throw FolioError(path: "\(path).pages", "the document's pdf blocks place more than \(AppendedPDF.maximumDocumentPages) pages")
        }
        preparation.appendedPDFs[path] = imported
    }
}
