import FolioGraphics
import FolioModel

/// Lays out any chart block into a `Drawing`, the one thing both backends draw.
package struct ChartRenderer {
    /// Measures every label (Pango, for both outputs).
    package let measurer: TextMeasurer
    /// Colours, fonts and sizes.
    package let theme: Theme

    /// The document's built-in words (empty charts, descriptions) and number format.
    package let strings: BuiltInStrings

    /// A renderer measuring with `measurer`, in `theme`, writing numbers and words as `strings` says
    /// (renderers pass the document's `builtInStrings`).
    package init(measurer: TextMeasurer, theme: Theme = .standard, strings: BuiltInStrings = .english) {
        self.measurer = measurer
        self.theme = theme
        self.strings = strings
    }

    /// The chart's drawing at `width` points wide; its height follows the chart's own rules.
    /// The plot height `chart` is drawn at: its own, else its family's (bars and lines 170 pt, pies
    /// 190, rings and ranges 150).
    package static func plotHeight(of chart: Chart) -> Double {
        if let height = chart.height { return height.points }
        switch chart.body {
        case .bar, .line: return 170
        case .pie: return 190
        case .rings, .range: return 150
        case .measures(let measures): return MeasureChartLayout.plotHeight(count: measures.measures.count, style: measures.style)
        case .boxPlot, .histogram: return 170
        case .heatmap: return 120
        }
    }

    package func drawing(for chart: Chart, width: Double) -> Drawing {
        // A chart's own "No data" text replaces the language's, in the drawing and its description.
        let chartStrings = chart.noData.map { strings.overridden(by: [.noData: $0]) } ?? strings
        let context = ChartContext(measurer: measurer, theme: theme, strings: chartStrings)
        switch chart.body {
        case .bar(let bar): return BarChartLayout(chart: chart, bar: bar, context: context).drawing(width: width)
        case .line(let line): return LineChartLayout(chart: chart, line: line, context: context).drawing(width: width)
        case .pie(let pie): return PieChartLayout(chart: chart, pie: pie, context: context).drawing(width: width)
        case .rings(let rings): return RingChartLayout(chart: chart, rings: rings, context: context).drawing(width: width)
        case .range(let range): return RangeChartLayout(chart: chart, range: range, context: context).drawing(width: width)
        case .measures(let measures): return MeasureChartLayout(chart: chart, measures: measures, context: context).drawing(width: width)
        case .boxPlot(let boxes): return DistributionChartLayout(chart: chart, context: context).boxPlot(boxes, width: width)
        case .histogram(let histogram): return DistributionChartLayout(chart: chart, context: context).histogram(histogram, width: width)
        case .heatmap(let heatmap): return HeatmapChartLayout(chart: chart, heatmap: heatmap, context: context).drawing(width: width)
        }
    }

    /// `chart` at `width` with the value labels it asks for: a vertical bar chart too narrow for them
    /// (a phone's) is drawn as horizontal rows, CareKit's form, where each label has room at its
    /// bar's end, rather than lose them.
    package func drawingKeepingValueLabels(for chart: Chart, width: Double) -> Drawing {
        guard case .bar(var bar) = chart.body, bar.orientation == .vertical, bar.valueLabels else {
            return drawing(for: chart, width: width)
        }
        let chartStrings = chart.noData.map { strings.overridden(by: [.noData: $0]) } ?? strings
        let context = ChartContext(measurer: measurer, theme: theme, strings: chartStrings)
        let columns = BarChartLayout(chart: chart, bar: bar, context: context).layOut(width: width)
        guard columns.dropsValueLabels else { return columns.drawing }
        bar.orientation = .horizontal
        var rows = chart
        rows.body = .bar(bar)
        return BarChartLayout(chart: rows, bar: bar, context: context).drawing(width: width)
    }

    /// Each series (plot, segment, ring) of `chart`: its field, its own tint, and the palette
    /// colour its layout gives it when it has none.
    private func marks(_ chart: Chart) -> [(field: String, tint: Color?, paletteIndex: Int)] {
        switch chart.body {
        case .bar(let bar): return bar.series.enumerated().map { ("series[\($0.offset)]", $0.element.tint, $0.offset) }
        case .line(let line): return line.plots.enumerated().map { ("plots[\($0.offset)]", $0.element.tint, $0.offset) }
        case .pie(let pie):
            return pie.segments.enumerated().map {
                ("segments[\($0.offset)]", $0.element.tint, $0.offset + PieChartLayout.firstPaletteColor)
            }
        case .rings(let rings): return rings.rings.enumerated().map { ("rings[\($0.offset)]", $0.element.tint, $0.offset) }
        case .range(let range):
            return range.plots.enumerated().map { ("plots[\($0.offset)]", $0.element.tint, $0.offset + RangeChartLayout.firstPaletteColor) }
        case .measures:
            // Drawn in the text colour over grey ranges: no palette colour to check.
            return []
        case .boxPlot(let boxes): return boxes.groups.enumerated().map { ("groups[\($0.offset)]", $0.element.tint, $0.offset) }
        case .histogram(let histogram): return [("tint", histogram.tint, 0)]
        case .heatmap: return [("days", nil, 0)]
        }
    }

    /// The series, plots, segments or rings whose colour has less than 3:1 contrast against the
    /// page (WCAG 1.4.11 asks 3:1 of bars, lines and markers): field and colour, in order.
    package func lowContrastColors(_ chart: Chart) -> [(field: String, color: Color)] {
        marks(chart).compactMap { mark in
            let color = (mark.tint ?? theme.seriesColor(mark.paletteIndex)).composited(over: .white)
            return color.contrast(with: .white) < ChartRenderer.nonTextContrast ? (mark.field, color) : nil
        }
    }

    /// The contrast WCAG 1.4.11 asks of graphical objects against what is next to them.
    package static let nonTextContrast = 3.0

    /// Whether some of `chart`'s series (plots, segments, rings) without a tint of their own
    /// share a palette colour, because there are more of them than the theme's
    /// `distinguishableColors`.
    package func repeatsColors(_ chart: Chart) -> Bool {
        let untinted = marks(chart).filter { $0.tint == nil }.map(\.paletteIndex)
        guard let first = untinted.first, let last = untinted.last else { return false }
        return last - first >= theme.distinguishableColors
    }
}
