import FolioGraphics
import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Bullet graphs and gauges (#44): a measure against its target and ranges, drawn to scale, said in
/// words (which side of the target, which range) in every language, and in the data table.
final class MeasureChartTests: XCTestCase {
    private func chart(_ yaml: String) throws -> Chart {
        let document = try DocumentDecoder.decode(Data("title: T\nelements:\n\(yaml)".utf8), format: .yaml)
        guard case .chart(let chart)? = document.elements.first else { throw FixtureError("the fixture holds no chart first") }
        return chart
    }

    private let bullet = """
          - type: chart
            kind: bullet
            title: Plan
            measures:
              - {title: HbA1c, value: 7.4, target: 7, low: 4, bands: [7, 8, 10], bandLabels: [on target, above, well above], unit: "%"}
              - {title: Steps, value: 6000, target: 8000, bands: [5000, 8000, 12000], unit: steps}
        """

    /// The value's bar is as long as its value on the measure's scale, the target's tick where the
    /// target is, each range as wide as its span.
    func testTheBarIsAsLongAsItsValueAndTheTickWhereTheTargetIs() throws {
        let chart = try chart(bullet)
        let drawing = ChartRenderer(measurer: FixedMeasurer(), theme: .standard).drawing(for: chart, width: 400)
        let dark = TestSupport.filledRects(drawing, color: Theme.standard.text)
        // Per measure: the value's bar (a third of the row high) and the target's tick (2 wide).
        let bars = dark.filter { $0.width > 2.5 }
        let ticks = dark.filter { abs($0.width - 2) < 0.01 }
        XCTAssertEqual(bars.count, 2)
        XCTAssertEqual(ticks.count, 2)
        let shades = Array(MeasureChartLayout.bandShades.prefix(3))
        let ranges: [Rect] = shades.flatMap { TestSupport.filledRects(drawing, color: $0) }.filter { $0.y < bars[0].maxY }
        let start: Double = ranges.map { $0.x }.min() ?? 0
        let end: Double = ranges.map { $0.maxX }.max() ?? 0
        let length = end - start
        // HbA1c: a 4–10 scale; 7.4 is 57 % of it, the target 7 is 50 %.
        XCTAssertEqual(bars[0].width / length, (7.4 - 4) / 6, accuracy: 0.002)
        XCTAssertEqual((ticks[0].midX - start) / length, (7.0 - 4) / 6, accuracy: 0.002)
        let spans: [Double] = ranges.sorted { $0.x < $1.x }.map { ($0.width / length * 6).rounded() }
        XCTAssertEqual(spans, [3, 1, 2])
    }

    /// The description says each measure's value against its target, which side, and the range it is
    /// in; the data table has a row per measure.
    func testTheDescriptionAndDataTableSayTargetSideAndRange() throws {
        let chart = try chart(bullet)
        XCTAssertEqual(
            ChartDescription.describe(chart, strings: .english),
            "Bullet chart, Plan. HbA1c 7.4% against a target of 7.0%, above the target, in the range above (7.0–\u{2060}8.0%). "
                + "Steps 6,000\u{A0}steps against a target of 8,000\u{A0}steps, below the target, in the range 5,000–\u{2060}8,000\u{A0}steps."
        )
        XCTAssertEqual(
            ChartDescription.describe(chart, strings: .forLanguage("fr")),
            "Graphique à puces, Plan. HbA1c 7,4% pour un objectif de 7,0%, au-dessus de l’objectif, dans la plage above (7,0–\u{2060}8,0%). "
                + "Steps 6\u{202F}000\u{A0}steps pour un objectif de 8\u{202F}000\u{A0}steps, en dessous de l’objectif, dans la plage 5\u{202F}000–\u{2060}8\u{202F}000\u{A0}steps."
        )
        let table = ChartDataTable(chart, strings: .english)
        XCTAssertEqual(table.header, ["Measure", "Value", "Target", "Ranges"])
        XCTAssertEqual(
            table.rows.first,
            ["HbA1c", "7.4%", "7.0%", "on target (4.0–\u{2060}7.0%); above (7.0–\u{2060}8.0%); well above (8.0–\u{2060}10.0%)"])
        let gauge = try self.chart("  - {type: chart, kind: gauge, measures: [{title: Pain, value: 3, target: 3, bands: [3, 7, 10]}]}")
        XCTAssertEqual(
            ChartDescription.describe(gauge, strings: .english),
            "Gauge. Pain 3 against a target of 3, on the target, in the range 0–\u{2060}3.")
    }

    /// Ranges out of order, names that do not match them, a value below the scale and numbers that
    /// are not finite are one line naming the field.
    func testBadMeasuresNameTheField() throws {
        func error(_ measure: String) -> String {
            do {
                _ = try chart("  - {type: chart, kind: bullet, measures: [\(measure)]}")
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(error("{title: A, value: 1, bands: [5, 3]}"), "elements[0].measures[0].bands[1]: the ranges' ends must increase")
        XCTAssertEqual(
            error("{title: A, value: 1, bands: [5], bandLabels: [a, b]}"), "elements[0].measures[0].bandLabels: has 2 names for 1 ranges")
        XCTAssertEqual(error("{title: A, value: 1, low: 2}"), "elements[0].measures[0].low: the scale starts above the value")
        XCTAssertEqual(error("{title: A, value: .nan}"), "elements[0].measures[0].value: must be a finite number between -1e15 and 1e15")
        XCTAssertEqual(error("{title: A}"), "elements[0].measures[0].value: is required")
    }
}
