/// The size of one line of text as the text engine will draw it.
package struct TextMetrics: Sendable, Hashable {
    /// Advance width of the text.
    package var width: Double
    /// Line height: ascent plus descent.
    package var height: Double
    /// Distance from the top of the line box to the baseline.
    package var baseline: Double

    /// Metrics of `width` by `height` with the baseline `baseline` below the top.
    package init(width: Double, height: Double, baseline: Double) {
        self.width = width
        self.height = height
        self.baseline = baseline
    }
}

/// Measures single lines of text. Folio has one implementation, backed by Pango,
/// so the HTML (SVG) and the PDF of a chart share the same geometry.
package protocol TextMeasurer: AnyObject {
    func measure(_ text: String, font: FontSpec) -> TextMetrics
}
