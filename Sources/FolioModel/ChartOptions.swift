import Foundation

/// How numbers on an axis or a label are printed.
public enum ValueFormat: Sendable, Hashable, Codable {
    /// Plain numbers; nil decimals picks from the values.
    case number(decimals: Int?)
    /// Values as percentages: 0.25 prints as 25 %.
    case percent(decimals: Int)
    /// Values are seconds since 1970 (UTC), printed with a date pattern such as `MMM d` or `HH:mm`.
    case date(pattern: String)
    /// Values are elapsed seconds, printed as `m:ss` or `h:mm:ss`.
    case duration

    /// Decodes `"percent"`, `"duration"`, `"date"`, `"date:MMM d"`, `"time"`, `"0.0"` (two decimals: `"0.00"`) or a number of decimals.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let decimals = try? container.decode(Int.self) {
            self = .number(decimals: decimals)
            return
        }
        let text = try container.decode(String.self)
        if let format = ValueFormat(parsing: text) {
            self = format
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription:
                "unknown format \"\(text)\"; use a number of decimals, \"0.0\", \"percent\", \"date\", \"date:PATTERN\", \"time\" or \"duration\"")
        }
    }

    /// Parses the textual forms accepted in documents.
    public init?(parsing text: String) {
        switch text {
        case "percent", "%": self = .percent(decimals: 0)
        case "duration": self = .duration
        case "date": self = .date(pattern: "MMM d")
        case "time": self = .date(pattern: "HH:mm")
        case "datetime": self = .date(pattern: "MMM d HH:mm")
        default:
            if text.hasPrefix("date:") {
                self = .date(pattern: String(text.dropFirst(5)))
            } else if text.hasPrefix("percent:"), let decimals = Int(text.dropFirst(8)) {
                self = .percent(decimals: decimals)
            } else if text.allSatisfy({ "0.#".contains($0) }), !text.isEmpty {
                self = .number(decimals: text.split(separator: ".").dropFirst().first?.count ?? 0)
            } else {
                return nil
            }
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let decimals): try container.encode(decimals.map { $0 == 0 ? "0" : "0." + String(repeating: "0", count: $0) } ?? "0.#")
        case .percent(let decimals): try container.encode("percent:\(decimals)")
        case .date(let pattern): try container.encode("date:\(pattern)")
        case .duration: try container.encode("duration")
        }
    }
}

/// One axis of a chart: title, range, ticks, format, grid and scale.
public struct ChartAxis: Sendable, Hashable, Codable {
    /// Linear or base-10 logarithmic.
    public enum Scale: String, Sendable, Hashable, Codable { case linear, log }

    public var title: String?
    /// Lowest value shown; it only widens the data's range.
    public var min: Double?
    /// Highest value shown; it only widens the data's range.
    public var max: Double?
    /// Distance between ticks; nil picks a "nice" 1, 2 or 5 × 10ⁿ step.
    public var tickInterval: Double?
    /// Exactly these ticks.
    public var ticks: [Double]?
    public var format: ValueFormat?
    /// Draw grid lines at the ticks.
    public var grid: Bool
    public var scale: Scale

    public init(title: String? = nil, min: Double? = nil, max: Double? = nil, tickInterval: Double? = nil,
                ticks: [Double]? = nil, format: ValueFormat? = nil, grid: Bool = true, scale: Scale = .linear) {
        self.title = title; self.min = min; self.max = max; self.tickInterval = tickInterval
        self.ticks = ticks; self.format = format; self.grid = grid; self.scale = scale
    }

    private enum CodingKeys: String, CodingKey { case title, min, max, tickInterval, ticks, format, grid, scale }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        min = try c.decodeIfPresent(Double.self, forKey: .min)
        max = try c.decodeIfPresent(Double.self, forKey: .max)
        tickInterval = try c.decodeIfPresent(Double.self, forKey: .tickInterval)
        ticks = try c.decodeIfPresent([Double].self, forKey: .ticks)
        format = try c.decodeIfPresent(ValueFormat.self, forKey: .format)
        grid = try c.decodeIfPresent(Bool.self, forKey: .grid) ?? true
        scale = try c.decodeIfPresent(Scale.self, forKey: .scale) ?? .linear
    }
}

