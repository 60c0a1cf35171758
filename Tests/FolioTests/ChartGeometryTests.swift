import FolioLayout
import FolioPDF
import FolioPango
import Foundation
import XCTest

@testable import Folio
@testable import FolioCharts
@testable import FolioHTML
@testable import FolioTemplate

/// A measurer with fixed advances, so geometry is predictable.
final class FixedMeasurer: TextMeasurer {
    func measure(_ text: String, font: FontSpec) -> TextMetrics {
        TextMetrics(width: Double(text.count) * font.size * 0.6, height: font.size * 1.2, baseline: font.size * 0.95)
    }
}

final class ChartGeometryTests: XCTestCase {
    private let pain = Color(parsing: "#E5484D") ?? .black
    private let adherence = Color(parsing: "#3E63DD") ?? .black

    private func sampleChart(orientation: BarChart.Orientation = .vertical) -> Chart {
        .bar(
            BarChart(
                categories: ["Mon", "Tue", "Wed", "Thu"],
                series: [
                    ChartSeries(title: "Pain", values: [3, 5, 1, 8], tint: pain),
                    ChartSeries(title: "Adherence", values: [6.5, 2, 9.4, 0], tint: adherence),
                ],
                orientation: orientation),
            title: "Pain", xAxis: ChartAxis(title: "Day"), yAxis: ChartAxis(title: "Score"))
    }

    /// Filled rectangles of `color`, in drawing order, without the legend's swatch (drawn last).
    private func bars(_ drawing: Drawing, color: Color) -> [Rect] {
        Array(allRects(drawing, color: color).dropLast())
    }

    private func allRects(_ drawing: Drawing, color: Color) -> [Rect] { TestSupport.filledRects(drawing, color: color) }

    private func texts(_ drawing: Drawing) -> [TextItem] {
        drawing.commands.compactMap { if case .text(let item) = $0 { return item } else { return nil } }
    }

    /// A threshold's label keeps clear of the data where there is room (it used to sit at the plot's
    /// right end over whatever was drawn there): a bar reaching the line on the last day, a line
    /// peaking at its right end, a capsule up to the line on the last day, at a wide and a narrow width.
    func testThresholdLabelsKeepClearOfTheData() throws {
        let days = "[Mon, Tue, Wed, Thu, Fri, Sat, Sun]"
        let yaml = """
            elements:
              - {type: chart, kind: bar, title: Steps, categories: \(days), thresholds: [{kind: greaterThan, value: 10000, label: Goal 10000}],
                 series: [{title: Steps, values: [3000, 4000, 5000, 6000, 7000, 8000, 10000], tint: "#3E63DD"}]}
              - {type: chart, kind: line, title: Glucose, x: \(days), interpolation: linear, thresholds: [{kind: greaterThan, value: 180, label: Above 180 mg/dL}],
                 plots: [{title: Glucose, values: [114, 161, 103, 128, 110, 150, 180], tint: "#C08000"}]}
              - {type: chart, kind: line, title: Glucose high early, x: \(days), interpolation: linear,
                 thresholds: [{kind: greaterThan, value: 180, label: Above 180 mg/dL}],
                 plots: [{title: Glucose, values: [180, 161, 103, 128, 110, 150, 180], tint: "#C08000"}]}
              - {type: chart, kind: range, title: Blood pressure, categories: \(days), thresholds: [{kind: greaterThan, value: 140, label: Systolic 140}],
                 plots: [{title: BP, values: [[88, 132], [73, 136], [86, 135], [79, 135], [93, 125], [87, 131], [82, 140]], tint: "#8E4EC6"}]}
            """
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        func points(_ path: Path) -> [Point] {
            path.elements.compactMap { element in
                switch element {
                case .move(let point), .line(let point): return point
                case .curve(_, _, let point): return point
                default: return nil
                }
            }
        }
        var checked = 0
        for block in document.elements {
            guard case .chart(let chart) = block, let threshold = chart.thresholds.first, let label = threshold.label else { continue }
            let tints = ["Steps": "#3E63DD", "Glucose": "#C08000", "Glucose high early": "#C08000", "Blood pressure": "#8E4EC6"]
            let tint = try XCTUnwrap(Color(parsing: tints[chart.title ?? ""] ?? ""))
            for width in [420.0, 260.0] {
                let drawing = ChartRenderer(measurer: FixedMeasurer()).drawing(for: chart, width: width)
                let item = try XCTUnwrap(texts(drawing).first { $0.text == label }, "\(chart.title ?? "") has no threshold label")
                let area = item.frame
                for command in drawing.commands {
                    switch command {
                    case .rect(let rect, let color) where color == tint:
                        // The legend's swatch sits outside the plot.
                        XCTAssertFalse(rect.intersects(area), "\(chart.title ?? "") at \(width): the label covers a bar at \(rect)")
                    case .fill(let path, let color) where color == tint:
                        let corners = points(path)
                        guard let minX = corners.map(\.x).min(), let maxX = corners.map(\.x).max(),
                            let minY = corners.map(\.y).min(), let maxY = corners.map(\.y).max()
                        else { continue }
                        let bounds = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
                        XCTAssertFalse(bounds.intersects(area), "\(chart.title ?? "") at \(width): the label covers a mark at \(bounds)")
                    case .stroke(let path, let style) where style.color == tint:
                        let line = points(path)
                        for (a, b) in zip(line, line.dropFirst()) {
                            XCTAssertFalse(
                                PlotMarks.segment(a, b, crosses: area),
                                "\(chart.title ?? "") at \(width): the label crosses the line \(a)–\(b)")
                        }
                    default: continue
                    }
                }
                checked += 1
            }
        }
        XCTAssertEqual(checked, 8)
    }

