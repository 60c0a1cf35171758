import FolioCharts
import FolioGraphics
import FolioModel

/// A row of key-metric tiles of equal width.
final class WidgetsFlowable: Flowable {
    struct Tile {
        let title: ShapedText
        let value: ShapedText
        let detail: ShapedText?
        let tint: Color
        /// The sparkline's values and its words (last value and range), if the tile has one.
        var sparkline: [Double?]? = nil
        var sparklineWords: ShapedText? = nil
    }

    /// The height of a tile's sparkline.
    static let sparklineHeight = 18.0

    let tiles: [Tile]
    let width: Double
    let theme: Theme

    static let gap = 8.0
    static let padding = 10.0

    /// Tiles run from the right, accent bars on their right, for right-to-left languages.
    let rightToLeft: Bool

    init(tiles: [Tile], width: Double, theme: Theme, rightToLeft: Bool) {
        self.rightToLeft = rightToLeft
        self.tiles = tiles
        self.width = width
        self.theme = theme
    }

    /// Width of each tile's text for `count` tiles in `frame`.
    static func textWidth(frame: Double, count: Int) -> Double {
        (frame - gap * Double(count - 1)) / Double(count) - 2 * padding
    }

    private func contentHeight(_ tile: Tile) -> Double {
        tile.title.metrics.height + 4 + tile.value.metrics.height + (tile.detail.map { $0.metrics.height + 2 } ?? 0)
            + (tile.sparkline == nil ? 0 : WidgetsFlowable.sparklineHeight + 4 + (tile.sparklineWords?.metrics.height ?? 0))
    }

    var height: Double { (tiles.map(contentHeight).max() ?? 0) + 2 * WidgetsFlowable.padding }

    /// The tiles as a list (as the HTML's `ul`): each an item whose title, value and detail are
    /// paragraphs of their own, so a screen reader says "Average pain, 3.1, out of 10", not one run-on word.
    func draw(on canvas: PageCanvas, at origin: Point) {
        canvas.list(continues: nil) { drawContent(on: canvas, at: origin) }
    }

    private func drawContent(on canvas: PageCanvas, at origin: Point) {
        let tileWidth = (width - WidgetsFlowable.gap * Double(tiles.count - 1)) / Double(tiles.count)
        for (index, tile) in tiles.enumerated() {
            let slot = rightToLeft ? tiles.count - 1 - index : index
            let x = origin.x + Double(slot) * (tileWidth + WidgetsFlowable.gap)
            let box = Rect(x: x, y: origin.y, width: tileWidth, height: height)
            canvas.tagged(nil) {
                canvas.fill(.roundedRect(box, radius: 6), color: theme.tileBackground)
                canvas.rect(Rect(x: rightToLeft ? box.maxX - 3 : box.x, y: box.y + 6, width: 3, height: box.height - 12), color: tile.tint)
            }
            var y = box.y + WidgetsFlowable.padding
            let textX = box.x + WidgetsFlowable.padding
            canvas.tagged(.listItem) {
                canvas.tagged(.listBody) {
                    canvas.tagged(.paragraph) { canvas.draw(tile.title, at: Point(textX, y), color: theme.muted) }
                    y += tile.title.metrics.height + 4
                    canvas.tagged(.paragraph) { canvas.draw(tile.value, at: Point(textX, y), color: theme.text) }
                    y += tile.value.metrics.height + 2
                    if let detail = tile.detail {
                        canvas.tagged(.paragraph) { canvas.draw(detail, at: Point(textX, y), color: theme.muted) }
                        y += detail.metrics.height + 2
                    }
                    if let values = tile.sparkline {
                        // The line is decoration: the words under it say its last value and range.
                        let line = Rect(
                            x: textX, y: y + 2, width: tileWidth - 2 * WidgetsFlowable.padding, height: WidgetsFlowable.sparklineHeight - 4)
                        canvas.tagged(nil) { Sparkline.draw(values, in: line, color: tile.tint, on: canvas) }
                        y += WidgetsFlowable.sparklineHeight + 2
                        if let words = tile.sparklineWords {
                            canvas.tagged(.paragraph) { canvas.draw(words, at: Point(textX, y), color: theme.muted) }
                        }
                    }
                }
            }
        }
    }
}
