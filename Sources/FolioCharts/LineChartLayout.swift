import FolioGraphics
import FolioModel

/// Geometry of line graphs, scatter plots and time series.
struct LineChartLayout {
    let chart: Chart
    let line: LineChart
    let context: ChartContext

    private var theme: Theme { context.theme }

    func color(ofPlot index: Int) -> Color { line.plots[index].tint ?? theme.seriesColor(index) }

    /// Whether the x axis names categories rather than numbers or dates.
    private var categories: [String]? {
        if case .categories(let names)? = line.x { return names }
        if line.x == nil, line.plots.allSatisfy({ $0.x == nil }) { return [] }
        return nil
    }

    private var isDate: Bool {
        if case .dates? = line.x { return true }
        return line.plots.contains { if case .dates? = $0.x { return true } else { return false } }
    }

    private var xAxis: ChartAxis {
        var axis = chart.xAxis
        if axis.format == nil, isDate {
            let positions = line.plots.flatMap { line.xPositions(of: $0) }
            let span = (positions.max() ?? 0) - (positions.min() ?? 0)
            // One instant alone is shown with its date and time (its axis spans a day around it).
            axis.format = .date(
                pattern: span == 0
                    ? "MMM d HH:mm" : span <= 300 ? "HH:mm:ss" : span <= 86_400 ? "HH:mm" : span <= 86_400 * 180 ? "MMM d" : "MMM yyyy")
        }
        return axis
    }

    /// Whether `plot` is drawn with markers at its points.
    private func showsMarkers(_ plot: LinePlot) -> Bool { plot.markers ?? (plot.markerShape != nil || line.markers) }

    /// `plot`'s legend entry, its swatch drawn as the plot is: its line (dashed or not) where points
    /// are connected, its marker where it has markers.
    private func legendEntry(of plot: LinePlot, color: Color) -> Legend.Entry {
        Legend.Entry(
            title: plot.title, color: color, shape: showsMarkers(plot) ? (plot.markerShape ?? .circle) : nil,
            stroke: line.connect ? StrokeStyle(color: color, width: 1.3, dash: plot.dashed ? [5, 3] : [], cap: .round) : nil,
            fill: line.connect && plot.fill ? (plot.fillColor ?? color).withAlpha(plot.fillOpacity ?? 0.15) : nil)
    }

    func drawing(width: Double) -> Drawing {
        let description = ChartDescription.describe(chart, strings: context.strings)
        let values = line.plots.flatMap { $0.values.compactMap { $0 } }
        guard !values.isEmpty else {
            return context.noData(width: width, height: chart.height?.points ?? 120, description: description)
        }
        let canvas = RecordingCanvas()
        let secondaryPlots = line.plots.filter { $0.axis == .secondary }
        // A threshold that names a series on the second axis is in that axis's unit: it widens that
        // axis, not the first (a step goal of 10,000 would flatten a weight in kilograms).
        var thresholds = ThresholdPainter(thresholds: chart.thresholds, context: context)
        thresholds.secondarySeries = Set(secondaryPlots.map(\.title))
        let (yScale, secondary) = valueScales(values: values, thresholds: thresholds)
        let (labels, xFraction, xClips) = xPlacement()
        let legend = Legend(
            entries: line.plots.enumerated().compactMap {
                $0.element.title.isEmpty
                    ? nil
                    : legendEntry(of: $0.element, color: color(ofPlot: $0.offset))
            },
            options: chart.legend, context: context)
        let frame = PlotFrame(
            context: context, width: width, plotHeight: chart.height?.points ?? 170, topPadding: 6,
            yScale: yScale, yAxis: chart.yAxis, xLabels: labels, xAxis: xAxis, xGrid: categories == nil,
            legend: legend, secondary: secondary)
        frame.drawBackground(on: canvas)
        thresholds.draw(on: canvas, frame: frame)
        let referenceLabels = drawReferenceLines(on: canvas, frame: frame, xFraction: xFraction)

        // A hard axis range cuts lines and points off at the plot's edge.
        let clips = yScale.clips || xClips || (secondary?.scale.clips ?? false)
        if clips { canvas.beginClip(frame.plot) }
        // What the threshold labels keep clear of: every line and its points, the reference lines' labels.
        var marks = PlotMarks()
        for label in referenceLabels { marks.add(label) }
        // Dashed plots (an expected curve, a target) are drawn over solid ones, which would hide them.
        let drawingOrder = line.plots.indices.filter { !line.plots[$0].dashed } + line.plots.indices.filter { line.plots[$0].dashed }
        for index in drawingOrder {
            let plot = line.plots[index]
            canvas.beginGroup()
            drawPlot(
                plot, color: color(ofPlot: index), on: canvas, frame: frame, xFraction: xFraction,
                y: plot.axis == .secondary ? frame.secondaryY : frame.y, thresholds: thresholds, marks: &marks)
            canvas.endGroup()
        }
        if clips { canvas.endClip() }
        let notes: [(point: Point, text: String)] = chart.annotations.compactMap { annotation in
            guard let at = chart.annotationPoint(annotation) else { return nil }
            let plot = annotation.series.flatMap { name in line.plots.first { $0.title == name } } ?? line.plots.first
            let y = plot?.axis == .secondary ? frame.secondaryY(at.y) : frame.y(at.y)
            return (Point(frame.x(xFraction(at.x)), y), annotation.text)
        }
        AnnotationPainter(context: context).draw(notes, within: frame.plot, avoiding: marks, on: canvas)
        thresholds.drawLabels(on: canvas, frame: frame, avoiding: marks)
        let height = frame.drawForeground(on: canvas)
        return canvas.drawing(size: Size(width, height), description: description)
    }

