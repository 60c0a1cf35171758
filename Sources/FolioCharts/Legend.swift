import FolioGraphics
import FolioModel

/// Swatches with titles: wrapped into centred rows below or above the plot, or stacked on its right.
struct Legend {
    struct Entry {
        let title: String
        let color: Color
        /// A plot's marker shape, drawn as its swatch so the entry is told apart without colour.
        var shape: LinePlot.MarkerShape? = nil
        /// A plot's line as it is drawn (its dash), behind the marker: the swatch shows the series as
        /// the plot does (a dashed line without markers is a dashed line, not a square).
        var stroke: StrokeStyle? = nil
        /// A plot's area fill (its colour and opacity), behind the line.
        var fill: Color? = nil
    }

    let entries: [Entry]
    let options: LegendOptions
    let context: ChartContext

    static let swatch = 8.0
    static let gap = 14.0

    var isShown: Bool { options.position != .none && !entries.isEmpty }

    private var font: FontSpec { context.tickFont }
    private var lineHeight: Double { context.lineHeight(font) + 4 }
    private func entryWidth(_ entry: Entry) -> Double {
        swatchWidth(entry) + 4 + context.measurer.measure(entry.title, font: font).width
    }

    /// A line's swatch is long enough to show two dashes; the others are square.
    private func swatchWidth(_ entry: Entry) -> Double { entry.stroke == nil ? Legend.swatch : 2 * Legend.swatch }

    /// Width the legend takes on the right of the plot.
    var sideWidth: Double {
        guard isShown, options.position == .right else { return 0 }
        return (entries.map(entryWidth).max() ?? 0) + 12
    }

    /// Lines of entries that fit `width`.
    private func rows(width: Double) -> [[Entry]] {
        var rows: [[Entry]] = [[]]
        var used = 0.0
        for entry in entries {
            let w = entryWidth(entry)
            if used > 0, used + Legend.gap + w > width {
                rows.append([])
                used = 0
            }
            used += (used > 0 ? Legend.gap : 0) + w
            rows[rows.count - 1].append(entry)
        }
        return rows
    }

    /// Height above or below the plot, gap included.
    func bandHeight(width: Double) -> Double {
        guard isShown, options.position == .top || options.position == .bottom else { return 0 }
        return Double(rows(width: width).count) * lineHeight + 8
    }

    /// Draws the legend where its options say: above the chart, below `bottom`, or at
    /// `sideX` centred on `centerY`. Returns the chart's height with the legend.
    func draw(on canvas: Canvas, below bottom: Double, width: Double, sideX: Double, centerY: Double) -> Double {
        switch options.position {
        case .bottom:
            drawBand(on: canvas, top: bottom, width: width)
            return bottom + bandHeight(width: width)
        case .top:
            drawBand(on: canvas, top: 0, width: width)
        case .right:
            // A legend taller than the plot starts at the drawing's top and makes it taller.
            return Swift.max(bottom, drawSide(on: canvas, x: sideX, centerY: centerY))
        case .none:
            break
        }
        return bottom
    }

    /// Draws a top or bottom legend in the band starting at `top`.
    func drawBand(on canvas: Canvas, top: Double, width: Double) {
        guard bandHeight(width: width) > 0 else { return }
        canvas.beginGroup()
        var y = top + (options.position == .bottom ? 8 : 0)
        for row in rows(width: width) {
            let total = row.reduce(0) { $0 + entryWidth($1) } + Legend.gap * Double(Swift.max(row.count - 1, 0))
            var cursor = (width - total) / 2
            for entry in row {
                drawEntry(entry, on: canvas, x: cursor, centerY: y + lineHeight / 2)
                cursor += entryWidth(entry) + Legend.gap
            }
            y += lineHeight
        }
        canvas.endGroup()
    }

    /// Draws a right-hand legend, vertically centred on `centerY` but never above the drawing's
    /// top, starting at `x`; returns its bottom.
    @discardableResult
    func drawSide(on canvas: Canvas, x: Double, centerY: Double) -> Double {
        guard sideWidth > 0 else { return 0 }
        canvas.beginGroup()
        var y = Swift.max(centerY - Double(entries.count) * lineHeight / 2, 0)
        for entry in entries {
            drawEntry(entry, on: canvas, x: x + 12, centerY: y + lineHeight / 2)
            y += lineHeight
        }
        canvas.endGroup()
        return y
    }

    private func drawEntry(_ entry: Entry, on canvas: Canvas, x: Double, centerY: Double) {
        let s = Legend.swatch
        if entry.stroke != nil || entry.shape != nil {
            let width = swatchWidth(entry)
            if let fill = entry.fill {
                canvas.rect(Rect(x: x, y: centerY, width: width, height: s / 2 + 1), color: fill)
            }
            if let stroke = entry.stroke {
                canvas.line(from: Point(x, centerY), to: Point(x + width, centerY), style: stroke)
            }
            if let shape = entry.shape {
                canvas.fill(.marker(shape, center: Point(x + width / 2, centerY), radius: s / 2 - 1), color: entry.color)
            }
            canvas.draw(text: context.text.item(entry.title, font: font, color: context.theme.text, x: x + width + 4, centerY: centerY))
            return
        }
        switch options.swatch {
        case .square: canvas.rect(Rect(x: x, y: centerY - s / 2, width: s, height: s), color: entry.color)
        case .dot: canvas.fill(.circle(center: Point(x + s / 2, centerY), radius: s / 2), color: entry.color)
        case .line:
            canvas.line(
                from: Point(x, centerY), to: Point(x + s, centerY),
                style: StrokeStyle(color: entry.color, width: 2.5, cap: .round))
        }
        canvas.draw(text: context.text.item(entry.title, font: font, color: context.theme.text, x: x + s + 4, centerY: centerY))
    }
}
