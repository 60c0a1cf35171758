import FolioGraphics
import FolioModel

/// What every chart layout needs: the measurer, the theme and the fonts it uses, the
/// document's built-in words and its number format.
struct ChartContext {
    let measurer: TextMeasurer
    let theme: Theme
    let strings: BuiltInStrings
    let numbers: NumberFormat

    init(measurer: TextMeasurer, theme: Theme, strings: BuiltInStrings = .english) {
        self.measurer = measurer
        self.theme = theme
        self.strings = strings
        numbers = NumberFormat(strings)
    }

    var text: ChartText { ChartText(measurer: measurer) }
    var tickFont: FontSpec { theme.font(theme.smallSize) }
    var valueFont: FontSpec { theme.font(theme.smallSize - 0.5, bold: true) }
    var axisTitleFont: FontSpec { theme.font(theme.smallSize + 0.5) }
    var centerFont: FontSpec { theme.font(theme.subtitleSize + 2, bold: true) }

    /// Height of one line of `font`.
    func lineHeight(_ font: FontSpec) -> Double { measurer.measure("Ag", font: font).height }

    /// A colour for thresholds without a tint.
    var thresholdColor: Color { theme.threshold }

    /// The "No data" drawing every family uses when there is nothing to plot.
    func noData(width: Double, height: Double, description: String) -> Drawing {
        let canvas = RecordingCanvas()
        let box = Rect(x: 0, y: 0, width: width, height: height)
        canvas.fill(.roundedRect(box, radius: 6), color: theme.tileBackground)
        canvas.draw(
            text: text.item(
                strings[.noData], font: theme.font(theme.bodySize, bold: true), color: theme.muted,
                x: box.midX, centerY: box.midY, anchor: .middle))
        return canvas.drawing(size: Size(width, height), description: description)
    }
}