    func testNiceTicksAreOneTwoOrFiveTimesAPowerOfTen() {
        XCTAssertEqual(NiceScale(low: 0, high: 7.3).ticks, [0, 2, 4, 6, 8])
        XCTAssertEqual(NiceScale(low: 0, high: 10).ticks, [0, 2, 4, 6, 8, 10])
        XCTAssertEqual(NiceScale(low: -3, high: 7).ticks, [-4, -2, 0, 2, 4, 6, 8])
        XCTAssertEqual(NiceScale(low: 0, high: 55_037).step, 20_000)
        XCTAssertEqual(NiceScale(low: 0, high: 0.07).step, 0.02, accuracy: 1e-12)
        XCTAssertEqual(NiceScale(low: 0, high: 0).ticks, [0, 0.2, 0.4, 0.6, 0.8, 1])
        for high in [0.3, 1.0, 7.0, 13.0, 99.0, 420.0, 12_345.0] {
            let step = NiceScale(low: 0, high: high).step
            let mantissa = step / pow(10, floor(log10(step)))
            XCTAssertTrue([1, 2, 5].contains(mantissa.rounded()), "step \(step) for \(high)")
            XCTAssertGreaterThanOrEqual(NiceScale(low: 0, high: high).upper, high)
        }
    }

    func testTheTopValueHasRoomAboveItUnlessTheAuthorSetTheEnd() {
        // 400 on a 0…400 axis ran along the frame: the axis goes a step higher (#42).
        let dose = AxisScale(low: 0, high: 400, axis: ChartAxis(tickInterval: 100), includeZero: true)
        XCTAssertEqual(dose.ticks.last, 500)
        XCTAssertEqual(AxisScale(low: 0, high: 10, axis: ChartAxis(), includeZero: true).ticks.last, 12)
        // Below a lowest value that is not zero too (4.0 mmol/L on the bottom edge).
        XCTAssertEqual(AxisScale(low: 4, high: 9.5, axis: ChartAxis(), includeZero: false).ticks.first, 2)
        // Not where the value is well inside, nor where the author set the end or clips.
        XCTAssertEqual(AxisScale(low: 0, high: 7.3, axis: ChartAxis(), includeZero: true).ticks.last, 8)
        XCTAssertEqual(AxisScale(low: 0, high: 10, axis: ChartAxis(max: 10), includeZero: true).ticks.last, 10)
        XCTAssertEqual(AxisScale(low: 0, high: 10, axis: ChartAxis(max: 10, clip: true), includeZero: true).upper, 10)
        // An x axis ends at its last point (a day, a reading): no empty step after it.
        XCTAssertEqual(AxisScale(low: 1, high: 10, axis: ChartAxis(), includeZero: false, headroom: false).ticks.last, 10)
        // A zero baseline gets none: all-negative bars end at 0.
        XCTAssertEqual(AxisScale(low: -4, high: 0, axis: ChartAxis(), includeZero: true).ticks.last, 0)
    }

