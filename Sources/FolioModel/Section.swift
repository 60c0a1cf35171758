/// The start of a section, such as one patient in a packet of many: it begins a new
/// page, restarts "Page N of M" for its pages, opens a bookmark and names its page labels.
public struct Section: Sendable, Hashable, Codable {
    /// The section's heading, also its bookmark.
    public var title: String
    /// Prefix of the PDF page labels of its pages ("P00001-1", "P00001-2"); none by default.
    public var label: String?
    /// Anchor for internal links (`[see](#id)`).
    public var id: String?

    /// A section titled `title`, with page labels starting `label` and an anchor `id`.
    public init(title: String, label: String? = nil, id: String? = nil) {
        self.title = title
        self.label = label
        self.id = id
    }
}

/// The section-level facts of a page, for footers and page labels.
public struct PageNumbering: Sendable, Hashable {
    /// Page number within its section (or the document when there are no sections), from 1.
    public var page: Int
    /// Pages in that section.
    public var pages: Int
    /// Page number in the whole document, from 1.
    public var documentPage: Int
    /// Pages in the document.
    public var documentPages: Int

    /// Page facts of one page.
    public init(page: Int, pages: Int, documentPage: Int, documentPages: Int) {
        self.page = page
        self.pages = pages
        self.documentPage = documentPage
        self.documentPages = documentPages
    }
}

extension Section: BlockContent {
    /// `section`.
    package static let kind = Block.Kind.section
    /// A section needs a title.
    package func validate(path: String) throws {
        if title.isEmpty { throw FolioError(path: "\(path).title", "a section needs a title") }
    }
    /// The section's title.
    package var textContent: [String] { [title] }
    /// The section's `id`.
    package var anchor: String? { id }
    /// The section's title is a heading.
    package var heading: String? { title }
    /// A section starts a page: it cannot stand in a column.
    package static var standsInColumns: Bool { false }
}
