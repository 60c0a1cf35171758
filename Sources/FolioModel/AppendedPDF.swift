import Foundation

/// Pages of a PDF made elsewhere (a lab report, a signed consent, an imaging report) placed into
/// the document: as whole pages of their own size, or scaled into the text column with a frame.
/// Their content is copied as it is (no re-rendering); they count in "Page N of M" and in a
/// section's numbering, get a bookmark, and each is one Figure of the document's structure with
/// `alt` (or its own text) as its text alternative; their links to web addresses stay over their words. A PDF that is
/// encrypted, damaged or holds JavaScript is refused.
public struct AppendedPDF: Sendable, Hashable, Codable, BlockConvertible {
    /// How the pages are placed.
    public enum Fit: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        /// Each page a page of the document, at its own size, without the running header and footer.
        case page
        /// Each page scaled into the text column of a page of the document, with a frame, under the
        /// running header and above the footer.
        case frame
    }

    /// The PDF file, relative to the input document's folder unless absolute.
    public var path: String
    /// The pages to place, from 1: "1-3", "2,4", "3-" (to the last); all pages by default.
    public var pages: String?
    /// What the pages hold, for a reader who cannot see them (each page's Figure is given it); empty:
    /// each page's own text is its alternative, and a page without text is refused.
    public var alt: String
    /// The bookmark's title, and the heading above framed pages; by default the file's name.
    public var title: String?
    /// Whole pages (`page`, the default) or framed in the text column (`frame`).
    public var fit: Fit

    /// The pages `pages` of the PDF at `path`, described by `alt`.
    public init(path: String, pages: String? = nil, alt: String = "", title: String? = nil, fit: Fit = .page) {
        self.path = path
        self.pages = pages
        self.alt = alt
        self.title = title
        self.fit = fit
    }

    private enum CodingKeys: String, CodingKey { case path, pages, alt, title, fit }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        pages = try container.decodeIfPresent(LenientText.self, forKey: .pages)?.value
        alt = try container.decode(.alt, default: "")
        title = try container.decodeIfPresent(.title)
        fit = try container.decode(.fit, default: .page)
    }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(pages, forKey: .pages)
        try container.encode(alt, forKey: .alt)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encode(fit, forKey: .fit)
    }

    /// The bookmark's title: `title`, or the file's name.
    public var shownTitle: String {
        if let title, !title.isEmpty { return title }
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The page ranges `pages` names, from 1 (a range's end nil: to the last page); throws naming
    /// `field` when it does not read as page ranges.
    public func pageRanges(field: String) throws -> [(first: Int, last: Int?)] {
        guard let pages, !pages.trimmingCharacters(in: .whitespaces).isEmpty else { return [(1, nil)] }
        return try pages.split(separator: ",", omittingEmptySubsequences: false).map { part in
            let range = part.trimmingCharacters(in: .whitespaces)
            let ends = range.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let wrong = FolioError(path: field, "\"\(range)\" is not a page or a range of pages such as 2, 1-3 or 4-")
            guard let first = Int(ends[0]), first >= 1, first <= AppendedPDF.maximumPages else { throw wrong }
            if ends.count == 1 { return (first, first) }
            if ends[1].isEmpty { return (first, nil) }
            guard let last = Int(ends[1]), last >= first, last <= AppendedPDF.maximumPages else { throw wrong }
            return (first, last)
        }
    }

    /// The pages chosen from a PDF of `count` pages, from 0, in the order `pages` names them;
    /// throws naming `field` when it names a page the file lacks or more than `maximumPages`.
    public func chosenPages(of count: Int, field: String) throws -> [Int] {
        var chosen: [Int] = []
        for (first, end) in try pageRanges(field: field) {
            let last = end ?? count
            guard first <= count, last <= count else {
                throw FolioError(path: field, "page \(max(first, last)) does not exist: \(path) has \(count) page\(count == 1 ? "" : "s")")
            }
            guard last >= first else { continue }
            guard chosen.count + (last - first + 1) <= AppendedPDF.maximumPages else {
                throw FolioError(path: field, "more than \(AppendedPDF.maximumPages) pages are chosen")
            }
            chosen += (first - 1)..<last
        }
        return chosen
    }

    /// The most pages an appended PDF may have, and the most a block may place.
    public static let maximumPages = 2_000
    /// The most appended pages a document may place, all its pdf blocks together.
    public static let maximumDocumentPages = 10_000
    /// The most bytes an appended PDF may have.
    public static let maximumBytes = 64 * 1024 * 1024
}

extension AppendedPDF: BlockContent {
    /// `pdf`.
    package static let kind = Block.Kind.pdf
    /// Checks the path and that `pages` reads as page ranges.
    package func validate(path: String) throws {
        if self.path.isEmpty { throw FolioError(path: "\(path).path", "the PDF's path is empty") }
        _ = try pageRanges(field: "\(path).pages")
    }
    /// Nothing of the document's own text (the pages' text is the appended file's).
    package var textContent: [String] { [] }
    /// Whole pages cannot stand in a column.
    package static var standsInColumns: Bool { false }
}

extension AppendedPDF {
    /// The appended pages as a block.
    public var block: Block { .pdf(self) }
}
