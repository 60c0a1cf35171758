import Foundation

/// Positions along a chart's x axis: named categories, numbers (such as elapsed
/// seconds) or dates (seconds since 1970, written in documents as ISO 8601 strings).
public enum XValues: Sendable, Hashable, Codable {
    case categories([String])
    case numbers([Double])
    case dates([Double])

    /// The number of values.
    public var count: Int {
        switch self {
        case .categories(let names): return names.count
        case .numbers(let values), .dates(let values): return values.count
        }
    }

    /// Numbers stay numbers. Strings are dates when every one is an ISO 8601 date (one that starts
    /// like a date but cannot be read is an error naming it), and categories otherwise: quoted
    /// strings never become numbers. `xAxis.type` can force the kind (`XValues.coerced`).
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Strings first: YAML would otherwise read a time such as 06:30:00 as a base-60 number.
        guard let strings = try? container.decode([String].self) else {
            self = .numbers(try container.decode([Double].self))
            return
        }
        self = try XValues.reading(strings, as: nil, codingPath: decoder.codingPath)
    }

    /// `strings` read as `type`, or as what they look like when `type` is nil.
    static func reading(_ strings: [String], as type: ChartAxis.ValueType?, codingPath: [CodingKey]) throws -> XValues {
        func failure(_ index: Int, _ message: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: codingPath + [IndexKey(index)], debugDescription: message))
        }
        switch type {
        case .category?:
            return .categories(strings)
        case .number?:
            return .numbers(
                try strings.enumerated().map { index, text in
                    guard let number = Double(text.trimmingWhitespace()), number.isFinite else {
                        throw failure(index, "\"\(text)\" is not a number (xAxis.type is number)")
                    }
                    return number
                })
        case .date?:
            return .dates(
                try strings.enumerated().map { index, text in
                    guard let date = ISODate.parse(text) else {
                        throw failure(index, "\"\(text)\" is not an ISO 8601 date such as 2026-11-14 or 2026-11-14T08:00:00.250Z")
                    }
                    return date
                })
        case nil:
            guard !strings.isEmpty, strings.allSatisfy(ISODate.looksLikeDate) else { return .categories(strings) }
            return try reading(strings, as: .date, codingPath: codingPath)
        }
    }

    /// These values as `type`: numbers or dates as category names, category names read as numbers or dates.
    public func coerced(to type: ChartAxis.ValueType, codingPath: [CodingKey] = []) throws -> XValues {
        switch (self, type) {
        case (.categories(let names), _): return try XValues.reading(names, as: type, codingPath: codingPath)
        case (.numbers(let values), .category):
            return .categories(values.map { $0 == $0.rounded() && abs($0) < 1e15 ? String($0.clampedInt()) : String($0) })
        case (.dates(let values), .category): return .categories(values.map(ISODate.format))
        case (.numbers, .number), (.dates, .date): return self
        case (.numbers, .date):
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath,
                    debugDescription:
                        "xAxis.type is date, but x holds numbers; write dates as ISO 8601 strings"))
        case (.dates(let values), .number): return .numbers(values)
        }
    }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .categories(let names): try container.encode(names)
        case .numbers(let values): try container.encode(values)
        case .dates(let values):
            try container.encode(values.map(ISODate.format))
        }
    }
}

