/// The size of one line of text as the text engine will draw it.
public struct TextMetrics: Sendable, Hashable {
    /// Advance width of the text.
    public var width: Double
    /// Line height: ascent plus descent.
    public var height: Double
    /// Distance from the top of the line box to the baseline.
    public var baseline: Double

    /// Metrics of `width` by `height` with the baseline `baseline` below the top.
    public init(width: Double, height: Double, baseline: Double) {
        self.width = width
        self.height = height
        self.baseline = baseline
    }
}

/// Measures single lines of text. Folio has one implementation, backed by Pango,
/// so the HTML (SVG) and the PDF of a chart share the same geometry.
public protocol TextMeasurer: AnyObject {
    func measure(_ text: String, font: FontSpec) -> TextMetrics
}