    func testVerticalBarHeightsAreProportionalToValues() throws {
        let drawing = ChartRenderer(measurer: FixedMeasurer()).drawing(for: sampleChart(), width: 400)
        let painBars = bars(drawing, color: pain)
        let adherenceBars = bars(drawing, color: adherence)
        XCTAssertEqual(painBars.count, 4)
        XCTAssertEqual(adherenceBars.count, 4)
        // Scale 0…10: 8 is 0.8 of the plot, 1 is 0.1; every bar stands on the same baseline.
        let unit = painBars[3].height / 8
        XCTAssertGreaterThan(unit, 0)
        for (bar, value) in zip(painBars + adherenceBars, [3, 5, 1, 8, 6.5, 2, 9.4, 0]) {
            XCTAssertEqual(bar.height, value * unit, accuracy: 1e-9)
            XCTAssertEqual(bar.maxY, painBars[0].maxY, accuracy: 1e-9)
        }
        // Bars of one group sit side by side, groups left to right.
        XCTAssertLessThan(painBars[0].maxX, adherenceBars[0].x + 1e-9)
        XCTAssertLessThan(adherenceBars[0].maxX, painBars[1].x)
    }

    func testNegativeValuesHangBelowTheBaseline() {
        let chart = Chart.bar(BarChart(categories: ["a", "b"], series: [ChartSeries(title: "Δ", values: [4, -2], tint: pain)]))
        let rects = bars(ChartRenderer(measurer: FixedMeasurer()).drawing(for: chart, width: 300), color: pain)
        XCTAssertEqual(rects.count, 2)
        XCTAssertEqual(rects[0].maxY, rects[1].y, accuracy: 1e-9, "both start at zero")
        XCTAssertEqual(rects[0].height / rects[1].height, 2, accuracy: 1e-9)
    }

    func testHorizontalBarsRunFromTheSameEdge() {
        let drawing = ChartRenderer(measurer: FixedMeasurer()).drawing(for: sampleChart(orientation: .horizontal), width: 400)
        let rows = bars(drawing, color: pain)
        XCTAssertEqual(rows.count, 4)
        XCTAssertEqual(rows[1].width / rows[0].width, 5.0 / 3.0, accuracy: 1e-9)
        XCTAssertTrue(rows.allSatisfy { abs($0.x - rows[0].x) < 1e-9 })
        XCTAssertTrue(zip(rows, rows.dropFirst()).allSatisfy { $0.y < $1.y })
    }

    func testLabelsDoNotOverlap() throws {
        for orientation in [BarChart.Orientation.vertical, .horizontal] {
            let drawing = ChartRenderer(measurer: PangoTextEngine()).drawing(for: sampleChart(orientation: orientation), width: 420)
            let frames = texts(drawing).filter { $0.rotation == 0 }.map(\.frame)
            for (i, a) in frames.enumerated() {
                for b in frames[(i + 1)...] {
                    XCTAssertFalse(a.insetBy(dx: 0.5, dy: 0.5).intersects(b.insetBy(dx: 0.5, dy: 0.5)), "\(a) overlaps \(b)")
                }
                XCTAssertGreaterThanOrEqual(a.x, -0.01)
                XCTAssertLessThanOrEqual(a.maxX, 420.01)
                XCTAssertLessThanOrEqual(a.maxY, drawing.size.height + 0.01)
            }
        }
    }

