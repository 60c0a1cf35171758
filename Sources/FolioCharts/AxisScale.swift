import FolioGraphics
import FolioModel
import Foundation

/// Maps data values to 0…1 along an axis, linear or logarithmic, with its ticks.
struct AxisScale {
    let lower: Double
    let upper: Double
    let isLog: Bool
    let ticks: [Double]
    /// The author's label for each tick, parallel to `ticks`; nil where the format writes it.
    let tickTexts: [String?]
    /// Values beyond `lower…upper` are cut off at the plot's edge (`ChartAxis.clip`).
    let clips: Bool
    /// Decimals that print the ticks exactly, for plain-number labels.
    let tickDecimals: Int

    /// A scale covering `low…high`, widened by the axis's min/max, with nice,
    /// fixed-interval or explicit ticks. Dates get calendar-sized steps.
    /// With `axis.clip`, its min and max are the range exactly, whatever the data.
    /// A value axis (`headroom`) goes a step beyond a data extreme that falls on its end; an x axis does not.
    init(low dataLow: Double, high dataHigh: Double, axis: ChartAxis, includeZero: Bool, isDate: Bool = false, headroom: Bool = true) {
        var low = Swift.min(dataLow, axis.min ?? dataLow)
        var high = Swift.max(dataHigh, axis.max ?? dataHigh)
        if includeZero && axis.scale == .linear {
            low = Swift.min(low, 0)
            high = Swift.max(high, 0)
        }
        clips = axis.clip
        if axis.clip {
            low = axis.min ?? Swift.min(low, (axis.max ?? high) - 1)
            high = axis.max ?? Swift.max(high, low + 1)
            if high <= low { high = low + 1 }
        }
        // The author's ticks, in order, those outside a clipped range left out.
        let given = (axis.ticks ?? []).sorted { $0.value < $1.value }.filter {
            (!axis.clip || ($0.value >= low - 1e-9 && $0.value <= high + 1e-9)) && (axis.scale == .linear || $0.value > 0)
        }
        if axis.scale == .log {
            isLog = true
            let lo = floor(log10(Swift.max(low, 1e-12)))
            let hi = ceil(log10(Swift.max(high, 1e-12)))
            lower = axis.clip ? low : pow(10, lo)
            upper = axis.clip ? high : pow(10, Swift.max(hi, lo + 1))
            if axis.ticks != nil {
                ticks = given.map(\.value)
                tickTexts = given.map(\.label)
            } else {
                ticks = stride(from: lo, through: Swift.max(hi, lo + 1), by: 1).map { pow(10, $0) }.filter {
                    !axis.clip || ($0 >= low * (1 - 1e-9) && $0 <= high * (1 + 1e-9))
                }
                tickTexts = Array(repeating: nil, count: ticks.count)
            }
            tickDecimals = Swift.max(0, (-lo).clampedInt())
            return
        }
        isLog = false
        if !given.isEmpty {
            let explicit = given.map(\.value)
            lower = axis.clip ? low : Swift.min(low, explicit.min() ?? low)
            upper = axis.clip ? high : Swift.max(high, explicit.max() ?? high, lower + 1e-9)
            ticks = explicit
            tickTexts = given.map(\.label)
            tickDecimals =
                explicit.map { tick in
                    (0...3).first { abs(tick * pow(10, Double($0)) - (tick * pow(10, Double($0))).rounded()) < 1e-6 } ?? 3
                }.max() ?? 0
            return
        }
        var scale: NiceScale
        if let interval = axis.tickInterval, (high - low) / interval < Double(InputLimits.ticks) {
            // An interval that would draw more than `InputLimits.ticks` ticks is replaced by nice ticks.
            scale = NiceScale(low: low, high: high, interval: interval)
        } else if isDate {
            scale = NiceScale(low: low, high: high, interval: AxisScale.dateStep(for: (high - low) / 5))
        } else {
            scale = NiceScale(low: low, high: high)
        }
        if headroom && !isDate && !axis.clip && dataHigh > dataLow {
            // Room above the top value and below a lowest one that is not zero, where the author set no end.
            scale = scale.withHeadroom(low: axis.min == nil ? dataLow : 0, high: axis.max == nil ? dataHigh : 0)
        }
        // Explicit min/max are honoured exactly at the ends when given; a clipped range is exact.
        let first = axis.clip ? low : axis.min.map { Swift.min($0, low) } ?? (isDate ? low : scale.lower)
        let last = axis.clip ? high : axis.max.map { Swift.max($0, high) } ?? (isDate ? high : scale.upper)
        lower = first
        upper = last
        ticks = scale.ticks.filter { $0 >= first - 1e-9 && $0 <= last + 1e-9 }
        tickTexts = Array(repeating: nil, count: ticks.count)
        tickDecimals = scale.tickDecimals
    }

