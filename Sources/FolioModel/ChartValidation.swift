/// Chart checks: finite numbers, matching lengths, sensible axes. Empty data is
/// not an error: the chart then says "No data".
extension Chart {
    /// Throws for the first value, length or axis setting that cannot be drawn.
    package func validate(path: String) throws {
        if let height { try height.validate(path: "\(path).height", allowZero: false) }
        if let minHeight { try minHeight.validate(path: "\(path).minHeight", allowZero: false) }
        try count(thresholds.count, atMost: InputLimits.chartLayers, "\(path).thresholds", "thresholds")
        try xAxis.validate(path: "\(path).xAxis")
        try yAxis.validate(path: "\(path).yAxis")
        if let secondaryYAxis {
            try secondaryYAxis.validate(path: "\(path).secondaryYAxis")
            guard case .line = body else {
                throw FolioError(path: "\(path).secondaryYAxis", "only line and scatter charts have a second value axis")
            }
        }
        for (index, threshold) in thresholds.enumerated() {
            let thresholdPath = "\(path).thresholds[\(index)]"
            try finite(threshold.value, "\(thresholdPath).value")
            if threshold.kind == .range {
                guard let upper = threshold.upper else {
                    throw FolioError(path: "\(thresholdPath).upper", "a range threshold needs an upper value")
                }
                try finite(upper, "\(thresholdPath).upper")
                if upper <= threshold.value {
                    throw FolioError(path: "\(thresholdPath).upper", "upper must be greater than value")
                }
            }
        }
        if annotations.count > 100 { throw FolioError(path: "\(path).annotations", "has \(annotations.count) notes; at most 100") }
        for (index, annotation) in annotations.enumerated() {
            switch body {
            case .bar, .line: break
            default: throw FolioError(path: "\(path).annotations", "notes point at points of bar, line and scatter charts")
            }
            if let y = annotation.y { try finite(y, "\(path).annotations[\(index)].y") }
            if annotation.text.count > 200 {
                throw FolioError(path: "\(path).annotations[\(index)].text", "a note holds at most 200 characters")
            }
            if let series = annotation.series, !seriesTitles.contains(series) {
                throw FolioError(path: "\(path).annotations[\(index)].series", "no series is titled \"\(series.prefix(40))\"")
            }
            guard annotationPoint(annotation) != nil else {
                throw FolioError(
                    path: "\(path).annotations[\(index)].at",
                    "no point of the chart is at \"\(annotation.at.prefix(40))\": name a category, x value or date it has a value at, or give y"
                )
            }
        }
        switch body {
        case .bar(let bar): try bar.validate(path: path, logScale: yAxis.scale == .log)
        case .line(let line):
            try line.validate(path: path, logScale: yAxis.scale == .log, secondaryLog: secondaryYAxis?.scale == .log)
        case .pie(let pie): try pie.validate(path: path)
        case .rings(let rings):
            try count(rings.rings.count, atMost: InputLimits.pieSegments, "\(path).rings", "rings")
            for (index, ring) in rings.rings.enumerated() where !(0...InputLimits.ringValue).contains(ring.value) {
                throw FolioError(path: "\(path).rings[\(index)].value", "must be between 0 and 1000 (1 is a full ring)")
            }
        case .range(let range): try range.validate(path: path, logScale: yAxis.scale == .log)
        case .measures(let measures): try measures.validate(path: path)
        case .boxPlot(let boxes): try boxes.validate(path: path)
        case .histogram(let histogram): try histogram.validate(path: path)
        case .heatmap(let heatmap): try heatmap.validate(path: path)
        }
    }
}

extension Chart {
    /// The titles of a bar chart's series or a line chart's plots.
    fileprivate var seriesTitles: [String] {
        switch body {
        case .bar(let bar): return bar.series.map(\.title)
        case .line(let line): return line.plots.map(\.title)
        default: return []
        }
    }
}

