import FolioGraphics
import FolioModel

/// Wrapped text of any length, as one list of lines. Pango 1.50 spends time per line in
/// proportion to the whole layout, so long text (over `TextChunks.threshold` characters)
/// is laid out in pieces stacked one under the other; paragraphs and message bodies both
/// go through here, and whoever splits or draws them sees only lines.
final class TextBlock {
    /// The stacked layouts, top to bottom.
    let pieces: [ShapedText]
    /// The top of each piece in block coordinates.
    private let pieceTops: [Double]
    /// Every line's logical extents in block coordinates, in reading order.
    let lines: [Rect]
    /// For each line, the piece it belongs to.
    private let pieceOfLine: [Int]

    init(pieces: [ShapedText]) {
        self.pieces = pieces
        var tops: [Double] = []
        var lines: [Rect] = []
        var owners: [Int] = []
        var top = 0.0
        for (index, piece) in pieces.enumerated() {
            tops.append(top)
            for line in piece.lineExtents {
                lines.append(Rect(x: line.x, y: top + line.y, width: line.width, height: line.height))
                owners.append(index)
            }
            top += piece.metrics.height
        }
        pieceTops = tops
        self.lines = lines
        pieceOfLine = owners
    }

    /// One layout's text as a block.
    convenience init(_ layout: ShapedText) { self.init(pieces: [layout]) }

    /// The laid-out `runs`: one layout, or pieces of a few thousand characters for long text.
    /// Stops between pieces when the render's deadline has passed.
    convenience init(
        _ runs: [TextRun], engine: TextShaper, font: FontSpec, width: Double,
        alignment: Paragraph.Alignment, linkColor: Color?
    ) throws {
        self.init(
            pieces: try TextChunks.chunks(runs).map {
                try RenderDeadline.check()
                return engine.paragraph($0, font: font, width: width, alignment: alignment, linkColor: linkColor)
            })
    }

    /// Height of lines `range` from the top of its first line to the bottom of its last.
    func height(of range: Range<Int>) -> Double {
        range.isEmpty ? 0 : lines[range.upperBound - 1].maxY - lines[range.lowerBound].y
    }

    /// Draws lines `range` with the top of the first at `origin`; only their own lines and links.
    func draw(lines range: Range<Int>, on canvas: PageCanvas, at origin: Point, color: Color) {
        guard !range.isEmpty else { return }
        let top = lines[range.lowerBound].y
        if range.count == lines.count {
            for (piece, pieceTop) in zip(pieces, pieceTops) {
                canvas.draw(piece, at: Point(origin.x, origin.y + pieceTop), color: color)
            }
            return
        }
        for index in pieceOfLine[range.lowerBound]...pieceOfLine[range.upperBound - 1] {
            // The visible part in the piece's own coordinates.
            let visible = (top - pieceTops[index])...(top + height(of: range) - pieceTops[index])
            canvas.draw(
                pieces[index], at: Point(origin.x, origin.y - top + pieceTops[index]), color: color,
                visible: visible)
        }
    }
}