    /// The value axis and, for plots in another unit, the second axis on the trailing side (on the
    /// first axis's gridlines where it can be, else its own nice range); `values` are every plot's.
    private func valueScales(values: [Double], thresholds: ThresholdPainter) -> (
        yScale: AxisScale, secondary: (scale: AxisScale, axis: ChartAxis)?
    ) {
        let referenceValues = line.referenceLines.filter { $0.axis == .y }.map(\.value)
        let primaryPlots = line.plots.filter { $0.axis == .primary }
        let secondaryPlots = line.plots.filter { $0.axis == .secondary }
        func limits(of threshold: ChartThreshold) -> [Double] { [threshold.value] + (threshold.upper.map { [$0] } ?? []) }
        let thresholdValues = chart.thresholds.filter { !thresholds.isOnSecondAxis($0) }.flatMap(limits)
        let secondaryThresholdValues = chart.thresholds.filter { thresholds.isOnSecondAxis($0) }.flatMap(limits)
        let primaryValues = primaryPlots.flatMap { $0.values.compactMap { $0 } }
        let yValues = (primaryValues.isEmpty ? values : primaryValues) + referenceValues + thresholdValues
        let yScale = AxisScale(
            low: yValues.min() ?? 0, high: yValues.max() ?? 1, axis: chart.yAxis,
            includeZero: primaryPlots.contains(where: \.fill))
        guard !secondaryPlots.isEmpty else { return (yScale, nil) }
        let secondaryValues = secondaryPlots.flatMap { $0.values.compactMap { $0 } } + secondaryThresholdValues
        let secondaryAxis = chart.secondaryYAxis ?? ChartAxis()
        let secondaryScale =
            AxisScale.aligned(
                to: yScale, low: secondaryValues.min() ?? 0, high: secondaryValues.max() ?? 1, axis: secondaryAxis,
                includeZero: secondaryPlots.contains(where: \.fill))
            ?? AxisScale(
                low: secondaryValues.min() ?? 0, high: secondaryValues.max() ?? 1, axis: secondaryAxis,
                includeZero: secondaryPlots.contains(where: \.fill))
        return (yScale, (secondaryScale, secondaryAxis))
    }

    /// The x axis: category slots, or a numeric or date scale with ticks; its labels, the fraction
    /// of the plot's width an x stands at, and whether a hard range cuts points off.
    private func xPlacement() -> (labels: [PlotFrame.XLabel], xFraction: (Double) -> Double, clips: Bool) {
        if let names = categories {
            let count = Swift.max(names.isEmpty ? (line.plots.map(\.values.count).max() ?? 1) : names.count, 1)
            let xFraction = { (x: Double) in (x + 0.5) / Double(count) }
            return (names.enumerated().map { PlotFrame.XLabel(fraction: xFraction(Double($0.offset)), text: $0.element) }, xFraction, false)
        }
        let xAxis = self.xAxis
        let xs = line.plots.flatMap { line.xPositions(of: $0) } + line.referenceLines.filter { $0.axis == .x }.map(\.value)
        let timeSteps = isDate || xAxis.format == .duration
        var lowX = xs.min() ?? 0
        var highX = xs.max() ?? 1
        if lowX == highX {
            // A single x (one reading): the axis spans around it, so its point is drawn whole, in the middle.
            let half = isDate ? 43_200 : Swift.max(0.5, abs(lowX) * 0.05)
            lowX -= half
            highX += half
        }
        let scale = AxisScale(low: lowX, high: highX, axis: xAxis, includeZero: false, isDate: timeSteps, headroom: false)
        let labels = zip(scale.ticks, scale.labels(axis: xAxis, numbers: context.numbers)).map {
            PlotFrame.XLabel(fraction: scale.fraction($0), text: $1)
        }
        return (labels, scale.fraction, scale.clips)
    }