// The paths are built only for a value that fails: charts may hold 100,000 values.
private func finite(_ value: Double, _ path: @autoclosure () -> String) throws {
    if !value.isFinite { throw FolioError(path: path(), "values must be finite numbers") }
    if abs(value) > InputLimits.magnitude {
        throw FolioError(path: path(), "must be between -1e15 and 1e15")
    }
}

private func count(_ count: Int, atMost limit: Int, _ path: @autoclosure () -> String, _ what: String) throws {
    if count > limit { throw FolioError(path: path(), "has \(count) \(what); at most \(limit) are allowed") }
}

/// A per-value list (labels, colours) must have one entry per value.
private func matches(_ count: Int?, _ values: Int, _ path: @autoclosure () -> String, _ what: String) throws {
    if let count, count != values {
        throw FolioError(path: path(), "has \(count) \(what) but there are \(values) values")
    }
}

private func positiveForLog(_ value: Double, _ path: @autoclosure () -> String, _ logScale: Bool) throws {
    if logScale && value <= 0 { throw FolioError(path: path(), "a log scale needs values above 0") }
}

extension ChartAxis {
    func validate(path: String) throws {
        for (name, value) in [("min", min), ("max", max), ("tickInterval", tickInterval)] {
            if let value { try finite(value, "\(path).\(name)") }
        }
        if let low = min, let high = max, low >= high {
            throw FolioError(path: "\(path).max", "max must be greater than min")
        }
        if let interval = tickInterval, interval <= 0 {
            throw FolioError(path: "\(path).tickInterval", "tickInterval must be greater than 0")
        }
        try count(ticks?.count ?? 0, atMost: InputLimits.ticks, "\(path).ticks", "ticks")
        for (index, tick) in (ticks ?? []).enumerated() { try finite(tick.value, "\(path).ticks[\(index)].value") }
        if clip, min == nil, max == nil {
            throw FolioError(path: "\(path).clip", "a clipped axis needs min or max (or both)")
        }
        if let unit, unit.count > 24 || unit.contains(where: \.isNewline) {
            throw FolioError(path: "\(path).unit", "a unit is one short line (at most 24 characters), such as mmol/L")
        }
        if scale == .log, let low = min, low <= 0 {
            throw FolioError(path: "\(path).min", "a log scale needs min above 0")
        }
        switch format {
        case .number(let decimals?) where !(0...6).contains(decimals), .percent(let decimals) where !(0...6).contains(decimals):
            throw FolioError(path: "\(path).format", "decimals must be between 0 and 6")
        default: break
        }
    }
}

extension BarChart {
    func validate(path: String, logScale: Bool) throws {
        try count(categories.count, atMost: InputLimits.chartEntries, "\(path).categories", "categories")
        try count(series.count, atMost: InputLimits.chartLayers, "\(path).series", "series")
        try count(categories.count * series.count, atMost: InputLimits.chartMarks, "\(path).series", "values")
        if let subtitles = categorySubtitles, subtitles.count != categories.count {
            throw FolioError(
                path: "\(path).categorySubtitles",
                "has \(subtitles.count) entries but the chart has \(categories.count) categories")
        }
        for (index, series) in series.enumerated() {
            let seriesPath = "\(path).series[\(index)]"
            if series.values.count != categories.count {
                throw FolioError(
                    path: "\(seriesPath).values",
                    "has \(series.values.count) values but the chart has \(categories.count) categories")
            }
            for (v, value) in series.values.enumerated() {
                guard let value else { continue }
                try finite(value, "\(seriesPath).values[\(v)]")
                try positiveForLog(value, "\(seriesPath).values[\(v)]", logScale)
            }
            try matches(series.valueLabels?.count, series.values.count, "\(seriesPath).valueLabels", "labels")
            try matches(series.tints?.count, series.values.count, "\(seriesPath).tints", "colours")
            if logScale, let stack = series.stack {
                throw FolioError(path: "\(seriesPath).stack", "stacked bars (stack \"\(stack)\") cannot use a log scale")
            }
        }
        if stacked, logScale {
            throw FolioError(path: "\(path).stacked", "stacked bars cannot use a log scale")
        }
    }
}