    private init(lower: Double, upper: Double, ticks: [Double], tickDecimals: Int) {
        self.lower = lower
        self.upper = upper
        isLog = false
        self.ticks = ticks
        tickTexts = Array(repeating: nil, count: ticks.count)
        clips = false
        self.tickDecimals = tickDecimals
    }

    /// A second axis whose ticks fall on `primary`'s gridlines: as many intervals, each a nice step
    /// (1, 2, 2.5 or 5 × 10ⁿ), covering `low…high`. Nil where the axes cannot share gridlines: either
    /// is logarithmic, or the second has an author's range, interval or ticks, or the first's ticks
    /// are not evenly spaced from end to end.
    static func aligned(to primary: AxisScale, low: Double, high: Double, axis: ChartAxis, includeZero: Bool) -> AxisScale? {
        guard !primary.isLog, axis.scale == .linear, axis.max == nil, axis.ticks == nil, axis.tickInterval == nil, !axis.clip,
            primary.ticks.count >= 3, primary.ticks.count <= 12, let first = primary.ticks.first, let last = primary.ticks.last,
            abs(first - primary.lower) < 1e-9 * Swift.max(1, abs(primary.lower)),
            abs(last - primary.upper) < 1e-9 * Swift.max(1, abs(primary.upper))
        else { return nil }
        let intervals = Double(primary.ticks.count - 1)
        let span = primary.ticks[1] - primary.ticks[0]
        guard zip(primary.ticks, primary.ticks.dropFirst()).allSatisfy({ abs(($1 - $0) - span) < 1e-9 * Swift.max(1, abs(span)) }) else {
            return nil
        }
        var lowest = Swift.min(low, axis.min ?? low)
        var highest = high
        if includeZero {
            lowest = Swift.min(lowest, 0)
            highest = Swift.max(highest, 0)
        }
        if highest <= lowest { highest = lowest + 1 }
        // The smallest nice step whose whole intervals, from a multiple of it, cover the values.
        var raw = (highest - lowest) / intervals
        for _ in 0..<64 {
            let magnitude = pow(10, floor(log10(raw)))
            let step = [1, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw * (1 - 1e-12) } ?? 10 * magnitude
            let start = axis.min.map { Swift.min($0, (lowest / step).rounded(.down) * step) } ?? (lowest / step).rounded(.down) * step
            if start + intervals * step >= highest - 1e-9 * Swift.max(1, abs(highest)) {
                let ticks = (0...Int(intervals)).map { start + Double($0) * step }
                let decimals = (0...3).first { abs(step * pow(10, Double($0)) - (step * pow(10, Double($0))).rounded()) < 1e-6 } ?? 3
                return AxisScale(lower: start, upper: ticks.last ?? start + 1, ticks: ticks, tickDecimals: decimals)
            }
            raw = step * 1.000001
        }
        return nil
    }

    /// Where `value` falls between 0 (lower) and 1 (upper).
    func fraction(_ value: Double) -> Double {
        if isLog {
            let v = log10(Swift.max(value, lower / 10))
            let lo = log10(lower)
            let hi = log10(upper)
            return hi == lo ? 0 : (v - lo) / (hi - lo)
        }
        return upper == lower ? 0 : (value - lower) / (upper - lower)
    }

    /// Calendar-friendly steps in seconds: seconds, minutes, hours, days, weeks.
    static func dateStep(for raw: Double) -> Double {
        let steps: [Double] = [
            1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200,
            86_400, 172_800, 604_800, 1_209_600, 2_592_000, 7_776_000, 15_552_000, 31_536_000,
        ]
        return steps.first { $0 >= raw } ?? (raw / 31_536_000).rounded(.up) * 31_536_000
    }

    /// Label of tick `value` for `axis`, written by `numbers`.
    func label(_ value: Double, axis: ChartAxis, numbers: NumberFormat) -> String {
        numbers.string(value, format: axis.format, fallbackDecimals: tickDecimals)
    }

    /// The label of every tick, in order: the author's where given, else the formatted value; plain
    /// numbers of an axis reaching 10,000 with their digits grouped (`10,000`, `1,000,000`).
    func labels(axis: ChartAxis, numbers: NumberFormat) -> [String] {
        let plain: Bool
        switch axis.format {
        case nil, .number?: plain = true
        default: plain = false
        }
        let group = plain && (ticks.map { abs($0) }.max() ?? 0) >= 10_000
        return zip(ticks, tickTexts).map { tick, text in
            text ?? (group ? numbers.grouped(label(tick, axis: axis, numbers: numbers)) : label(tick, axis: axis, numbers: numbers))
        }
    }

    /// `value` brought within the axis range when the axis clips (so a bar ends at the plot's edge).
    func clamped(_ value: Double) -> Double {
        clips ? Swift.min(Swift.max(value, lower), upper) : value
    }
}