/// One line (or point cloud) of a line chart; `nil` values leave a gap.
public struct LinePlot: Sendable, Hashable, Codable {
    /// Which value axis a plot is measured against.
    public enum Axis: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        /// The chart's `yAxis`, on the leading side.
        case primary
        /// The chart's `secondaryYAxis`, on the trailing side: a series in another unit.
        case secondary
    }

    /// The plot's name, shown in the legend; an empty title has no legend entry.
    public var title: String
    /// One value per x; nil leaves a gap.
    public var values: [Double?]
    /// This plot's own x positions; by default the chart's `x`.
    public var x: XValues?
    /// Its colour; the palette's next colour when nil.
    public var tint: Color?
    /// A marker colour per point (nil entries use `tint`); markers are drawn where one is set.
    public var tints: [Color?]?
    /// Fill the area under the line.
    public var fill: Bool
    /// The area's colour when filled; by default the line's colour.
    public var fillColor: Color?
    /// The area's opacity, 0 to 1; by default 0.15.
    public var fillOpacity: Double?
    /// Draw a marker at each point; nil follows the chart.
    public var markers: Bool?
    /// Drawn dashed.
    public var dashed: Bool
    /// The value axis it is measured against.
    public var axis: Axis
    /// The shape of its markers and legend swatch (Core Plot's plot symbols), so plots are told
    /// apart without colour; setting it turns markers on.
    public var markerShape: MarkerShape?

    /// A marker's shape.
    public enum MarkerShape: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        case circle, square, triangle, diamond, cross
    }

    /// A plot named `title` with `values`.
    public init(
        title: String = "", values: [Double?], x: XValues? = nil, tint: Color? = nil, tints: [Color?]? = nil,
        fill: Bool = false, fillColor: Color? = nil, fillOpacity: Double? = nil, markers: Bool? = nil,
        dashed: Bool = false, axis: Axis = .primary, markerShape: MarkerShape? = nil
    ) {
        self.markerShape = markerShape
        self.title = title
        self.values = values
        self.x = x
        self.tint = tint
        self.tints = tints
        self.fill = fill
        self.fillColor = fillColor
        self.fillOpacity = fillOpacity
        self.markers = markers
        self.dashed = dashed
        self.axis = axis
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(LenientText.self, forKey: .title)?.value ?? ""
        values = try c.decode([Double?].self, forKey: .values)
        x = try c.decodeIfPresent(.x)
        tint = try c.decodeIfPresent(.tint)
        tints = try c.decodeIfPresent(.tints)
        fillColor = try c.decodeIfPresent(.fillColor)
        fillOpacity = try c.decodeIfPresent(.fillOpacity)
        // A fill colour or opacity asks for a fill.
        fill = try c.decode(.fill, default: (fillColor != nil || fillOpacity != nil))
        markers = try c.decodeIfPresent(.markers)
        dashed = try c.decode(.dashed, default: false)
        axis = try c.decode(.axis, default: .primary)
        markerShape = try c.decodeIfPresent(.markerShape)
    }
}

/// Line graphs (ResearchKit's `ORKLineGraphChartView`, Core Plot's scatter plots)
/// and, with `connect` off, scatter and time-series plots.
public struct LineChart: Sendable, Hashable, Codable {
    /// How points are joined.
    public enum Interpolation: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        case linear
        /// Horizontal then vertical steps.
        case stepped
        /// A monotone cubic curve that never overshoots the data.
        case curved
    }

    /// Shared x positions; by default 0, 1, 2, … per value.
    public var x: XValues?
    /// The plots, drawn in order.
    public var plots: [LinePlot]
    /// How points are joined: straight, stepped or curved.
    public var interpolation: Interpolation
    /// Draw a marker at every point.
    public var markers: Bool
    /// Labelled straight lines across the plot.
    public var referenceLines: [ReferenceLine]
    /// Join the points with lines (false for a scatter plot).
    public var connect: Bool

    /// A line (or scatter) chart of `plots`.
    public init(
        x: XValues? = nil, plots: [LinePlot], interpolation: Interpolation = .linear, markers: Bool = false,
        referenceLines: [ReferenceLine] = [], connect: Bool = true
    ) {
        self.x = x
        self.plots = plots
        self.interpolation = interpolation
        self.markers = markers
        self.referenceLines = referenceLines
        self.connect = connect
    }

    private enum CodingKeys: String, CodingKey { case x, plots, interpolation, markers, referenceLines }

    init(from decoder: Decoder, connect: Bool) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        x = try c.decodeIfPresent(.x)
        plots = try c.decode([LinePlot].self, forKey: .plots)
        interpolation = try c.decode(.interpolation, default: .linear)
        markers = try c.decode(.markers, default: !connect)
        referenceLines = try c.decode(.referenceLines, default: [])
        self.connect = connect
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws { try self.init(from: decoder, connect: true) }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(x, forKey: .x)
        try c.encode(plots, forKey: .plots)
        try c.encode(interpolation, forKey: .interpolation)
        try c.encode(markers, forKey: .markers)
        try c.encode(referenceLines, forKey: .referenceLines)
    }

    /// The x positions of `plot` as numbers: categories become 0, 1, 2, ….
    public func xPositions(of plot: LinePlot) -> [Double] {
        switch plot.x ?? x {
        case .numbers(let values)?, .dates(let values)?: return values
        case .categories?, nil: return plot.values.indices.map(Double.init)
        }
    }
}
