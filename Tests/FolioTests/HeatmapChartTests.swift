import FolioGraphics
import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Calendar heatmaps (#44): a square per day in its weekday's row and its week's column, shaded by
/// its value; missed days crossed and days without data open (never colour alone); the description
/// names the days missed and the days without data.
final class HeatmapChartTests: XCTestCase {
    private func chart(_ days: String, extra: String = "missedAt: 0, low: 0, high: 1") throws -> Chart {
        let yaml = "title: T\nelements:\n  - {type: chart, kind: heatmap, title: Doses, \(extra), days: [\(days)]}\n"
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        guard case .chart(let chart)? = document.elements.first else { throw FixtureError("the fixture holds no chart first") }
        return chart
    }

    // Thursday 1 October to Tuesday 6 October 2026: the 3rd without data, the 6th missed.
    private let days = """
        {date: "2026-10-01", value: 1}, {date: "2026-10-02", value: 0.5}, {date: "2026-10-03"}, {date: "2026-10-04", value: 1},
        {date: "2026-10-05", value: 1}, {date: "2026-10-06", value: 0}
        """

    func testTheDescriptionNamesTheDaysMissedAndWithoutData() throws {
        let chart = try chart(days, extra: "missedAt: 0, low: 0, high: 1, yAxis: {format: percent}")
        XCTAssertEqual(
            ChartDescription.describe(chart, strings: .english),
            "Calendar heatmap, Doses. 6 days from Oct 1 to Oct 6, 2026. 1 missed: Oct 6; 1 without data: Oct 3; mean 70%.")
        let table = ChartDataTable(chart, strings: .english)
        XCTAssertEqual(table.rows.count, 6)
        XCTAssertEqual(table.rows[2], ["Sat, Oct 3, 2026", "No data"])
        XCTAssertEqual(table.rows[5], ["Tue, Oct 6, 2026", "0% (Missed)"])
        // Every missed day is named; "none missed" when there are none.
        let none = try self.chart(#"{date: "2026-10-01", value: 1}"#)
        XCTAssertTrue(ChartDescription.describe(none, strings: .english).contains("none missed"))
        XCTAssertTrue(ChartDescription.describe(chart, strings: .forLanguage("fr")).contains("1 manqué : 6 oct."))
    }

    /// Each day's square is in its weekday's row (Monday first) and its week's column; the value's
    /// shade darkens with it; the missed day carries a cross, the day without data is an open square.
    func testEachDayIsInItsWeekdaysRowAndMarkedByShapeNotColourAlone() throws {
        let chart = try chart(days)
        let drawing = ChartRenderer(measurer: FixedMeasurer(), theme: .standard).drawing(for: chart, width: 400)
        var squares: [(rect: Rect, color: Color)] = []
        for command in drawing.commands {
            if case .fill(let path, let color) = command, let rect = Self.bounds(path), abs(rect.width - rect.height) < 0.01,
                rect.width > 12
            {
                squares.append((rect, color))
            }
        }
        // Five days with values: Thursday to Sunday in the first week's column, Monday and Tuesday in the next.
        XCTAssertEqual(squares.count, 5, "\(squares)")
        let columns = Set(squares.map { ($0.rect.x * 100).rounded() })
        XCTAssertEqual(columns.count, 2)
        // In drawing order: Thursday, Friday, Sunday (Saturday has no data), then Monday, Tuesday.
        let cell = squares[1].rect.y - squares[0].rect.y
        let monday = squares[3].rect.y
        XCTAssertEqual(squares.map { (($0.rect.y - monday) / cell).rounded() }, [3, 4, 6, 0, 1])
        // 1.0 is darker than 0.5.
        XCTAssertLessThan(squares[0].color.luminance, squares[1].color.luminance)
        let crosses = drawing.commands.filter {
            if case .line(_, _, let style) = $0 { style.color == Theme.standard.threshold } else { false }
        }
        XCTAssertEqual(crosses.count, 2 + 2, "the missed day's cross and the key's")
        let open = drawing.commands.filter { if case .stroke(_, let style) = $0 { style.color == Theme.standard.axis } else { false } }
        XCTAssertEqual(open.count, 1 + 1, "the day without data and the key's square")
    }

    /// The box around a path's points.
    private static func bounds(_ path: Path) -> Rect? {
        var points: [Point] = []
        for element in path.elements {
            switch element {
            case .move(let point), .line(let point): points.append(point)
            default: continue
            }
        }
        guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(), let minY = points.map(\.y).min(),
            let maxY = points.map(\.y).max()
        else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    func testBadDaysNameTheField() throws {
        XCTAssertThrowsError(try chart(#"{date: "2026-13-01", value: 1}"#)) {
            XCTAssertEqual("\($0)", "elements[0].days[0].date: expected a day such as 2026-11-14")
        }
        XCTAssertThrowsError(try chart(#"{date: "2016-01-01", value: 1}, {date: "2026-12-31", value: 1}"#)) {
            XCTAssertEqual("\($0)", "elements[0].days: spans more than ten years; a heatmap shows at most ten")
        }
        XCTAssertThrowsError(try chart(#"{date: "2026-01-01", value: 1}"#, extra: "low: 1, high: 0")) {
            XCTAssertEqual("\($0)", "elements[0].high: must be greater than low")
        }
    }
}
