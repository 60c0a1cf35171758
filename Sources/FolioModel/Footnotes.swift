/// Footnotes: a document's `footnotes` give each note's text by its id, and rich text cites one
/// with `[^id]`. Notes are numbered 1, 2, … in the order they are first cited (paragraphs, messages,
/// list items and table cells, in reading order); the PDF sets each at the foot of the page that first
/// cites it, the HTML lists them at the end.
extension Document {
    /// The most footnotes a document may have.
    public static let maximumFootnotes = 1_000

    /// Whether `id` can name a footnote: 1 to 40 letters, digits, `-` and `_` (what `[^id]` reads).
    package static func isFootnoteID(_ id: some Collection<Unicode.Scalar>) -> Bool {
        !id.isEmpty && id.count <= 40 && id.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }

    /// Each citation of a footnote, in reading order: the note's id and the field that cites it.
    package var footnoteCitations: [(id: String, field: String)] {
        var citations: [(id: String, field: String)] = []
        func visit(_ block: Block, _ path: String) {
            guard let content = block.content else { return }
            for (text, field) in content.notedTexts {
                for run in text.runs { if let id = run.footnote { citations.append((id, "\(path).\(field)")) } }
            }
            for (nested, field) in content.nestedBlocks { visit(nested, "\(path).\(field)") }
        }
        for (index, block) in elements.enumerated() { visit(block, "elements[\(index)]") }
        return citations
    }

    /// Each cited footnote's number, by its id, in the order first cited.
    package var footnoteNumbers: [String: Int] {
        guard !footnotes.isEmpty else { return [:] }
        var numbers: [String: Int] = [:]
        for citation in footnoteCitations where numbers[citation.id] == nil { numbers[citation.id] = numbers.count + 1 }
        return numbers
    }

    /// Checks that every citation names a footnote, and every footnote is text that cites none.
    func validateFootnotes() throws {
        guard footnotes.count <= Document.maximumFootnotes else {
            throw FolioError(path: "footnotes", "has \(footnotes.count) notes; at most \(Document.maximumFootnotes) are allowed")
        }
        for (id, text) in footnotes.sorted(by: { $0.key < $1.key }) {
            guard Document.isFootnoteID(id.unicodeScalars) else {
                throw FolioError(path: "footnotes", "\"\(id)\" is not a footnote id (letters, digits, - and _, at most 40)")
            }
            if text.plainText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw FolioError(path: "footnotes.\(id)", "a footnote needs text")
            }
            if text.runs.contains(where: { $0.footnote != nil }) {
                throw FolioError(path: "footnotes.\(id)", "a footnote cannot cite another ([^…])")
            }
            try text.validateLinks(path: "footnotes.\(id)")
        }
        for citation in footnoteCitations where footnotes[citation.id] == nil {
            throw FolioError(
                path: citation.field, "[^\(citation.id)] cites no footnote: add its text under footnotes (footnotes: {\(citation.id): …})")
        }
    }
}