extension XValues {
    func validate(path: String) throws {
        switch self {
        case .categories: break
        case .numbers(let values), .dates(let values):
            for (index, value) in values.enumerated() { try finite(value, "\(path)[\(index)]") }
        }
    }
}

extension LineChart {
    func validate(path: String, logScale: Bool, secondaryLog: Bool) throws {
        try x?.validate(path: "\(path).x")
        try count(plots.count, atMost: InputLimits.chartLayers, "\(path).plots", "plots")
        try count(referenceLines.count, atMost: InputLimits.chartLayers, "\(path).referenceLines", "reference lines")
        try count(plots.reduce(0) { $0 + $1.values.count }, atMost: InputLimits.chartValues, "\(path).plots", "values")
        for (index, plot) in plots.enumerated() {
            let plotPath = "\(path).plots[\(index)]"
            try plot.x?.validate(path: "\(plotPath).x")
            if let positions = plot.x ?? x, positions.count != plot.values.count {
                throw FolioError(
                    path: "\(plotPath).values",
                    "has \(plot.values.count) values but \(plot.x == nil ? "the chart's" : "its") x has \(positions.count)")
            }
            let plotLog = plot.axis == .secondary ? secondaryLog : logScale
            for (v, value) in plot.values.enumerated() {
                guard let value else { continue }
                try finite(value, "\(plotPath).values[\(v)]")
                try positiveForLog(value, "\(plotPath).values[\(v)]", plotLog)
            }
            try matches(plot.tints?.count, plot.values.count, "\(plotPath).tints", "colours")
            if let opacity = plot.fillOpacity, !(0...1).contains(opacity) {
                throw FolioError(path: "\(plotPath).fillOpacity", "must be between 0 and 1")
            }
        }
        for (index, line) in referenceLines.enumerated() {
            try finite(line.value, "\(path).referenceLines[\(index)].value")
        }
    }
}

extension PieChart {
    func validate(path: String) throws {
        try count(segments.count, atMost: InputLimits.pieSegments, "\(path).segments", "segments")
        for (index, segment) in segments.enumerated() {
            try finite(segment.value, "\(path).segments[\(index)].value")
            if segment.value < 0 {
                throw FolioError(path: "\(path).segments[\(index)].value", "pie values must not be negative")
            }
        }
        if let ringWidth, !(0.1...1).contains(ringWidth) {
            throw FolioError(path: "\(path).ringWidth", "must be between 0.1 and 1 (a fraction of the radius)")
        }
        for (index, slice) in explode.enumerated() where !segments.indices.contains(slice) {
            throw FolioError(path: "\(path).explode[\(index)]", "no segment \(slice); there are \(segments.count)")
        }
    }
}

extension RangeChart {
    func validate(path: String, logScale: Bool) throws {
        try count(categories.count, atMost: InputLimits.chartEntries, "\(path).categories", "categories")
        try count(plots.count, atMost: InputLimits.chartLayers, "\(path).plots", "plots")
        try count(
            plots.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } }, atMost: InputLimits.chartMarks,
            "\(path).plots", "values")
        for (index, plot) in plots.enumerated() {
            let plotPath = "\(path).plots[\(index)]"
            if plot.values.count != categories.count {
                throw FolioError(
                    path: "\(plotPath).values",
                    "has \(plot.values.count) entries but the chart has \(categories.count) categories")
            }
            for (v, entry) in plot.values.enumerated() {
                for value in entry {
                    try finite(value, "\(plotPath).values[\(v)]")
                    try positiveForLog(value, "\(plotPath).values[\(v)]", logScale)
                }
            }
        }
    }
}
