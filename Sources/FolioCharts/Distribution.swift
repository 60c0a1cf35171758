import FolioModel
import Foundation

/// The statistics a box plot draws and says: quartiles interpolated between the sorted values (R's
/// type 7, NumPy's default), whiskers to the furthest values within 1.5 interquartile ranges of the
/// box (Tukey), the values beyond them as outliers.
package struct BoxStatistics: Sendable, Equatable {
    package let count: Int
    package let lowerQuartile: Double
    package let median: Double
    package let upperQuartile: Double
    package let lowerWhisker: Double
    package let upperWhisker: Double
    package let outliers: [Double]
    package let minimum: Double
    package let maximum: Double

    /// The statistics of `values`, or nil when there are none.
    package init?(_ values: [Double]) {
        let sorted = values.sorted()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        func quantile(_ p: Double) -> Double {
            let position = p * Double(sorted.count - 1)
            let below = position.rounded(.down).clamped(to: 0...Double(sorted.count - 1)).clampedInt()
            let above = min(below + 1, sorted.count - 1)
            return sorted[below] + (sorted[above] - sorted[below]) * (position - Double(below))
        }
        count = sorted.count
        lowerQuartile = quantile(0.25)
        median = quantile(0.5)
        upperQuartile = quantile(0.75)
        let reach = 1.5 * (upperQuartile - lowerQuartile)
        let (low, high) = (lowerQuartile - reach, upperQuartile + reach)
        let lowEnd = sorted.first { $0 >= low } ?? first
        let highEnd = sorted.last { $0 <= high } ?? last
        lowerWhisker = lowEnd
        upperWhisker = highEnd
        outliers = sorted.filter { $0 < lowEnd || $0 > highEnd }
        minimum = first
        maximum = last
    }
}

/// A histogram's bins: equal widths from a start, each with its count.
package struct HistogramBins: Sendable, Equatable {
    package let start: Double
    package let width: Double
    package let counts: [Int]
    /// Whether Sturges' rule chose the number of bins (neither `bins` nor `binWidth` was given).
    package let bySturges: Bool

    /// The bins of `histogram`'s values, or nil when it has none.
    package init?(_ histogram: HistogramChart) {
        guard let low = histogram.values.min(), let high = histogram.values.max() else { return nil }
        bySturges = histogram.bins == nil && histogram.binWidth == nil
        let count = histogram.bins ?? log2(Double(histogram.values.count)).rounded(.up).clampedInt() + 1
        var width: Double
        if let given = histogram.binWidth {
            width = given
        } else {
            // A "nice" width (1, 2, 2.5 or 5 × 10ⁿ) that covers the values in about `count` bins.
            let raw = max((high - (histogram.start ?? low)) / Double(max(count, 1)), 1e-9)
            let magnitude = pow(10, (log10(raw)).rounded(.down))
            width = ([1, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw }) ?? raw
        }
        if !(width > 0) { width = 1 }
        let start = histogram.start ?? (low / width).rounded(.down) * width
        // The last bin includes its end: values 0 to 10 in bins of 2 are five bins, 10 in the fifth.
        let bins = max(1, min(((high - start) / width).rounded(.up).clampedInt(), 200))
        var counts = Array(repeating: 0, count: bins)
        for value in histogram.values {
            let index = ((value - start) / width).rounded(.down).clamped(to: 0...Double(bins - 1)).clampedInt()
            counts[index] += 1
        }
        self.start = start
        self.width = width
        self.counts = counts
    }

    /// Where bin `index` starts.
    package func lower(_ index: Int) -> Double { start + Double(index) * width }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
