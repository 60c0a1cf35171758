/// A printed table of contents: the document's sections and subtitles (and appended PDFs, by their
/// titles) down to `depth`, each with its page number after a dot leader and a link to it. Tagged
/// `TOC` and `TOCI` in the PDF, a `nav` of nested lists in HTML (without page numbers: a web page has
/// none). Its page numbers are filled in once the document is paginated: it is laid out once.
public struct Contents: Sendable, Hashable, Codable, BlockConvertible {
    /// The heading above the list; by default the language's word ("Contents").
    public var title: String?
    /// How deep the list goes, in bookmark levels: 1 (the default) lists the top headings (sections,
    /// or subtitles when there are no sections), 2 the subtitles in sections too, up to 6.
    public var depth: Int

    /// A table of contents titled `title` (the language's word when nil), `depth` levels deep.
    public init(title: String? = nil, depth: Int = 1) {
        self.title = title
        self.depth = depth
    }

    private enum CodingKeys: String, CodingKey { case title, depth }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(.title)
        depth = try container.decode(.depth, default: 1)
    }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encode(depth, forKey: .depth)
    }

    /// The table of contents as a block.
    public var block: Block { .contents(self) }
}

extension Contents: BlockContent {
    /// `contents`.
    package static let kind = Block.Kind.contents
    /// Checks the depth (1 to 6).
    package func validate(path: String) throws {
        guard (1...6).contains(depth) else { throw FolioError(path: "\(path).depth", "must be between 1 and 6; found \(depth)") }
    }
    /// Its title (the entries are the headings' own words).
    package var textContent: [String] { [title].compactMap { $0 } }
    /// A list of the whole document stands in the column, not beside other blocks.
    package static var standsInColumns: Bool { false }
}

/// One heading of a document as its table of contents lists it.
package struct HeadingEntry: Sendable, Hashable {
    /// The heading block's path (`elements[4]`), where the layout report finds its page.
    package let path: String
    /// Its words.
    package let text: String
    /// Its depth among the bookmarks (1 for the top headings).
    package let depth: Int
    /// The anchor links to it name: its `id`, or one made for the table of contents.
    package let anchor: String
}

extension Document {
    /// Whether the document prints a table of contents.
    package var hasContents: Bool { elements.contains { $0.kind == .contents } }

    /// Every heading with a bookmark, in order: sections, subtitles and appended PDFs, at their
    /// depth in the document's heading scheme (`HeadingLevels`), each with the anchor its `id` names
    /// or, without one, `contents-N` (N its place among the document's blocks).
    package var headingEntries: [HeadingEntry] {
        var levels = HeadingLevels(hasTitle: !title.isEmpty)
        var entries: [HeadingEntry] = []
        for (index, block) in elements.enumerated() {
            let path = "elements[\(index)]"
            let level: Int
            let text: String
            let id: String?
            if case .section(let section) = block {
                levels.inSection = true
                (level, text, id) = (levels.section, section.title, section.id)
            } else if case .subtitle(let subtitle) = block {
                (level, text, id) = (levels.subtitle, subtitle.text, subtitle.id)
            } else if case .pdf(let pdf) = block {
                (level, text, id) = (levels.subtitle, pdf.shownTitle, nil)
            } else {
                continue
            }
            entries.append(
                HeadingEntry(path: path, text: text, depth: levels.outlineDepth(ofHeading: level), anchor: id ?? "contents-\(index)"))
        }
        return entries
    }

    /// The anchor of each heading a table of contents lists, by its path: its `id`, or the one made
    /// for it. A heading no table of contents lists (none, or deeper than its `depth`) gets none made:
    /// each destination costs the PDF a named destination.
    package func contentsAnchors() -> [String: String] {
        let depth = elements.reduce(0) { deepest, block in
            if case .contents(let contents) = block { return max(deepest, contents.depth) }
            return deepest
        }
        guard depth > 0 else { return [:] }
        return Dictionary(
            headingEntries.filter { $0.depth <= depth }.map { ($0.path, $0.anchor) }, uniquingKeysWith: { first, _ in first })
    }
}
