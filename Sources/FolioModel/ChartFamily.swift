/// A chart family's data (bars, lines, a pie, rings, ranges): in the document builder it stands
/// for an untitled chart, and `chart(title:…)` gives it a title, axes, legend and the rest.
public protocol ChartFamily: BlockConvertible {
    /// The data as the body of a chart.
    var chartBody: Chart.Body { get }
}

extension ChartFamily {
    /// An untitled chart of this data.
    public var block: Block { .chart(Chart(chartBody)) }

    /// A chart of this data with its title, caption, axes, legend, thresholds and text alternative.
    public func chart(
        title: String? = nil, caption: String? = nil, height: Length? = nil, xAxis: ChartAxis = ChartAxis(),
        yAxis: ChartAxis = ChartAxis(), secondaryYAxis: ChartAxis? = nil, legend: LegendOptions = LegendOptions(),
        thresholds: [ChartThreshold] = [], alt: String? = nil, dataTable: Bool = false, noData: String? = nil
    ) -> Chart {
        Chart(
            title: title, caption: caption, height: height, xAxis: xAxis, yAxis: yAxis, legend: legend,
            thresholds: thresholds, alt: alt, dataTable: dataTable, noData: noData, secondaryYAxis: secondaryYAxis,
            chartBody)
    }
}

extension BarChart: ChartFamily {
    /// `.bar(self)`.
    public var chartBody: Chart.Body { .bar(self) }

    /// A bar chart over `categories` of the series the builder gives (CareKit's `OCKBarChart`).
    public init(
        categories: [String], categorySubtitles: [String]? = nil, orientation: Orientation = .vertical,
        stacked: Bool = false, valueLabels: Bool = true, @ListBuilder<ChartSeries> series: () throws -> [ChartSeries]
    ) rethrows {
        self.init(
            categories: categories, categorySubtitles: categorySubtitles, series: try series(), orientation: orientation,
            stacked: stacked, valueLabels: valueLabels)
    }
}

extension LineChart: ChartFamily {
    /// `.line(self)`.
    public var chartBody: Chart.Body { .line(self) }

    /// A line (or, with `connect` off, scatter) chart of the plots the builder gives.
    public init(
        x: XValues? = nil, interpolation: Interpolation = .linear, markers: Bool = false,
        referenceLines: [ReferenceLine] = [], connect: Bool = true, @ListBuilder<LinePlot> plots: () throws -> [LinePlot]
    ) rethrows {
        self.init(
            x: x, plots: try plots(), interpolation: interpolation, markers: markers, referenceLines: referenceLines,
            connect: connect)
    }
}

extension PieChart: ChartFamily {
    /// `.pie(self)`.
    public var chartBody: Chart.Body { .pie(self) }

    /// A pie (or donut) chart of the segments the builder gives.
    public init(
        donut: Bool = false, clockwise: Bool = true, centerTitle: String? = nil, centerText: String? = nil,
        percentLabels: Bool = true, ringWidth: Double? = nil, @ListBuilder<ChartSegment> segments: () throws -> [ChartSegment]
    ) rethrows {
        self.init(
            segments: try segments(), donut: donut, clockwise: clockwise, centerTitle: centerTitle, centerText: centerText,
            percentLabels: percentLabels, ringWidth: ringWidth)
    }
}

extension RingChart: ChartFamily {
    /// `.rings(self)`.
    public var chartBody: Chart.Body { .rings(self) }

    /// Activity rings, one per segment the builder gives, outermost first.
    public init(centerLabel: String? = nil, @ListBuilder<ChartSegment> rings: () throws -> [ChartSegment]) rethrows {
        self.init(rings: try rings(), centerLabel: centerLabel)
    }
}

extension RangeChart: ChartFamily {
    /// `.range(self)`.
    public var chartBody: Chart.Body { .range(self) }

    /// A range chart over `categories` of the plots the builder gives.
    public init(
        categories: [String], connected: Bool = false, multiplePoints: Bool = false,
        @ListBuilder<RangePlot> plots: () throws -> [RangePlot]
    ) rethrows {
        self.init(categories: categories, plots: try plots(), connected: connected, multiplePoints: multiplePoints)
    }
}