/// Where the legend goes and what its swatches look like.
public struct LegendOptions: Sendable, Hashable, Codable {
    public enum Position: String, Sendable, Hashable, Codable { case bottom, top, right, none }
    public enum Swatch: String, Sendable, Hashable, Codable { case square, dot, line }

    public var position: Position
    public var swatch: Swatch

    public init(position: Position = .bottom, swatch: Swatch = .square) {
        self.position = position; self.swatch = swatch
    }

    /// No legend.
    public static let hidden = LegendOptions(position: .none)

    private enum CodingKeys: String, CodingKey { case position, swatch }

    /// Decodes `true`/`false` or `{position, swatch}`.
    public init(from decoder: Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let shown = try? single.decode(Bool.self) {
            self.init(position: shown ? .bottom : .none)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(position: try c.decodeIfPresent(Position.self, forKey: .position) ?? .bottom,
                  swatch: try c.decodeIfPresent(Swatch.self, forKey: .swatch) ?? .square)
    }
}

/// A target zone or limit, as CareKit's thresholds: drawn as a line or a band
/// with a label; values beyond it are highlighted.
public struct ChartThreshold: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Values above `value` are beyond the threshold.
        case greaterThan
        /// Values below `value` are beyond the threshold.
        case lessThan
        /// Values between `value` and `upper` are the target zone; values outside are beyond it.
        case range
    }

    public var kind: Kind
    public var value: Double
    /// Upper end, for `range`.
    public var upper: Double?
    public var label: String?
    public var tint: Color?
    /// Highlight the points beyond the threshold (default true).
    public var highlight: Bool
    /// Title of the series or plot whose points it highlights; nil for all of them.
    public var series: String?

    public init(kind: Kind, value: Double, upper: Double? = nil, label: String? = nil, tint: Color? = nil,
                highlight: Bool = true, series: String? = nil) {
        self.kind = kind; self.value = value; self.upper = upper; self.label = label; self.tint = tint
        self.highlight = highlight; self.series = series
    }

    /// Whether `v` lies beyond the threshold.
    public func isBeyond(_ v: Double) -> Bool {
        switch kind {
        case .greaterThan: return v > value
        case .lessThan: return v < value
        case .range: return v < value || v > (upper ?? value)
        }
    }

    private enum CodingKeys: String, CodingKey { case kind, value, upper, label, tint, highlight, series }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decodeIfPresent(Kind.self, forKey: .kind) ?? .greaterThan
        value = try c.decode(Double.self, forKey: .value)
        upper = try c.decodeIfPresent(Double.self, forKey: .upper)
        label = try c.decodeIfPresent(String.self, forKey: .label)
        tint = try c.decodeIfPresent(Color.self, forKey: .tint)
        highlight = try c.decodeIfPresent(Bool.self, forKey: .highlight) ?? true
        series = try c.decodeIfPresent(String.self, forKey: .series)
    }
}

/// A labelled straight line across the plot at a fixed value.
public struct ReferenceLine: Sendable, Hashable, Codable {
    public enum Axis: String, Sendable, Hashable, Codable {
        /// A horizontal line at a y value.
        case y
        /// A vertical line at an x value.
        case x
    }

    public var axis: Axis
    public var value: Double
    public var label: String?
    public var tint: Color?
    public var dashed: Bool

    public init(axis: Axis = .y, value: Double, label: String? = nil, tint: Color? = nil, dashed: Bool = true) {
        self.axis = axis; self.value = value; self.label = label; self.tint = tint; self.dashed = dashed
    }

    private enum CodingKeys: String, CodingKey { case axis, value, label, tint, dashed }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        axis = try c.decodeIfPresent(Axis.self, forKey: .axis) ?? .y
        value = try c.decode(Double.self, forKey: .value)
        label = try c.decodeIfPresent(String.self, forKey: .label)
        tint = try c.decodeIfPresent(Color.self, forKey: .tint)
        dashed = try c.decodeIfPresent(Bool.self, forKey: .dashed) ?? true
    }
}
