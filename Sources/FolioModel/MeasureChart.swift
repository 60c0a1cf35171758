/// One measure against its target and qualitative ranges: HbA1c 7.4 % against 7 %, in the range
/// "above target" (7–8 %).
public struct ChartMeasure: Sendable, Hashable, Codable {
    /// The measure's name.
    public var title: String
    /// Its value.
    public var value: Double
    /// The target it is read against, if any.
    public var target: Double?
    /// Where the scale starts (0 by default, or the value when it is below 0).
    public var low: Double?
    /// The ranges' upper ends in increasing order (`[7, 8, 10]`: up to 7, 7–8, 8–10); the last is the
    /// scale's end (by default the larger of the value and the target, with room).
    public var bands: [Double]
    /// Each range's name ("on target", "above", "well above"), in the description and the data table.
    public var bandLabels: [String]?
    /// A unit after each number ("%", "mmol/L").
    public var unit: String?

    /// `title` at `value` against `target`, over `bands` (upper ends) named `bandLabels`.
    public init(
        title: String, value: Double, target: Double? = nil, low: Double? = nil, bands: [Double] = [], bandLabels: [String]? = nil,
        unit: String? = nil
    ) {
        self.title = title
        self.value = value
        self.target = target
        self.low = low
        self.bands = bands
        self.bandLabels = bandLabels
        self.unit = unit
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try c.decode(LenientText.self, forKey: .title).value, value: try c.decode(Double.self, forKey: .value),
            target: try c.decodeIfPresent(.target), low: try c.decodeIfPresent(.low), bands: try c.decode(.bands, default: []),
            bandLabels: try c.decodeIfPresent([LenientText].self, forKey: .bandLabels)?.map(\.value), unit: try c.decodeIfPresent(.unit))
    }

    /// Where the scale starts and ends: from `low` (else 0, or below the value and target), to the last
    /// band's end (else a little past the value and target).
    public var scale: (low: Double, high: Double) {
        let floor = low ?? Swift.min(0, value, target ?? 0)
        let top = bands.last ?? Swift.max(value, target ?? value) * 1.2
        guard top > floor else { return (floor, floor + Swift.max(abs(floor), 1)) }
        return (floor, Swift.max(top, value, target ?? top))
    }

    /// The index of the range the value falls in (nil when it is past the last band or there are none).
    public var bandIndex: Int? { bands.firstIndex { value <= $0 } }
}

/// Measures drawn against their targets and ranges (Stephen Few's bullet graph, or a dial):
/// `kind: bullet` draws each as a bar over shaded ranges with its target as a tick, `kind: gauge` as
/// a half dial with a needle.
public struct MeasureChart: Sendable, Hashable, Codable {
    /// How the measures are drawn.
    public enum Style: String, Sendable, Hashable, Codable, CaseIterable {
        /// A row per measure: ranges shaded, the value a bar, the target a tick.
        case bullet
        /// A half dial per measure: ranges as arcs, the value a needle, the target a mark.
        case gauge
    }

    /// The measures, one row (or dial) each.
    public var measures: [ChartMeasure]
    /// Bullets or dials.
    public var style: Style

    /// Measures drawn in `style`.
    public init(measures: [ChartMeasure], style: Style = .bullet) {
        self.measures = measures
        self.style = style
    }

    private enum CodingKeys: String, CodingKey { case measures }

    /// Decodes the measures of a `bullet` or `gauge` chart.
    public init(from decoder: Decoder, style: Style) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(measures: try c.decode([ChartMeasure].self, forKey: .measures), style: style)
    }

    /// Decodes a bullet chart.
    public init(from decoder: Decoder) throws { try self.init(from: decoder, style: .bullet) }

    /// Encodes the measures.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(measures, forKey: .measures)
    }

    /// Throws for the first value that cannot be drawn: non-finite numbers, bands out of order, labels
    /// that do not match the bands, a dial's value off its scale's ends.
    package func validate(path: String) throws {
        if measures.count > 100 { throw FolioError(path: "\(path).measures", "has \(measures.count) measures; at most 100 are allowed") }
        for (index, measure) in measures.enumerated() {
            let place = "\(path).measures[\(index)]"
            for (name, number) in [("value", measure.value), ("target", measure.target), ("low", measure.low)] {
                guard let number else { continue }
                guard number.isFinite, abs(number) <= InputLimits.magnitude else {
                    throw FolioError(path: "\(place).\(name)", "must be a finite number between -1e15 and 1e15")
                }
            }
            if measure.bands.count > 10 { throw FolioError(path: "\(place).bands", "has \(measure.bands.count) ranges; at most 10") }
            for (band, edge) in measure.bands.enumerated() {
                guard edge.isFinite, abs(edge) <= InputLimits.magnitude else {
                    throw FolioError(path: "\(place).bands[\(band)]", "must be a finite number between -1e15 and 1e15")
                }
                if band > 0, edge <= measure.bands[band - 1] {
                    throw FolioError(path: "\(place).bands[\(band)]", "the ranges' ends must increase")
                }
                if band == 0, edge <= measure.scale.low {
                    throw FolioError(path: "\(place).bands[0]", "the first range must end above the scale's start (low)")
                }
            }
            if let labels = measure.bandLabels, labels.count != measure.bands.count {
                throw FolioError(path: "\(place).bandLabels", "has \(labels.count) names for \(measure.bands.count) ranges")
            }
            if let low = measure.low, measure.value < low {
                throw FolioError(path: "\(place).low", "the scale starts above the value")
            }
        }
    }
}
