import FolioGraphics
import FolioModel

/// What every chart layout needs: the measurer, the theme and the fonts it uses.
struct ChartContext {
    let measurer: TextMeasurer
    let theme: Theme

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
                "No data", font: theme.font(theme.bodySize, bold: true), color: theme.muted,
                x: box.midX, centerY: box.midY, anchor: .middle))
        return canvas.drawing(size: Size(width, height), description: description)
    }
}
