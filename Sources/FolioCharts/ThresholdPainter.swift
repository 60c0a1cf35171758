import FolioGraphics
import FolioModel

/// Draws CareKit-style thresholds across an x/y plot: a dashed line for a limit,
/// a tinted band for a target range, each with its label at the right end.
struct ThresholdPainter {
    let thresholds: [ChartThreshold]
    let context: ChartContext
    /// The titles of the series measured on the second axis: a threshold that names one is drawn
    /// against that axis, in its unit.
    var secondarySeries: Set<String> = []

    func color(_ threshold: ChartThreshold) -> Color { threshold.tint ?? context.thresholdColor }

    /// Whether `threshold` is measured on the second axis (it names a series drawn there).
    func isOnSecondAxis(_ threshold: ChartThreshold) -> Bool {
        threshold.series.map { secondarySeries.contains($0) } ?? false
    }

    /// The y of `value` of `threshold` on its axis.
    private func y(_ value: Double, of threshold: ChartThreshold, frame: PlotFrame) -> Double {
        isOnSecondAxis(threshold) ? frame.secondaryY(value) : frame.y(value)
    }

    /// The y of a threshold's line, or of a band's upper and lower edges, inside the plot.
    private func edges(_ threshold: ChartThreshold, frame: PlotFrame) -> (top: Double, bottom: Double) {
        func clamped(_ value: Double) -> Double {
            Swift.min(Swift.max(y(value, of: threshold, frame: frame), frame.plot.y), frame.plot.maxY)
        }
        guard threshold.kind == .range else {
            let y = clamped(threshold.value)
            return (y, y)
        }
        let upper = clamped(threshold.upper ?? threshold.value)
        let lower = clamped(threshold.value)
        return (Swift.min(upper, lower), Swift.max(upper, lower))
    }

    /// The labels, drawn after the data on a white backing. Each goes to the first place, in this
    /// order, where it covers neither the data (`marks`) nor an earlier label: just above its line
    /// (a band: its upper edge) at the plot's right end, at its left end, then along the line from
    /// the right; the same just below the line (inside a band, under its upper edge); a band's label
    /// last tries below its lower edge. Where every place is taken, the one that covers least.
    func drawLabels(on canvas: Canvas, frame: PlotFrame, avoiding marks: PlotMarks = PlotMarks()) {
        let font = context.tickFont.with(bold: true)
        let height = context.lineHeight(font)
        let plot = frame.plot
        var placed: [Rect] = []
        for threshold in thresholds {
            guard let label = threshold.label else { continue }
            let color = color(threshold).readable(on: .white)
            let (top, bottom) = edges(threshold, frame: frame)
            var rows = [top - height - 1, top + 1]
            if threshold.kind == .range { rows.append(bottom + 1) }
            // Measured once, at the first place; every other place moves it.
            let fallback = context.text.item(
                label, font: font, color: color, x: plot.maxX - 2, top: Swift.max(plot.y, top - height - 1), anchor: .end)
            let width = fallback.frame.width
            var places: [Point] = []
            for row in rows where row >= plot.y - 0.01 && row + height <= plot.maxY + 0.01 {
                places.append(Point(plot.maxX - 2 - width, row))
                places.append(Point(plot.x + 2, row))
                // Then along the line, from the right, an eighth of the plot at a time.
                let step = plot.width / 8
                for index in 1..<8 where plot.maxX - 2 - Double(index) * step - width >= plot.x + 2 {
                    places.append(Point(plot.maxX - 2 - Double(index) * step - width, row))
                }
            }
            places.append(fallback.origin)
            // The first free place; where none is, the one covering least (another label counts four times).
            var best: (item: TextItem, covered: Double)?
            for place in places {
                var candidate = fallback
                candidate.origin = place
                let area = candidate.frame.insetBy(dx: -2, dy: 0)
                let covered = marks.coverage(of: area) + 4 * placed.reduce(0) { $0 + PlotMarks.sharedArea($1, area) }
                if best == nil || covered < (best?.covered ?? 0) { best = (candidate, covered) }
                if covered == 0 { break }
            }
            let item = best?.item ?? fallback
            let backing = item.frame.insetBy(dx: -2, dy: 0)
            placed.append(backing)
            canvas.fill(.roundedRect(backing, radius: 2), color: Color.white.withAlpha(0.85))
            canvas.draw(text: item)
        }
    }

    /// Bands and lines, clipped to the plot's value range.
    func draw(on canvas: Canvas, frame: PlotFrame) {
        guard !thresholds.isEmpty else { return }
        let plot = frame.plot
        canvas.beginGroup()
        for threshold in thresholds {
            let tint = color(threshold)
            func clampedY(_ v: Double) -> Double { Swift.min(Swift.max(y(v, of: threshold, frame: frame), plot.y), plot.maxY) }
            switch threshold.kind {
            case .range:
                let top = clampedY(threshold.upper ?? threshold.value)
                let bottom = clampedY(threshold.value)
                canvas.rect(Rect(x: plot.x, y: top, width: plot.width, height: bottom - top), color: tint.withAlpha(0.12))
            case .greaterThan, .lessThan:
                let y = clampedY(threshold.value)
                canvas.line(from: Point(plot.x, y), to: Point(plot.maxX, y), style: StrokeStyle(color: tint, width: 1, dash: [4, 3]))
            }
        }
        canvas.endGroup()
    }

    /// The first threshold that `value` of the series titled `series` lies beyond and that highlights it.
    /// Thresholds are drawn against the first axis: one that names no series applies to the series
    /// measured on it, never to a series on the second axis (whose values are in another unit).
    func exceeded(_ value: Double, series: String, onSecondAxis: Bool = false) -> ChartThreshold? {
        thresholds.first {
            $0.highlight && ($0.series.map { $0 == series } ?? !onSecondAxis) && $0.isBeyond(value)
        }
    }
}
