/// A note at a point of a bar, line or scatter chart (Core Plot's annotations): its words, and a
/// pointer from them to the point.
public struct ChartAnnotation: Sendable, Hashable, Codable {
    /// Where along the x axis: a category's name, an x number, or a date as the x values are written.
    public var at: String
    /// The value pointed at; by default the named series' (or the first's) value there.
    public var y: Double?
    /// The words shown.
    public var text: String
    /// The series (plot) whose value is pointed at, by title; the first by default.
    public var series: String?

    /// A note `text` at `at` (and `y`, or `series`' value there).
    public init(at: String, y: Double? = nil, text: String, series: String? = nil) {
        self.at = at
        self.y = y
        self.text = text
        self.series = series
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            at: try c.decode(LenientText.self, forKey: .at).value, y: try c.decodeIfPresent(.y),
            text: try c.decode(LenientText.self, forKey: .text).value, series: try c.decodeIfPresent(.series))
    }
}