    /// Draws the reference lines and their labels; returns where the labels are.
    private func drawReferenceLines(on canvas: Canvas, frame: PlotFrame, xFraction: (Double) -> Double) -> [Rect] {
        let plot = frame.plot
        var labels: [Rect] = []
        for reference in line.referenceLines {
            let tint = reference.tint ?? theme.muted
            let style = StrokeStyle(color: tint, width: 0.8, dash: reference.dashed ? [3, 3] : [])
            switch reference.axis {
            case .y:
                let y = frame.y(reference.value)
                guard y >= plot.y - 0.01, y <= plot.maxY + 0.01 else { continue }
                canvas.line(from: Point(plot.x, y), to: Point(plot.maxX, y), style: style)
                if let label = reference.label {
                    let item = context.text.item(
                        label, font: context.tickFont, color: tint.readable(on: .white), x: plot.x + 3,
                        top: Swift.max(plot.y, y - context.lineHeight(context.tickFont) - 1))
                    canvas.draw(text: item)
                    labels.append(item.frame)
                }
            case .x:
                let x = frame.x(xFraction(reference.value))
                guard x >= plot.x - 0.01, x <= plot.maxX + 0.01 else { continue }
                canvas.line(from: Point(x, plot.y), to: Point(x, plot.maxY), style: style)
                if let label = reference.label {
                    let item = context.text.item(label, font: context.tickFont, color: tint.readable(on: .white), x: x + 3, top: plot.y)
                    canvas.draw(text: item)
                    labels.append(item.frame)
                }
            }
        }
        return labels
    }

    private func drawPlot(
        _ plot: LinePlot, color: Color, on canvas: Canvas, frame: PlotFrame,
        xFraction: (Double) -> Double, y: (Double) -> Double, thresholds: ThresholdPainter, marks: inout PlotMarks
    ) {
        let xs = line.xPositions(of: plot)
        // Runs of consecutive set values, in page coordinates.
        var runs: [[Point]] = [[]]
        var beyond: [(Point, Color)] = []
        var tinted: [(Point, Color)] = []
        for (i, value) in plot.values.enumerated() {
            guard let value, i < xs.count else {
                if !(runs.last?.isEmpty ?? true) { runs.append([]) }
                continue
            }
            let point = Point(frame.x(xFraction(xs[i])), y(value))
            runs[runs.count - 1].append(point)
            if let tints = plot.tints, i < tints.count, let tint = tints[i] { tinted.append((point, tint)) }
            if let threshold = thresholds.exceeded(value, series: plot.title, onSecondAxis: plot.axis == .secondary) {
                beyond.append((point, thresholds.color(threshold)))
            }
        }
        runs = runs.filter { !$0.isEmpty }
        let column = 0.5
        let thinnedRuns = runs.map { Curves.thinned($0, column: column) }
        let interpolation: Curves.InterpolationKind = {
            switch line.interpolation {
            case .linear: return .linear
            case .stepped: return .stepped
            case .curved: return .curved
            }
        }()
        // The points as drawn (at most two a column); a joined line is added as it is stroked.
        for run in thinnedRuns { marks.add(points: run) }
        if line.connect {
            if plot.fill {
                let scale = plot.axis == .secondary ? (frame.secondary?.scale ?? frame.yScale) : frame.yScale
                let baseline = y(Swift.max(scale.lower, Swift.min(0, scale.upper)))
                for run in thinnedRuns where run.count > 1 {
                    var area = Path()
                    Curves.append(run, to: &area, interpolation: interpolation)
                    if let last = run.last, let first = run.first {
                        area.line(to: Point(last.x, baseline))
                        area.line(to: Point(first.x, baseline))
                    }
                    area.close()
                    canvas.fill(area, color: (plot.fillColor ?? color).withAlpha(plot.fillOpacity ?? 0.15))
                }
            }
            let style = StrokeStyle(color: color, width: 1.3, dash: plot.dashed ? [5, 3] : [], cap: .round)
            var path = Path()
            for run in thinnedRuns { Curves.append(run, to: &path, interpolation: interpolation) }
            canvas.stroke(path, style: style)
            marks.add(path: path)
            // Gaps are bridged by a thin dashed segment.
            for (a, b) in zip(runs, runs.dropFirst()) {
                if let end = a.last, let start = b.first {
                    canvas.stroke(.line(from: end, to: start), style: StrokeStyle(color: color.withAlpha(0.7), width: 1, dash: [2, 3]))
                }
            }
        }
        let shape = plot.markerShape ?? .circle
        if showsMarkers(plot) {
            let radius = (line.connect ? 2.5 : 2) * (plot.markerShape == nil ? 1 : 1.3)
            for point in Curves.merged(runs.flatMap { $0 }, cell: column) {
                canvas.fill(.marker(shape, center: point, radius: radius), color: color)
            }
        }
        // Points given their own colour get a marker in it.
        let radius = line.connect ? 2.8 : 2.4
        for (point, tint) in tinted {
            canvas.fill(.marker(shape, center: point, radius: radius + 0.8), color: .white)
            canvas.fill(.marker(shape, center: point, radius: radius), color: tint)
        }
        // Points beyond a threshold get a ring in its colour; dense ones are merged first.
        let highlighted =
            beyond.count > 2000
            ? Curves.merged(beyond.map(\.0), cell: column).map { ($0, beyond[0].1) } : beyond
        for (point, tint) in highlighted {
            canvas.fill(.circle(center: point, radius: 3.2), color: .white)
            canvas.fill(.circle(center: point, radius: 2.4), color: tint)
        }
    }
}
