import FolioCharts
import FolioGraphics
import FolioModel

/// How a chart reaches a screen of any width with legible text: it is laid out twice,
/// wide and narrow, with text of at least `minimumTextSize` in the drawing's own units,
/// and a CSS container query on the chart's figure shows the layout that is never
/// scaled below 1:1. Scaling one wide picture down would shrink 8 px labels to 4 px on
/// a phone. No script is involved; browsers without container queries show the wide one.
struct ScreenChart {
    /// The wide layout's width; it is shown in figures at least this wide, so never scaled down.
    static let wideWidth = 600.0
    /// The narrow layout's width: fits the narrowest report (a 320 px screen less padding)
    /// and a side-by-side column (at least `columnBasis` wide).
    static let narrowWidth = 256.0
    /// The narrow layout grows to at most this factor of its width, then stays centred.
    static let narrowGrowth = 1.5
    /// The smallest chart text, in CSS pixels at 1:1 (WCAG-minded: 12 px and up).
    static let minimumTextSize = 12.5
    /// The smallest width of a side-by-side column, in CSS pixels.
    static let columnBasis = narrowWidth

    let charts: ChartRenderer

    /// Charts measured by `measurer`, in `theme` with every chart font scaled so that the
    /// smallest (the theme's small size less one point) is `minimumTextSize`, words and numbers in `strings`' language.
    init(measurer: TextMeasurer, theme: Theme, strings: BuiltInStrings) {
        var screen = theme
        let factor = Swift.max(1, ScreenChart.minimumTextSize / Swift.max(theme.smallSize - 1, 1))
        screen.smallSize = theme.smallSize * factor
        screen.bodySize = theme.bodySize * factor
        screen.subtitleSize = theme.subtitleSize * factor
        charts = ChartRenderer(measurer: measurer, theme: screen, strings: strings)
    }

    /// Both layouts of `chart` as `<svg>` elements, ids taken from `ids`.
    func markup(for chart: Chart, ids: inout IDGenerator, fontFamily: String) -> HTML {
        let title = chart.title ?? charts.strings[.chart]
        let wide = charts.drawing(for: chart, width: ScreenChart.wideWidth)
        var narrowChart = chart
        if narrowChart.legend.position == .right { narrowChart.legend.position = .bottom }
        let narrow = charts.drawingKeepingValueLabels(for: narrowChart, width: ScreenChart.narrowWidth)
        return SVGCanvas.svg(wide, id: ids.next("chart"), title: title, fontFamily: fontFamily, className: "folio-chart-wide")
            + SVGCanvas.svg(narrow, id: ids.next("chart"), title: title, fontFamily: fontFamily, className: "folio-chart-narrow")
    }

    /// The rules that choose a layout by the figure's width (`r` is the report's root selector).
    static func css(root r: CSS) -> CSS {
        """
        \(r) .folio-chart{container-type:inline-size}
        \(r) .folio-chart-narrow{display:none}
        @container (max-width:\(number: wideWidth - 0.02)px){\(r) .folio-chart-wide{display:none}\
        \(r) .folio-chart-narrow{display:block;max-width:\(number: narrowWidth * narrowGrowth)px;margin:0 auto}}
        """
    }
}
