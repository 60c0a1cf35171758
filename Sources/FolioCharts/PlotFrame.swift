import FolioGraphics
import FolioModel
import Foundation

/// The frame of an x/y chart: value axis with grid and labels on the left, x labels
/// under the plot (thinned or turned so they never overlap), axis titles and legend.
/// Layouts draw their data between `drawBackground` and `drawForeground`.
struct PlotFrame {
    /// A label on the x axis at a fraction of the plot's width.
    struct XLabel {
        let fraction: Double
        let text: String
    }

    let context: ChartContext
    let width: Double
    let plot: Rect
    let yScale: AxisScale
    let yAxis: ChartAxis
    let xLabels: [XLabel]
    let xAxis: ChartAxis
    /// Draw vertical grid lines at the x labels (numeric axes).
    let xGrid: Bool
    let legend: Legend
    /// A second value axis on the trailing side, for plots in another unit.
    let secondary: (scale: AxisScale, axis: ChartAxis)?

    private let yLabels: [String]
    private let secondaryLabels: [String]
    /// Width right of the plot taken by the secondary axis (6 without one).
    private let trailingWidth: Double
    private let xLayout: XLabelLayout

    /// Lays out the frame for `width`, with a plot `plotHeight` tall and `topPadding` above it for labels.
    init(
        context: ChartContext, width: Double, plotHeight: Double, topPadding: Double, yScale: AxisScale, yAxis: ChartAxis,
        xLabels: [XLabel], xAxis: ChartAxis, xGrid: Bool, legend: Legend,
        secondary: (scale: AxisScale, axis: ChartAxis)? = nil
    ) {
        self.secondary = secondary
        self.context = context
        self.width = width
        self.yScale = yScale
        self.yAxis = yAxis
        self.xLabels = xLabels
        self.xAxis = xAxis
        self.xGrid = xGrid
        self.legend = legend
        let labels = yScale.labels(axis: yAxis, numbers: context.numbers)
        yLabels = labels
        let tickWidth = labels.map { context.measurer.measure($0, font: context.tickFont).width }.max() ?? 0
        let titleHeight = context.lineHeight(context.axisTitleFont)
        let left = (yAxis.title != nil ? titleHeight + 4 : 0) + tickWidth + 6
        let rightLabels = secondary.map { $0.scale.labels(axis: $0.axis, numbers: context.numbers) } ?? []
        secondaryLabels = rightLabels
        let right =
            secondary.map {
                (rightLabels.map { context.measurer.measure($0, font: context.tickFont).width }.max() ?? 0) + 6
                    + ($0.axis.title != nil ? titleHeight + 4 : 0)
            } ?? 6
        trailingWidth = right
        let top = topPadding + legend.bandHeight(width: width) * (legend.options.position == .top ? 1 : 0)
        var plotWidth = Swift.max(width - left - right - legend.sideWidth, 40)
        var layout = XLabelLayout(labels: xLabels, plotWidth: plotWidth, context: context)
        // Turned labels run down-left from their ticks: the first must not start left of the drawing.
        let overhang = layout.leftOverhang(plotX: left)
        if overhang > 0 {
            plotWidth = Swift.max(plotWidth - overhang, 40)
            layout = XLabelLayout(labels: xLabels, plotWidth: plotWidth, context: context)
        }
        plot = Rect(x: left + Swift.max(overhang, 0), y: top, width: plotWidth, height: plotHeight)
        xLayout = layout
    }

    func y(_ value: Double) -> Double { plot.maxY - yScale.fraction(value) * plot.height }
    /// Where `value` of the secondary axis lies (the primary axis when there is none).
    func secondaryY(_ value: Double) -> Double {
        plot.maxY - (secondary?.scale ?? yScale).fraction(value) * plot.height
    }
    func x(_ fraction: Double) -> Double { plot.x + fraction * plot.width }

    /// Grid lines, value labels and the value axis title.
    func drawBackground(on canvas: Canvas) {
        let theme = context.theme
        canvas.beginGroup()
        // The gridlines are one path per direction (one stroke, as a pen rules them): a PDF reader
        // or checker sees a chart's grid, not a dozen rules that look like a table's.
        let gridStyle = StrokeStyle(color: theme.grid, width: 0.5)
        var horizontalGrid = Path()
        for tick in yScale.ticks where yAxis.grid && !(tick == 0 && !yScale.isLog) {
            horizontalGrid.move(to: Point(plot.x, y(tick)))
            horizontalGrid.line(to: Point(plot.maxX, y(tick)))
        }
        if !horizontalGrid.elements.isEmpty { canvas.stroke(horizontalGrid, style: gridStyle) }
        for (tick, label) in zip(yScale.ticks, yLabels) {
            let ty = y(tick)
            if tick == 0 && !yScale.isLog {
                canvas.line(from: Point(plot.x, ty), to: Point(plot.maxX, ty), style: StrokeStyle(color: theme.axis, width: 0.8))
            }
            canvas.draw(
                text: context.text.item(
                    label, font: context.tickFont, color: theme.muted, x: plot.x - 6,
                    centerY: ty, anchor: .end))
        }
        if let title = yAxis.title {
            let titleHeight = context.lineHeight(context.axisTitleFont)
            canvas.draw(
                text: context.text.verticalItem(
                    title, font: context.axisTitleFont, color: theme.muted,
                    center: Point(titleHeight / 2, plot.midY)))
        }
        if let secondary {
            for (tick, label) in zip(secondary.scale.ticks, secondaryLabels) {
                canvas.draw(
                    text: context.text.item(
                        label, font: context.tickFont, color: theme.muted, x: plot.maxX + 6,
                        centerY: secondaryY(tick), anchor: .start))
            }
            if let title = secondary.axis.title {
                let titleHeight = context.lineHeight(context.axisTitleFont)
                let widest = secondaryLabels.map { context.measurer.measure($0, font: context.tickFont).width }.max() ?? 0
                canvas.draw(
                    text: context.text.verticalItem(
                        title, font: context.axisTitleFont, color: theme.muted,
                        center: Point(plot.maxX + 6 + widest + 4 + titleHeight / 2, plot.midY)))
            }
        }
        if xGrid && xAxis.grid && !xLabels.isEmpty {
            var verticalGrid = Path()
            for label in xLabels {
                verticalGrid.move(to: Point(x(label.fraction), plot.y))
                verticalGrid.line(to: Point(x(label.fraction), plot.maxY))
            }
            canvas.stroke(verticalGrid, style: gridStyle)
        }
        if yScale.isLog || yScale.lower > 0 || !yScale.ticks.contains(0) {
            canvas.line(
                from: Point(plot.x, plot.maxY), to: Point(plot.maxX, plot.maxY),
                style: StrokeStyle(color: theme.axis, width: 0.8))
        }
        canvas.endGroup()
    }

