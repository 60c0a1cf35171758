import FolioGraphics
import FolioModel

/// Wrapped text of any length, as one list of lines. Pango 1.50 spends time per line in
/// proportion to the whole layout, so long text (over `TextChunks.threshold` characters)
/// is laid out in pieces stacked one under the other; paragraphs, headings and message bodies
/// all go through here, and whoever splits or draws them sees only lines.
///
/// The lines are measured once and kept; the shaped pieces are kept while the document's
/// `TextResidency` has room, and otherwise shaped again, the same way, when a page draws them,
/// so a document of any length holds a bounded amount of shaped text.
final class TextBlock {
    /// What the block is shaped from, so it can be shaped again after it was let go.
    struct Source {
        let runs: [TextRun]
        let font: FontSpec
        let width: Double
        let alignment: Paragraph.Alignment
        let linkColor: Color?
        let lineSpacing: Double
        /// The direction its lines are set in (nil: each piece's first letter's).
        let direction: TextDirection?
        /// Whether long text is cut into pieces (`TextChunks`); a heading is one layout.
        let chunked: Bool

        /// The runs as the layouts take them: pieces of long text, or all of it.
        var chunks: [[TextRun]] { chunked ? TextChunks.chunks(runs) : [runs] }
    }

    private let source: Source
    private let engine: TextShaper
    /// Weak: the residency holds the blocks it keeps, and a strong reference back would keep every
    /// block of every document alive (a batch worker's memory grew with each record).
    private weak var residency: TextResidency?
    /// The stacked layouts while they are kept; nil once let go.
    private var kept: [ShapedText]?
    /// How many times the block has been shaped (the residency tells its entries apart by it).
    private(set) var shaping = 0
    private let cost: Int
    /// The top of each piece in block coordinates.
    private let pieceTops: [Double]
    /// Every line's top and bottom in block coordinates, in reading order (what splitting and
    /// drawing need of a line: a long document keeps these for every block it lays out).
    let lines: [LineSpan]
    /// The index of each piece's first line.
    private let pieceFirstLines: [Int]
    /// The footnotes the block cites and the line of each citation, in order (none for most text).
    let footnoteLines: [(line: Int, number: Int)]

    private init(pieces: [ShapedText], source: Source, engine: TextShaper, residency: TextResidency?, cost: Int) {
        var tops: [Double] = []
        var lines: [LineSpan] = []
        var firstLines: [Int] = []
        var top = 0.0
        for piece in pieces {
            tops.append(top)
            firstLines.append(lines.count)
            for line in piece.lineExtents {
                // In this order, as the extents were added before: the same bottoms to the last bit.
                let lineTop = top + line.y
                lines.append(LineSpan(top: lineTop, bottom: lineTop + line.height))
            }
            top += piece.metrics.height
        }
        pieceTops = tops
        self.lines = lines
        pieceFirstLines = firstLines
        var notes: [(line: Int, number: Int)] = []
        if source.runs.contains(where: { $0.footnote != nil }) {
            for (index, piece) in pieces.enumerated() {
                for link in piece.linkLines {
                    if let number = FootnoteMarks.citedNote(link.url) { notes.append((firstLines[index] + link.line, number)) }
                }
            }
        }
        footnoteLines = notes
        self.source = source
        self.engine = engine
        self.residency = residency
        self.cost = cost
        kept = pieces
        shaping = 1
        residency?.admit(self, shaping: shaping, cost: cost)
    }

    deinit { if kept != nil { residency?.released(cost: cost) } }

    /// The laid-out `runs`: one layout, or pieces of a few thousand characters for long text,
    /// kept as `residency` allows. Stops between pieces when the render's deadline has passed.
    convenience init(
        _ runs: [TextRun], engine: TextShaper, font: FontSpec, width: Double, alignment: Paragraph.Alignment, linkColor: Color?,
        lineSpacing: Double = 1.25, chunked: Bool = true, direction: TextDirection? = nil, residency: TextResidency?
    ) throws {
        let source = Source(
            runs: runs, font: font, width: width, alignment: alignment, linkColor: linkColor, lineSpacing: lineSpacing,
            direction: direction, chunked: chunked)
        let bytes = runs.reduce(0) { $0 + $1.text.utf8.count }
        let pieces = try source.chunks.map {
            try RenderDeadline.check()
            return TextBlock.shape($0, as: source, engine: engine)
        }
        self.init(
            pieces: pieces, source: source, engine: engine, residency: residency,
            cost: TextResidency.cost(ofTextBytes: bytes, layouts: pieces.count))
    }

    private static func shape(_ runs: [TextRun], as source: Source, engine: TextShaper) -> ShapedText {
        engine.paragraph(
            runs, font: source.font, width: source.width, alignment: source.alignment, linkColor: source.linkColor,
            lineSpacing: source.lineSpacing, direction: source.direction)
    }

    /// The stacked layouts, top to bottom: those kept, or the text shaped again as it was first
    /// (the same runs, font, width and engine give the same lines).
    var pieces: [ShapedText] {
        if let kept { return kept }
        // No deadline check here: drawing a page checks it before each block.
        let pieces = source.chunks.map { TextBlock.shape($0, as: source, engine: engine) }
        kept = pieces
        shaping += 1
        residency?.admit(self, shaping: shaping, cost: cost)
        return pieces
    }

    /// Lets go of the shaped pieces (the residency's budget is spent); they are shaped again when drawn.
    func letGoOfShapes() {
        guard kept != nil else { return }
        kept = nil
        residency?.released(cost: cost)
    }

    /// Height of lines `range` from the top of its first line to the bottom of its last.
    func height(of range: Range<Int>) -> Double {
        range.isEmpty ? 0 : lines[range.upperBound - 1].bottom - lines[range.lowerBound].top
    }

    /// The piece line `line` belongs to.
    private func piece(ofLine line: Int) -> Int {
        var low = 0
        var high = pieceFirstLines.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if pieceFirstLines[middle] <= line { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Draws lines `range` with the top of the first at `origin`; only their own lines and links.
    func draw(lines range: Range<Int>, on canvas: PageCanvas, at origin: Point, color: Color) {
        guard !range.isEmpty else { return }
        let pieces = self.pieces
        guard pieces.count == pieceTops.count else { return }
        let top = lines[range.lowerBound].top
        if range.count == lines.count {
            for (piece, pieceTop) in zip(pieces, pieceTops) {
                canvas.draw(piece, at: Point(origin.x, origin.y + pieceTop), color: color)
            }
            return
        }
        for index in piece(ofLine: range.lowerBound)...piece(ofLine: range.upperBound - 1) {
            // The visible part in the piece's own coordinates.
            let visible = (top - pieceTops[index])...(top + height(of: range) - pieceTops[index])
            canvas.draw(
                pieces[index], at: Point(origin.x, origin.y - top + pieceTops[index]), color: color,
                visible: visible)
        }
    }
}

/// A line's top and bottom in its block, in points.
struct LineSpan {
    let top: Double
    let bottom: Double

    /// The line's height.
    var height: Double { bottom - top }
}
