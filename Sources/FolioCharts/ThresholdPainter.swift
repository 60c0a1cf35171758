import FolioGraphics
import FolioModel

/// Draws CareKit-style thresholds across an x/y plot: a dashed line for a limit,
/// a tinted band for a target range, each with its label at the right end.
struct ThresholdPainter {
    let thresholds: [ChartThreshold]
    let context: ChartContext

    func color(_ threshold: ChartThreshold) -> Color { threshold.tint ?? context.thresholdColor }

    /// Where a threshold's label sits: just above its line or band.
    private func labelAnchor(_ threshold: ChartThreshold, frame: PlotFrame) -> Double {
        let value = threshold.kind == .range ? (threshold.upper ?? threshold.value) : threshold.value
        return Swift.min(Swift.max(frame.y(value), frame.plot.y), frame.plot.maxY)
    }

    /// The labels, drawn after the data on a white backing so points never hide them.
    func drawLabels(on canvas: Canvas, frame: PlotFrame) {
        let font = context.tickFont.with(bold: true)
        let height = context.lineHeight(font)
        for threshold in thresholds {
            guard let label = threshold.label else { continue }
            let item = context.text.item(
                label, font: font, color: color(threshold).readable(on: .white), x: frame.plot.maxX - 2,
                top: Swift.max(frame.plot.y, labelAnchor(threshold, frame: frame) - height - 1),
                anchor: .end)
            canvas.fill(.roundedRect(item.frame.insetBy(dx: -2, dy: 0), radius: 2), color: Color.white.withAlpha(0.85))
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
            func clampedY(_ v: Double) -> Double { Swift.min(Swift.max(frame.y(v), plot.y), plot.maxY) }
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
    func exceeded(_ value: Double, series: String) -> ChartThreshold? {
        thresholds.first { $0.highlight && ($0.series == nil || $0.series == series) && $0.isBeyond(value) }
    }
}
