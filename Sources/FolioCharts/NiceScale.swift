import Foundation

/// A linear value axis whose ticks fall on 1, 2 or 5 × 10ⁿ.
package struct NiceScale: Sendable, Hashable {
    /// The first tick.
    package let lower: Double
    /// The last tick.
    package let upper: Double
    /// The distance between ticks.
    package let step: Double

    /// The smallest nice range covering `low…high` with about `targetTicks` intervals.
    package init(low: Double, high: Double, targetTicks: Int = 5) {
        var lo = low
        var hi = high
        if lo == hi {
            lo -= lo == 0 ? 0 : abs(lo) * 0.5
            hi += hi == 0 ? 1 : abs(hi) * 0.5
        }
        let step = NiceScale.niceStep(for: (hi - lo) / Double(max(targetTicks, 1)))
        self.init(lower: (lo / step).rounded(.down) * step, upper: (hi / step).rounded(.up) * step, step: step)
    }

    /// A range with a fixed tick interval, widened to whole steps.
    package init(low: Double, high: Double, interval: Double) {
        let hi = high > low ? high : low + interval
        self.init(
            lower: (low / interval).rounded(.down) * interval, upper: (hi / interval).rounded(.up) * interval,
            step: interval)
    }

    private init(lower: Double, upper: Double, step: Double) {
        self.lower = lower
        self.upper = upper
        self.step = step
    }

    /// The scale with a step more above `high` or below `low` where that value (a data extreme,
    /// not zero) falls on the range's end: the top point or bar is not drawn along the frame,
    /// and its marker and value label have room.
    package func withHeadroom(low: Double, high: Double) -> NiceScale {
        let near = step * 0.05
        let top = high != 0 && upper - high < near ? upper + step : upper
        let bottom = low != 0 && low - lower < near ? lower - step : lower
        return NiceScale(lower: bottom, upper: top, step: step)
    }

    /// 1, 2, 5 or 10 × 10ⁿ, the smallest not below `raw`.
    package static func niceStep(for raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let magnitude = pow(10, floor(log10(raw)))
        let fraction = raw / magnitude
        let nice: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        return nice * magnitude
    }

    /// Tick values from `lower` to `upper` inclusive.
    package var ticks: [Double] {
        // Never more than a thousand ticks, whatever the range and step.
        let count = Swift.min(((upper - lower) / step).clampedInt(), 1000)
        let first = (lower / step).rounded()
        let precision = pow(10, Double(min(tickDecimals, 12)))
        // Integer multiples of the step, rounded to its decimals so 3 × 0.2 prints as 0.6.
        return (0...max(count, 0)).map { (((first + Double($0)) * step) * precision).rounded() / precision }
    }

    /// Where `value` falls between 0 (lower) and 1 (upper).
    package func fraction(_ value: Double) -> Double {
        upper == lower ? 0 : (value - lower) / (upper - lower)
    }

    /// Decimal places that print every tick exactly.
    package var tickDecimals: Int {
        step >= 1 ? 0 : Swift.min(ceil(-log10(step) - 1e-9).clampedInt(), 20)
    }
}
