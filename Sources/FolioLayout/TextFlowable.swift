import FolioGraphics
import FolioModel

/// Wrapped text (title, heading, paragraph) that splits between lines,
/// never leaving a single line of a paragraph alone on either page.
final class TextFlowable: Flowable {
    /// What the text is, for the PDF structure tree and the bookmarks.
    enum Role {
        /// A heading at `level` of the document's `HeadingLevels`.
        case heading(level: Int)
        case paragraph
        /// Text inside an element of its own (a footnote's, beside its label): a Span the PDF's
        /// finishing step merges into it.
        case span

        var tag: StructureTag {
            switch self {
            case .heading(let level): return .heading(level)
            case .paragraph: return .paragraph
            case .span: return .span
            }
        }
    }

    let block: TextBlock
    let color: Color
    let lines: [LineSpan]
    let range: Range<Int>
    let spaceBefore: Double
    let keepWithNext: Bool
    let role: Role
    /// Bookmark level, for headings.
    let outlineLevel: Int?
    /// Destination name for internal links.
    let anchor: String?
    /// The text's language where it is not the document's (`/Lang` on its element).
    let language: String?
    /// A heading's words, for its bookmark (nil for other text: a paragraph's words are not copied).
    private let outlineText: String?

    /// `outlineText`: a heading's words, for its bookmark at `outlineLevel`.
    init(
        block: TextBlock, color: Color, spaceBefore: Double, keepWithNext: Bool = false,
        role: Role = .paragraph, outlineLevel: Int? = nil, outlineText: String? = nil, anchor: String? = nil,
        language: String? = nil
    ) {
        self.language = language
        self.block = block
        self.color = color
        self.lines = block.lines
        self.range = 0..<lines.count
        self.spaceBefore = spaceBefore
        self.keepWithNext = keepWithNext
        self.role = role
        self.outlineLevel = outlineLevel
        self.anchor = anchor
        self.outlineText = outlineLevel == nil ? nil : outlineText
    }

    private init(_ other: TextFlowable, range: Range<Int>) {
        block = other.block
        color = other.color
        lines = other.lines
        self.range = range
        spaceBefore = other.spaceBefore
        keepWithNext = other.keepWithNext
        role = other.role
        outlineLevel = other.outlineLevel
        anchor = other.anchor
        outlineText = other.outlineText
        language = other.language
    }

    private var top: Double { range.isEmpty ? 0 : lines[range.lowerBound].top }
    private func bottom(_ end: Int) -> Double { end > range.lowerBound ? lines[end - 1].bottom : top }

    var height: Double { bottom(range.upperBound) - top }

    var retainedBytes: Int { 1024 + 64 * lines.count }

    /// The smallest number of lines that may stand alone: 2 when the block has 4 or more.
    private var minimumLines: Int { range.count >= 4 ? 2 : range.count }

    var minimumHeadHeight: Double { bottom(range.lowerBound + minimumLines) - top }

    func split(available: Double) -> (head: Flowable, tail: Flowable)? {
        guard !keepWithNext, range.count >= 2 else { return nil }
        var end = range.lowerBound
        while end < range.upperBound, bottom(end + 1) - top <= available { end += 1 }
        end = min(end, range.upperBound - minimumLines)
        guard end - range.lowerBound >= minimumLines, end < range.upperBound else { return nil }
        return (TextFlowable(self, range: range.lowerBound..<end), TextFlowable(self, range: end..<range.upperBound))
    }

    /// The notes cited on this part's lines.
    var footnoteNumbers: [Int] { block.footnoteLines.filter { range.contains($0.line) }.map(\.number) }

    func draw(on canvas: PageCanvas, at origin: Point) {
        // Where a note's citation is, for the note's link back (the first of several is kept).
        for note in block.footnoteLines where range.contains(note.line) {
            canvas.destination(FootnoteMarks.referenceAnchor(note.number), at: Point(origin.x, origin.y + lines[note.line].top - top))
        }
        if range.lowerBound == 0 {
            if let level = outlineLevel { canvas.outline(outlineText ?? "", level: level, y: origin.y) }
            if let anchor { canvas.destination(anchor, at: origin) }
        }
        canvas.tagged(role.tag, language: language) { block.draw(lines: range, on: canvas, at: origin, color: color) }
    }
}
