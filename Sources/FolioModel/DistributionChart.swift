/// One group of a box plot: its name and every value measured in it.
public struct ChartSample: Sendable, Hashable, Codable {
    /// The group's name, under its box.
    public var title: String
    /// The values, in any order; their quartiles, whiskers and outliers are computed.
    public var values: [Double]
    /// Its colour; the palette's next colour when nil.
    public var tint: Color?

    /// The group `title` of `values`.
    public init(title: String, values: [Double], tint: Color? = nil) {
        self.title = title
        self.values = values
        self.tint = tint
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try c.decode(LenientText.self, forKey: .title).value, values: try c.decode([Double].self, forKey: .values),
            tint: try c.decodeIfPresent(.tint))
    }
}

/// Box plots: per group the median, the quartiles (a box), whiskers to the furthest values within
/// 1.5 interquartile ranges, and the values beyond as outliers (Tukey's rule; quartiles interpolated
/// between the sorted values, as R's and NumPy's default).
public struct BoxPlotChart: Sendable, Hashable, Codable {
    /// The groups, side by side.
    public var groups: [ChartSample]

    /// Box plots of `groups`.
    public init(groups: [ChartSample]) { self.groups = groups }

    /// Throws for a value that is not a finite number or too many values.
    package func validate(path: String) throws {
        if groups.count > 200 { throw FolioError(path: "\(path).groups", "has \(groups.count) groups; at most 200 are allowed") }
        var total = 0
        for (index, group) in groups.enumerated() {
            total += group.values.count
            if total > InputLimits.chartValues {
                throw FolioError(path: "\(path).groups[\(index)].values", "the groups hold more than \(InputLimits.chartValues) values")
            }
            if let bad = group.values.firstIndex(where: { !$0.isFinite || abs($0) > InputLimits.magnitude }) {
                throw FolioError(path: "\(path).groups[\(index)].values[\(bad)]", "must be a finite number between -1e15 and 1e15")
            }
        }
    }
}

/// A histogram: how many values fall in each of equal bins. The bins are `bins` many, or `binWidth`
/// wide, from `start` (by default the lowest value, down to a multiple of the width); without either,
/// Sturges' rule chooses ⌈log₂ n⌉ + 1 bins. Each bin holds the values from its start up to, not
/// including, its end; the last one includes its end.
public struct HistogramChart: Sendable, Hashable, Codable {
    /// The values counted.
    public var values: [Double]
    /// How many bins.
    public var bins: Int?
    /// How wide each bin is.
    public var binWidth: Double?
    /// Where the first bin starts.
    public var start: Double?
    /// The bars' colour; the palette's first when nil.
    public var tint: Color?

    /// A histogram of `values`.
    public init(values: [Double], bins: Int? = nil, binWidth: Double? = nil, start: Double? = nil, tint: Color? = nil) {
        self.values = values
        self.bins = bins
        self.binWidth = binWidth
        self.start = start
        self.tint = tint
    }

    /// Throws for a value that is not a finite number, too many values or bins, or a bin width that is
    /// not positive.
    package func validate(path: String) throws {
        if values.count > InputLimits.chartValues {
            throw FolioError(path: "\(path).values", "has \(values.count) values; at most \(InputLimits.chartValues) are allowed")
        }
        if let bad = values.firstIndex(where: { !$0.isFinite || abs($0) > InputLimits.magnitude }) {
            throw FolioError(path: "\(path).values[\(bad)]", "must be a finite number between -1e15 and 1e15")
        }
        if let bins, !(1...200).contains(bins) { throw FolioError(path: "\(path).bins", "must be 1 to 200") }
        if let binWidth, !(binWidth.isFinite && binWidth > 0 && binWidth <= InputLimits.magnitude) {
            throw FolioError(path: "\(path).binWidth", "must be a positive number")
        }
        if bins != nil, binWidth != nil { throw FolioError(path: "\(path).binWidth", "give bins or binWidth, not both") }
        if let start, !(start.isFinite && abs(start) <= InputLimits.magnitude) {
            throw FolioError(path: "\(path).start", "must be a finite number between -1e15 and 1e15")
        }
        if let start, let low = values.min(), start > low {
            throw FolioError(path: "\(path).start", "the first bin starts above the lowest value")
        }
        if let binWidth, let low = values.min(), let high = values.max(), (high - (start ?? low)) / binWidth > 200 {
            throw FolioError(path: "\(path).binWidth", "makes more than 200 bins of the values")
        }
    }
}
