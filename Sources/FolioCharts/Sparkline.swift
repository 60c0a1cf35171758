import FolioGraphics
import FolioModel

/// A sparkline: a row's values as a small line in a table cell (or a tile), its last value marked,
/// and beside it in words its last value and range ("7.2 (5.1–8.0)"), so the line is never the only
/// way to the numbers.
package enum Sparkline {
    /// The width a sparkline takes before the cell's text, in points.
    package static let width = 44.0

    /// The words beside a sparkline of `values`: its last value and its range, in `numbers`' digits
    /// ("7.2 (5.1–8.0)"); empty when it has no value.
    package static func words(_ values: [Double?], numbers: NumberFormat) -> String {
        let known = values.compactMap { $0 }
        guard let last = values.last(where: { $0 != nil }) ?? nil, let low = known.min(), let high = known.max() else { return "" }
        // As many decimals as the most precise value has (at most 3): a sparkline's words are its data.
        let decimals = min(known.map(NumberFormat.decimalsShown).max() ?? 0, 3)
        func written(_ value: Double) -> String { numbers.grouped(numbers.string(value, decimals: decimals)) }
        // A word joiner after the dash keeps the range on one line in a narrow cell.
        return known.count == 1 ? written(last) : "\(written(last)) (\(written(low))–\u{2060}\(written(high)))"
    }

    /// `slots` with each sparkline cell's words (its last value and range) where its author wrote none.
    package static func worded(_ slots: [Table.Slot], numbers: NumberFormat) -> [Table.Slot] {
        guard slots.contains(where: { $0.sparkline != nil }) else { return slots }
        return slots.map { slot in
            guard let values = slot.sparkline, slot.text.isEmpty else { return slot }
            var worded = slot
            worded.text = words(values, numbers: numbers)
            return worded
        }
    }

    /// The line's points in `rect` (lowest value at its bottom), one per value, nil for a gap.
    package static func points(_ values: [Double?], in rect: Rect) -> [Point?] {
        let known = values.compactMap { $0 }
        guard let low = known.min(), let high = known.max() else { return values.map { _ in nil } }
        let spread = high - low
        let step = values.count > 1 ? rect.width / Double(values.count - 1) : 0
        return values.enumerated().map { index, value in
            value.map { Point(rect.x + Double(index) * step, rect.maxY - (spread > 0 ? ($0 - low) / spread : 0.5) * rect.height) }
        }
    }

    /// Draws the line of `values` in `rect` in `color`, its last point a dot.
    package static func draw(_ values: [Double?], in rect: Rect, color: Color, on canvas: Canvas) {
        let points = points(values, in: rect)
        var path = Path()
        var drawing = false
        for point in points {
            guard let point else {
                drawing = false
                continue
            }
            if drawing { path.line(to: point) } else { path.move(to: point) }
            drawing = true
        }
        canvas.stroke(path, style: StrokeStyle(color: color, width: 1.2))
        if let last = points.last(where: { $0 != nil }) ?? nil { canvas.fill(.circle(center: last, radius: 1.8), color: color) }
    }
}
