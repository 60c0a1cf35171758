import FolioGraphics
import FolioModel

/// Lays out any chart block into a `Drawing`, the one thing both backends draw.
public struct ChartRenderer {
    public let measurer: TextMeasurer
    public let theme: Theme

    public init(measurer: TextMeasurer, theme: Theme = .standard) {
        self.measurer = measurer
        self.theme = theme
    }

    /// The chart's drawing at `width` points wide; its height follows the chart's own rules.
    public func drawing(for chart: Chart, width: Double) -> Drawing {
        switch chart.body {
        case .bar(let bar):
            return BarChartLayout(chart: chart, bar: bar, measurer: measurer, theme: theme).drawing(width: width)
        }
    }
}
