import FolioGraphics
import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Notes at points of bar, line and scatter charts (#44): drawn with a pointer at the point they name
/// (its category, x or date, and its value), said after the description, refused in one line where
/// they name no point.
final class ChartAnnotationTests: XCTestCase {
    private func chart(_ yaml: String) throws -> Chart {
        let document = try DocumentDecoder.decode(Data("title: T\nelements:\n\(yaml)".utf8), format: .yaml)
        guard case .chart(let chart)? = document.elements.first else { throw FixtureError("the fixture holds no chart first") }
        return chart
    }

    private let line = """
          - type: chart
            kind: line
            title: Glucose
            x: ["2026-11-01", "2026-11-02", "2026-11-03"]
            plots: [{title: G, values: [8.1, 7.4, 6.9]}]
            annotations: [{at: "2026-11-02", text: Started metformin}]
        """

    /// The note's ring is centred on the value it names: the plot's point at that date.
    func testTheNotePointsAtItsPoint() throws {
        let chart = try chart(line)
        let at = try XCTUnwrap(chart.annotationPoint(chart.annotations[0]))
        XCTAssertEqual(at.y, 7.4)
        let drawing = ChartRenderer(measurer: FixedMeasurer(), theme: .standard).drawing(for: chart, width: 400)
        let rings = TestSupport.strokes(drawing).filter { $0.1.color == Theme.standard.text && abs($0.1.width - 1.2) < 0.01 }
        XCTAssertEqual(rings.count, 1)
        // The ring's centre is the middle x of three dates; its height between 8.1's and 6.9's.
        var xs: [Double] = []
        var ys: [Double] = []
        for element in rings[0].0.elements {
            if case .arc(let center, _, _, _) = element {
                xs.append(center.x)
                ys.append(center.y)
            }
        }
        // The plot's line passes through three points; the ring is centred on the middle one.
        let plotLine = TestSupport.strokes(drawing).first { $0.1.color == Theme.standard.seriesColor(0) }
        var points: [Point] = []
        for element in plotLine?.0.elements ?? [] {
            switch element {
            case .move(let point), .line(let point): points.append(point)
            default: continue
            }
        }
        XCTAssertEqual(points.count, 3)
        let middle = try XCTUnwrap(points.count == 3 ? points[1] : nil)
        XCTAssertEqual(xs.first ?? -1, middle.x, accuracy: 0.01)
        XCTAssertEqual(ys.first ?? -1, middle.y, accuracy: 0.01)
        XCTAssertTrue(drawing.commands.contains { if case .text(let item) = $0 { item.text == "Started metformin" } else { false } })
        XCTAssertEqual(
            ChartDescription.describe(chart, strings: .english).components(separatedBy: ". Notes: ").last,
            "Started metformin at Nov 2, 2026.")
    }

    func testANoteNamingNoPointIsOneLine() throws {
        XCTAssertThrowsError(try chart(line.replacingOccurrences(of: "2026-11-02\", text", with: "2026-12-02\", text"))) {
            XCTAssertEqual(
                "\($0)",
                "elements[0].annotations[0].at: no point of the chart is at \"2026-12-02\": name a category, x value or date it has a value at, or give y"
            )
        }
        XCTAssertThrowsError(
            try chart("  - {type: chart, kind: pie, segments: [{title: A, value: 1}], annotations: [{at: A, text: t}]}")
        ) {
            XCTAssertEqual("\($0)", "elements[0].annotations: notes point at points of bar, line and scatter charts")
        }
        XCTAssertThrowsError(
            try chart(
                "  - {type: chart, kind: bar, categories: [A], series: [{title: S, values: [1]}], annotations: [{at: A, text: t, series: X}]}"
            )
        ) {
            XCTAssertEqual("\($0)", "elements[0].annotations[0].series: no series is titled \"X\"")
        }
    }
}