    func testManyCategoriesAreThinnedInsteadOfOverlapping() {
        let categories = (1...60).map { "Day \($0)" }
        let chart = Chart.bar(
            BarChart(
                categories: categories, series: [ChartSeries(title: "x", values: categories.map { _ in 1 })],
                valueLabels: false))
        let drawing = ChartRenderer(measurer: FixedMeasurer()).drawing(for: chart, width: 400)
        let labels = texts(drawing).filter { $0.text.hasPrefix("Day ") }
        XCTAssertLessThan(labels.count, 60)
        XCTAssertGreaterThan(labels.count, 3)
        for (a, b) in zip(labels, labels.dropFirst()) { XCTAssertLessThan(a.frame.maxX, b.frame.x) }
    }

    func testTheSameCommandsReachSVGAndRecordingCanvases() throws {
        let drawing = ChartRenderer(measurer: PangoTextEngine()).drawing(for: sampleChart(), width: 420)
        let recorder = RecordingCanvas()
        drawing.replay(on: recorder)
        XCTAssertEqual(recorder.commands, drawing.commands)

        let svg = SVGCanvas()
        drawing.replay(on: svg)
        func count(_ matches: (Drawing.Command) -> Bool) -> Int { drawing.commands.filter(matches).count }
        let fills = count { if case .fill = $0 { return true } else { return false } }
        let strokes = count { if case .stroke = $0 { return true } else { return false } }
        let lines = count { if case .line = $0 { return true } else { return false } }
        let rects = count { if case .rect = $0 { return true } else { return false } }
        let arcs = count { if case .arc = $0 { return true } else { return false } }
        let counts = (fills: fills, strokes: strokes + lines + arcs, texts: texts(drawing).count)
        // Each primitive is drawn natively: bars as <rect>, axes and gridlines as <line>.
        XCTAssertGreaterThan(rects, 0)
        XCTAssertGreaterThan(lines, 0)
        XCTAssertEqual(svg.markup.components(separatedBy: "<rect ").count - 1, rects)
        XCTAssertEqual(svg.markup.components(separatedBy: "<line ").count - 1, lines)
        XCTAssertEqual(svg.markup.components(separatedBy: "fill=\"none\"").count - 1, counts.strokes)
        XCTAssertEqual(svg.markup.components(separatedBy: "<path d=").count - 1, fills + strokes + arcs)
        XCTAssertEqual(svg.markup.components(separatedBy: "<text ").count - 1, counts.texts)
        // A bar of value 8 in the SVG has the height the layout gave it.
        let bar = try XCTUnwrap(bars(drawing, color: pain).last)
        XCTAssertTrue(
            svg.markup.contains(
                "<rect x=\"\(SVGCanvas.number(bar.x))\" y=\"\(SVGCanvas.number(bar.y))\" width=\"\(SVGCanvas.number(bar.width))\" height=\"\(SVGCanvas.number(bar.height))\""
            ))
    }

    func testDescriptionSummarisesTheData() {
        let description = ChartRenderer(measurer: FixedMeasurer()).drawing(for: sampleChart(), width: 400).description
        XCTAssertEqual(
            description,
            "Bar chart, Pain, 4 categories, from Mon to Thu. Pain: lowest value 1 (Wed), highest value 8 (Thu). Adherence: lowest value 0.0 (Thu), highest value 9.4 (Wed)."
        )
    }

    func testSVGNumbersHaveTwoDecimalsAtMost() {
        XCTAssertEqual(
            [0, -0.004, 2.5, 2.05, -3.1, 100, 0.999, 1e20].map(SVGCanvas.number),
            ["0", "0", "2.5", "2.05", "-3.1", "100", "1", "0"])
    }

    func testSVGArcsMatchTheirAngles() {
        var path = Path()
        path.arc(center: Point(50, 50), radius: 10, start: 0, end: .pi / 2)
        XCTAssertEqual(SVGCanvas.pathData(path).markup, "M60 50A10 10 0 0 1 50 60")
        XCTAssertEqual(SVGCanvas.pathData(.circle(center: Point(0, 0), radius: 5)).markup, "M5 0A5 5 0 0 1 -5 0A5 5 0 0 1 5 0Z")
    }
}
