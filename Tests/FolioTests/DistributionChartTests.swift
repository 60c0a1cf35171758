import FolioGraphics
import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Box plots and histograms (#44): the statistics a reader needs (quartiles, whiskers, outliers; the
/// bins and their rule) computed as stated, drawn to scale and said in the description and data table.
final class DistributionChartTests: XCTestCase {
    private func chart(_ yaml: String) throws -> Chart {
        let document = try DocumentDecoder.decode(Data("title: T\nelements:\n\(yaml)".utf8), format: .yaml)
        guard case .chart(let chart)? = document.elements.first else { throw FixtureError("the fixture holds no chart first") }
        return chart
    }

    /// Quartiles interpolated as R's type 7 (NumPy's default), Tukey's whiskers and outliers.
    func testBoxStatisticsAreTukeysOnType7Quartiles() throws {
        // numpy.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 40], [25, 50, 75]) = 3.25, 5.5, 7.75
        let stats = try XCTUnwrap(BoxStatistics([40, 9, 8, 7, 6, 5, 4, 3, 2, 1]))
        XCTAssertEqual(stats.lowerQuartile, 3.25, accuracy: 1e-12)
        XCTAssertEqual(stats.median, 5.5, accuracy: 1e-12)
        XCTAssertEqual(stats.upperQuartile, 7.75, accuracy: 1e-12)
        // IQR 4.5: whiskers reach 3.25 - 6.75 and 7.75 + 6.75 = 14.5, so 40 is an outlier and 1 is not.
        XCTAssertEqual(stats.lowerWhisker, 1)
        XCTAssertEqual(stats.upperWhisker, 9)
        XCTAssertEqual(stats.outliers, [40])
        XCTAssertNil(BoxStatistics([]))
        XCTAssertEqual(BoxStatistics([7])?.median, 7)
    }

    /// The box spans the quartiles and the median line is where the median is, on the drawn scale;
    /// the description and the data table say the same numbers.
    func testTheBoxIsDrawnAtItsQuartilesAndSaidInWords() throws {
        let chart = try chart(
            """
              - type: chart
                kind: boxplot
                title: Scores
                yAxis: {min: 0, max: 40, clip: true}
                groups: [{title: A, values: [40, 9, 8, 7, 6, 5, 4, 3, 2, 1]}]
            """)
        let drawing = ChartRenderer(measurer: FixedMeasurer(), theme: .standard).drawing(for: chart, width: 300)
        let median = TestSupport.strokes(drawing).first { $0.1.color == Theme.standard.text && abs($0.1.width - 2.2) < 0.01 }
        XCTAssertNotNil(median)
        XCTAssertEqual(
            ChartDescription.describe(chart, strings: .english),
            "Box plot, Scores. A: median 5.5, quartiles 3.25 and 7.75, whiskers 1 to 9, 10 values, 1 outlier: 40.")
        let table = ChartDataTable(chart, strings: .english)
        XCTAssertEqual(table.header, ["Category", "Count", "Minimum", "Lower quartile", "Median", "Upper quartile", "Maximum", "Outliers"])
        XCTAssertEqual(table.rows, [["A", "10", "1", "3.25", "5.5", "7.75", "40", "40"]])
    }

    /// Bins as asked (a count or a width), the last including its end; every bar as tall as its count.
    func testHistogramBinsCountEveryValueOnceAndBarsAreAsTallAsTheirCounts() throws {
        let chart = try chart(
            """
              - type: chart
                kind: histogram
                title: Steps
                binWidth: 2
                values: [0, 1, 2, 3, 3.5, 4, 9.9, 10]
            """)
        guard case .histogram(let histogram) = chart.body, let bins = HistogramBins(histogram) else { return XCTFail("no bins") }
        XCTAssertEqual(bins.start, 0)
        XCTAssertEqual(bins.counts, [2, 3, 1, 0, 2])
        XCTAssertFalse(bins.bySturges)
        let drawing = ChartRenderer(measurer: FixedMeasurer(), theme: .standard).drawing(for: chart, width: 300)
        let bars = TestSupport.filledRects(drawing, color: Theme.standard.seriesColor(0)).sorted { $0.x < $1.x }
        XCTAssertEqual(bars.count, 4)
        let unit = bars[0].height / 2
        XCTAssertEqual(bars.map { ($0.height / unit * 1000).rounded() / 1000 }, [2, 3, 1, 2])
        XCTAssertEqual(
            ChartDescription.describe(chart, strings: .english),
            "Histogram, Steps. 8 values in 5 bins of 2 from 0 to 10, most in 2–4 (3).")
        XCTAssertEqual(
            ChartDataTable(chart, strings: .english).rows, [["0–2", "2"], ["2–4", "3"], ["4–6", "1"], ["6–8", "0"], ["8–10", "2"]])
        let sturges = try self.chart("  - {type: chart, kind: histogram, values: [1, 2, 3, 4, 5, 6, 7, 8]}")
        XCTAssertTrue(ChartDescription.describe(sturges, strings: .english).contains("(bins by Sturges’ rule)"))
    }

    /// Values that are not finite, bins out of range, both bins and a width are one line naming the field.
    func testBadDistributionsNameTheField() throws {
        func error(_ yaml: String) -> String {
            do {
                _ = try chart(yaml)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(
            error("  - {type: chart, kind: histogram, values: [1, .inf]}"),
            "elements[0].values[1]: must be a finite number between -1e15 and 1e15")
        XCTAssertEqual(error("  - {type: chart, kind: histogram, values: [1], bins: 0}"), "elements[0].bins: must be 1 to 200")
        XCTAssertEqual(
            error("  - {type: chart, kind: histogram, values: [1], bins: 3, binWidth: 1}"),
            "elements[0].binWidth: give bins or binWidth, not both")
        XCTAssertEqual(
            error("  - {type: chart, kind: histogram, values: [1, 1000], binWidth: 0.001}"),
            "elements[0].binWidth: makes more than 200 bins of the values")
        XCTAssertEqual(
            error("  - {type: chart, kind: boxplot, groups: [{title: A, values: [1, .nan]}]}"),
            "elements[0].groups[0].values[1]: must be a finite number between -1e15 and 1e15")
    }
}
