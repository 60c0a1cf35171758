import FolioGraphics
import FolioModel

/// Swatches with series titles, wrapped into centred rows.
struct Legend {
    let entries: [(title: String, color: Color)]
    let font: FontSpec
    let textColor: Color
    let text: ChartText

    static let swatch = 8.0
    static let gap = 14.0

    /// Lines of entries that fit `width`, each entry with its measured width.
    private func rows(width: Double) -> [[(title: String, color: Color, width: Double)]] {
        var rows: [[(title: String, color: Color, width: Double)]] = [[]]
        var used = 0.0
        for entry in entries {
            let w = Legend.swatch + 4 + text.metrics(entry.title, font).width
            if used > 0, used + Legend.gap + w > width {
                rows.append([])
                used = 0
            }
            used += (used > 0 ? Legend.gap : 0) + w
            rows[rows.count - 1].append((entry.title, entry.color, w))
        }
        return rows
    }

    /// Height the legend needs at `width`.
    func height(width: Double) -> Double {
        guard !entries.isEmpty else { return 0 }
        return Double(rows(width: width).count) * lineHeight
    }

    private var lineHeight: Double { text.metrics("Ag", font).height + 4 }

    /// Draws the legend with its top at `top`, centred in `width` from `x`.
    func draw(on canvas: Canvas, x: Double, top: Double, width: Double) {
        canvas.beginGroup(label: "Legend")
        var y = top
        for row in rows(width: width) {
            let total = row.reduce(0) { $0 + $1.width } + Legend.gap * Double(max(row.count - 1, 0))
            var cursor = x + (width - total) / 2
            for entry in row {
                let center = y + lineHeight / 2
                canvas.rect(Rect(x: cursor, y: center - Legend.swatch / 2, width: Legend.swatch, height: Legend.swatch),
                            color: entry.color)
                canvas.draw(text: text.item(entry.title, font: font, color: textColor,
                                            x: cursor + Legend.swatch + 4, centerY: center))
                cursor += entry.width + Legend.gap
            }
            y += lineHeight
        }
        canvas.endGroup()
    }
}