    /// X labels from `labelTop`, the x axis title and the legend; returns the drawing's height.
    func drawForeground(on canvas: Canvas, labelTop: Double? = nil) -> Double {
        let theme = context.theme
        var cursor = (labelTop ?? plot.maxY) + 4
        canvas.beginGroup()
        cursor += xLayout.draw(on: canvas, plotX: plot.x, top: cursor, color: theme.text)
        if let title = xAxis.title {
            cursor += 3
            canvas.draw(
                text: context.text.item(
                    title, font: context.axisTitleFont, color: theme.muted, x: plot.midX,
                    top: cursor, anchor: .middle))
            cursor += context.lineHeight(context.axisTitleFont)
        }
        canvas.endGroup()
        cursor = legend.draw(on: canvas, below: cursor, width: width, sideX: plot.maxX + trailingWidth - 6, centerY: plot.midY)
        return Swift.max(cursor + 2, plot.maxY + 4)
    }
}

/// Places x labels: level when they fit, turned 45° when level ones would collide,
/// and thinned to every n-th when even turned ones would.
struct XLabelLayout {
    let labels: [PlotFrame.XLabel]
    let plotWidth: Double
    let context: ChartContext

    private var widths: [Double] { labels.map { context.measurer.measure($0.text, font: context.tickFont).width } }
    private var lineHeight: Double { context.lineHeight(context.tickFont) }

    /// The smallest distance between neighbouring labels, in points.
    private var spacing: Double {
        guard labels.count > 1 else { return plotWidth }
        return zip(labels, labels.dropFirst()).map { ($1.fraction - $0.fraction) * plotWidth }.min() ?? plotWidth
    }

    /// Whether labels are turned, and which indexes are shown.
    var plan: (rotated: Bool, stride: Int) {
        let widest = (widths.max() ?? 0) + 4
        let space = Swift.max(spacing, 0.1)
        if widest <= space { return (false, 1) }
        // Labels turned 45° need one line height times √2 between anchors.
        let turned = lineHeight * 1.42 + 1
        if labels.count <= 40 || turned <= space { return (true, Swift.max(1, (turned / space).clampedInt(.up))) }
        return (false, Swift.max(1, (widest / space).clampedInt(.up)))
    }

    /// How far the leftmost label would start left of x = 0 with the plot starting at `plotX`.
    func leftOverhang(plotX: Double) -> Double {
        let (rotated, stride) = plan
        guard rotated else { return 0 }
        let widths = self.widths
        var overhang = 0.0
        for index in Swift.stride(from: 0, to: labels.count, by: stride) {
            let x = plotX + labels[index].fraction * plotWidth
            overhang = Swift.max(overhang, -rotatedOrigin(x: x, width: widths[index]).x)
        }
        return overhang
    }

    /// Where a label `width` wide, turned 45°, starts so that its end sits just under the tick at `x`.
    private func rotatedOrigin(x: Double, width w: Double, top: Double = 0) -> Point {
        let h = lineHeight
        let c = cos(Double.pi / 4)
        return Point(x - w * c - h / 2 * c + 2, top + w * c - h / 2 * c + 2)
    }

    /// Draws the labels with their tops at `top`; returns the height used.
    func draw(on canvas: Canvas, plotX: Double, top: Double, color: Color) -> Double {
        let (rotated, stride) = plan
        let widths = self.widths
        var height = labels.isEmpty ? 0 : lineHeight
        for (index, label) in labels.enumerated() where index % stride == 0 {
            let x = plotX + label.fraction * plotWidth
            if rotated {
                let w = widths[index]
                let h = lineHeight
                let c = cos(Double.pi / 4)
                let origin = rotatedOrigin(x: x, width: w, top: top)
                let metrics = context.measurer.measure(label.text, font: context.tickFont)
                canvas.draw(
                    text: TextItem(
                        text: label.text, origin: origin, font: context.tickFont, color: color,
                        metrics: metrics, rotation: -45))
                height = Swift.max(height, (w + h) * c + 2)
            } else {
                canvas.draw(
                    text: context.text.item(
                        label.text, font: context.tickFont, color: color, x: x, top: top,
                        anchor: .middle))
            }
        }
        return height
    }
}
