import FolioLayout
import FolioPDF
import FolioPango
import Foundation
import XCTest

@testable import Folio
@testable import FolioCharts
@testable import FolioHTML
@testable import FolioTemplate

/// Geometry of the pie, ring, line and range families, and their handling of bad or empty data.
final class ChartFamiliesTests: XCTestCase {
    private let renderer = ChartRenderer(measurer: FixedMeasurer(), strings: .english)

    private func texts(_ drawing: Drawing) -> [TextItem] {
        drawing.commands.compactMap { if case .text(let item) = $0 { return item } else { return nil } }
    }

    private func strokes(_ drawing: Drawing) -> [(Path, StrokeStyle)] { TestSupport.strokes(drawing) }

    // MARK: pie

    func testPieAnglesSumToAFullTurnInProportion() {
        let pie = PieChart(segments: [
            ChartSegment(title: "a", value: 60), ChartSegment(title: "b", value: 0),
            ChartSegment(title: "c", value: 25), ChartSegment(title: "d", value: 15),
        ])
        let layout = PieChartLayout(chart: Chart(.pie(pie)), pie: pie, context: ChartContext(measurer: FixedMeasurer(), theme: .standard))
        let angles = layout.angles()
        XCTAssertEqual(angles.reduce(0) { $0 + ($1.end - $1.start) }, 2 * .pi, accuracy: 1e-12)
        XCTAssertEqual(angles[0].start, -.pi / 2, accuracy: 1e-12, "starts at 12 o'clock")
        XCTAssertEqual(angles[0].end - angles[0].start, 2 * .pi * 0.60, accuracy: 1e-12)
        XCTAssertEqual(angles[1].end - angles[1].start, 0, "a zero segment has no slice")
        for (a, b) in zip(angles, angles.dropFirst()) { XCTAssertEqual(a.end, b.start, accuracy: 1e-12) }

        var counter = pie
        counter.clockwise = false
        let reversed = PieChartLayout(
            chart: Chart(.pie(counter)), pie: counter,
            context: ChartContext(measurer: FixedMeasurer(), theme: .standard)
        ).angles()
        XCTAssertEqual(reversed[0].end - reversed[0].start, -2 * .pi * 0.60, accuracy: 1e-12)
    }

    func testPercentagesAddUpToOneHundred() {
        XCTAssertEqual(PieChartLayout.percentages([1, 1, 1]), [34, 33, 33])
        XCTAssertEqual(PieChartLayout.percentages([60, 25, 15]), [60, 25, 15])
        XCTAssertEqual(PieChartLayout.percentages([0, 0]), [0, 0])
        XCTAssertEqual(PieChartLayout.percentages([40, 30, 2, 1.5, 1, 1, 12]).reduce(0, +), 100)
    }

    func testPieLabelsNeverOverlapEvenForManySmallSlices() {
        let values: [Double] = [40, 30, 2, 1.5, 1, 1, 0.5, 0.5, 12]
        let chart = Chart(
            .pie(
                PieChart(
                    segments: values.enumerated().map { ChartSegment(title: "s\($0.offset)", value: $0.element) },
                    donut: true)))
        let drawing = ChartRenderer(measurer: PangoTextEngine()).drawing(for: chart, width: 420)
        let labels = texts(drawing).filter { $0.text.hasSuffix("%") }
        XCTAssertEqual(labels.count, values.count)
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] { XCTAssertFalse(a.frame.intersects(b.frame), "\(a.text) overlaps \(b.text)") }
        }
    }

    func testPieWithNothingToShowSaysNoData() {
        let chart = Chart(.pie(PieChart(segments: [ChartSegment(title: "apples", value: 0), ChartSegment(title: "pears", value: 0)])))
        let drawn = texts(renderer.drawing(for: chart, width: 300)).map(\.text)
        XCTAssertTrue(drawn.contains("No data"))
        XCTAssertFalse(drawn.contains("apples") || drawn.contains("pears"), "no legend names colours drawn nowhere: \(drawn)")
        XCTAssertEqual(ChartDescription.describe(chart, strings: .english), "Pie chart: No data.")
    }

    // MARK: rings

    func testRingArcsMatchTheirValues() {
        let rings = RingChart(rings: [
            ChartSegment(title: "Move", value: 0.49), ChartSegment(title: "Exercise", value: 0.86),
            ChartSegment(title: "Stand", value: 1.25),
        ])
        let drawing = renderer.drawing(for: Chart(.rings(rings)), width: 300)
        let arcs = strokes(drawing).compactMap { path, style -> (Double, Double, Double)? in
            guard style.cap == .round, case .arc(_, let radius, let start, let end)? = path.elements.first else { return nil }
            return (radius, start, end)
        }
        // Move and Exercise: one arc each; Stand: a full turn plus the quarter that wraps over the start.
        XCTAssertEqual(arcs.count, 4)
        XCTAssertEqual(arcs[0].2 - arcs[0].1, 2 * .pi * 0.49, accuracy: 1e-9)
        XCTAssertEqual(arcs[1].2 - arcs[1].1, 2 * .pi * 0.86, accuracy: 1e-9)
        XCTAssertEqual(arcs[2].2 - arcs[2].1, 2 * .pi, accuracy: 1e-9)
        XCTAssertEqual(arcs[3].2 - arcs[3].1, 2 * .pi * 0.25, accuracy: 1e-9)
        XCTAssertTrue(arcs.allSatisfy { abs($0.1 + .pi / 2) < 1e-12 }, "every ring starts at 12 o'clock")
        XCTAssertGreaterThan(arcs[0].0, arcs[1].0, "outermost first")
        XCTAssertTrue(texts(drawing).contains { $0.text == "Stand 125%" })
    }

    // MARK: line

    func testCurvedLinesNeverOvershootTheData() {
        let values: [Double?] = [1, 9, 8.5, 2, 2, 7, 1, 10, 0]
        let chart = Chart(.line(LineChart(plots: [LinePlot(title: "x", values: values, tint: .black)], interpolation: .curved)))
        let drawing = renderer.drawing(for: chart, width: 400)
        guard let (path, _) = strokes(drawing).first(where: { $0.1.color == .black }) else { return XCTFail("no line") }
        var previous: Point?
        var curves = 0
        for element in path.elements {
            switch element {
            case .move(let p): previous = p
            case .curve(let c1, let c2, let end):
                guard let start = previous else { return XCTFail("curve without start") }
                let low = min(start.y, end.y) - 1e-9
                let high = max(start.y, end.y) + 1e-9
                XCTAssertTrue((low...high).contains(c1.y) && (low...high).contains(c2.y), "overshoot between \(start) and \(end)")
                previous = end
                curves += 1
            default: break
            }
        }
        XCTAssertEqual(curves, values.count - 1)
    }

    func testGapsAreBridgedByADashedSegment() {
        let chart = Chart(.line(LineChart(plots: [LinePlot(title: "x", values: [1, 2, nil, nil, 3, 4], tint: .black)])))
        let dashed = strokes(renderer.drawing(for: chart, width: 400)).filter { !$0.1.dash.isEmpty && $0.1.color.withAlpha(1) == .black }
        XCTAssertEqual(dashed.count, 1)
        XCTAssertEqual(dashed[0].0.elements.count, 2)
    }

    func testAHundredThousandPointsAreThinnedKeepingPeaks() {
        let count = 100_000
        var values: [Double?] = (0..<count).map { sin(Double($0) / 500) * 10 + 50 }
        values[31_337] = 400  // a one-sample spike
        values[77_777] = -300
        let chart = Chart(
            .line(LineChart(x: .numbers((0..<count).map(Double.init)), plots: [LinePlot(title: "x", values: values, tint: .black)])))
        let drawing = renderer.drawing(for: chart, width: 480)
        guard let (path, _) = strokes(drawing).first(where: { $0.1.color == .black }) else { return XCTFail("no line") }
        XCTAssertLessThan(path.elements.count, 4 * 2 * 480, "thinned to the output resolution")
        let ys = path.elements.compactMap { element -> Double? in
            switch element {
            case .move(let p), .line(let p): return p.y
            default: return nil
            }
        }
        let frame = texts(drawing).filter { $0.text == "400" || $0.text == "-300" }
        XCTAssertFalse(frame.isEmpty, "the axis reaches the peaks")
        // The highest and lowest drawn points are the spikes (y grows downwards).
        let top = ys.min() ?? 0
        let bottom = ys.max() ?? 0
        let allYs = ys.sorted()
        XCTAssertLessThan(top, allYs[1] - 50, "the 400 spike survives")
        XCTAssertGreaterThan(bottom, allYs[allYs.count - 2] + 50, "the -300 spike survives")
    }

    func testManyCategoryLabelsAreTurnedOrThinnedWithoutOverlap() {
        let names = (1...30).map { "Category \($0)" }
        let chart = Chart(.line(LineChart(x: .categories(names), plots: [LinePlot(title: "x", values: names.map { _ in 1 })])))
        let labels = texts(renderer.drawing(for: chart, width: 400)).filter { $0.text.hasPrefix("Category") }
        XCTAssertFalse(labels.isEmpty)
        XCTAssertTrue(labels.allSatisfy { $0.rotation == -45 })
        // Turned labels are parallel: they overlap only if their anchors are closer than a line height.
        for (a, b) in zip(labels, labels.dropFirst()) {
            XCTAssertGreaterThanOrEqual((b.origin.x - a.origin.x) * cos(.pi / 4), a.metrics.height - 1e-9)
        }
    }

    func testDatesOnTheXAxisGetCalendarTicks() throws {
        let yaml = """
            title: T
            elements:
              - type: chart
                kind: line
                x: [2026-11-14T06:00:00Z, 2026-11-14T12:00:00Z, 2026-11-14T18:00:00Z]
                plots: [{title: g, values: [5, 6, 7]}]
            """
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        guard case .chart(let chart) = document.elements[0] else { return XCTFail("not a chart") }
        let labels = texts(renderer.drawing(for: chart, width: 400)).map(\.text)
        XCTAssertTrue(labels.contains("06:00") && labels.contains("12:00") && labels.contains("18:00"), "\(labels)")
    }

    /// One reading alone is drawn whole in the middle of its axis, not half cut off at the edge.
    func testASingleReadingIsDrawnWholeInTheMiddle() throws {
        for x in ["[2026-11-10T08:00:00Z]", "[4]"] {
            let yaml = """
                title: T
                elements:
                  - type: chart
                    kind: line
                    x: \(x)
                    plots: [{title: g, values: [72], markers: true, tint: "#FF0000"}]
                    legend: false
                """
            let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
            guard case .chart(let chart) = document.elements[0] else { return XCTFail("not a chart") }
            let drawing = renderer.drawing(for: chart, width: 400)
            var markerXs: [Double] = []
            for command in drawing.commands {
                guard case .fill(let path, let color) = command, color == (try? Color(hex: "#FF0000")) else { continue }
                for element in path.elements {
                    switch element {
                    case .arc(let center, _, _, _): markerXs.append(center.x)
                    case .move(let point), .line(let point): markerXs.append(point.x)
                    default: break
                    }
                }
            }
            let xs = try XCTUnwrap(markerXs.isEmpty ? nil : markerXs, "\(x): no marker drawn")
            let center = (xs.min()! + xs.max()!) / 2
            XCTAssertGreaterThan(center, 400 * 0.35, "\(x): the point sits at \(center) of 400")
            XCTAssertLessThan(center, 400 * 0.75, "\(x): the point sits at \(center) of 400")
        }
    }

    func testEmptyAndDegenerateDataDrawDefinedCharts() {
        let cases: [Chart] = [
            Chart(.line(LineChart(plots: []))),
            Chart(.line(LineChart(plots: [LinePlot(title: "one", values: [5])]))),
            Chart(.line(LineChart(plots: [LinePlot(title: "unset", values: [nil, nil])]))),
            Chart(.bar(BarChart(categories: [], series: []))),
            Chart(.bar(BarChart(categories: ["a", "b"], series: [ChartSeries(title: "zeros", values: [0, 0])]))),
            Chart(.range(RangeChart(categories: ["a"], plots: [RangePlot(title: "empty", values: [[]])]))),
            Chart(.rings(RingChart(rings: []))),
        ]
        for chart in cases {
            let drawing = renderer.drawing(for: chart, width: 300)
            XCTAssertGreaterThan(drawing.size.height, 0)
            XCTAssertFalse(drawing.description.isEmpty)
            for command in drawing.commands {
                if case .text(let item) = command { XCTAssertTrue(item.origin.x.isFinite && item.origin.y.isFinite) }
            }
            // Both backends accept it.
            XCTAssertNoThrow(try Document(title: "T", elements: [.chart(chart)]).pdf())
        }
        XCTAssertTrue(texts(renderer.drawing(for: cases[0], width: 300)).contains { $0.text == "No data" })
        XCTAssertTrue(texts(renderer.drawing(for: cases[3], width: 300)).contains { $0.text == "No data" })
    }

    // MARK: range

    func testRangesSpanFromLowToHigh() {
        let chart = Chart(
            yAxis: ChartAxis(min: 0, max: 10),
            .range(
                RangeChart(
                    categories: ["a", "b"],
                    plots: [RangePlot(title: "s", values: [[2, 8], [5]], tint: .black)])))
        let drawing = renderer.drawing(for: chart, width: 300)
        // The low–high bar is a filled capsule 6 pt wide; its end arcs are centred on the low and high values.
        let bars = drawing.commands.compactMap { command -> [Point]? in
            guard case .fill(let path, let color) = command, color == .black else { return nil }
            let centers = path.elements.compactMap { element -> Point? in
                if case .arc(let center, let radius, _, _) = element, radius == 3 { return center } else { return nil }
            }
            return centers.count == 4 ? centers : nil
        }
        XCTAssertEqual(bars.count, 1)
        guard let centers = bars.first, let top = centers.min(by: { $0.y < $1.y }), let bottom = centers.max(by: { $0.y < $1.y })
        else {
            return XCTFail("no range bar")
        }
        let xs = centers.map(\.x)
        XCTAssertEqual((xs.max() ?? 1) - (xs.min() ?? 0), 0, "a bar 6 pt wide is its two radii")
        let (a, b) = (top, bottom)
        // 2…8 of a 0…10 axis: the bar is 60 % of the distance between the 0 and 10 grid lines.
        // The gridlines are one path (each `move` starts one), the baseline its own.
        let grid = strokes(drawing).filter { $0.1.width == 0.5 || $0.1.width == 0.8 }.flatMap { path, _ -> [Double] in
            path.elements.compactMap { if case .move(let p) = $0 { return p.y } else { return nil } }
        }
        let span = (grid.max() ?? 0) - (grid.min() ?? 0)
        XCTAssertEqual(abs(a.y - b.y) / span, 0.6, accuracy: 1e-9)
    }

    // MARK: shared

    func testGalleryRendersToBothBackendsWithAllItsText() throws {
        let url = TestSupport.samples.appendingPathComponent("charts.yaml")
        let document = try DocumentDecoder.decode(try Data(contentsOf: url), format: .yaml)
        let pdf = try document.pdf(options: RenderOptions(baseDirectory: TestSupport.samples))
        let file = try TestSupport.temporaryFile(pdf, name: "charts.pdf")
        XCTAssertEqual(try TestSupport.run("qpdf", ["--check", file.path]).status, 0)
        let text = TestSupport.normalized(try TestSupport.pageTexts(pdf).joined(separator: " "))
        let html = try document.html(options: RenderOptions(baseDirectory: TestSupport.samples))
        for case .chart(let chart) in document.elements {
            for string in TestSupport.visibleStrings(of: chart) {
                XCTAssertTrue(text.contains(TestSupport.normalized(string)), "PDF lacks \(string)")
                XCTAssertTrue(html.contains(MarkupEscaping.escape(string)), "HTML lacks \(string)")
            }
            XCTAssertTrue(html.contains(MarkupEscaping.escape(ChartDescription.describe(chart, strings: .english))))
        }
        XCTAssertTrue(html.contains("<details class=\"folio-chart-data\"><summary>Data</summary>"))
    }

    func testDescriptionsNameUnitsAndThresholdCrossings() throws {
        // The unit from the axis's `unit`, a series title's "(kg)" or a unit-like axis title; each
        // highlighting threshold with the values beyond it and where (#42).
        let yaml = """
            elements:
              - type: chart
                kind: line
                title: Glucose
                x: [Mon, Tue, Wed, Thu, Fri]
                plots: [{title: Glucose, values: [5.2, 11.4, 6.1, 12.0, 3.6]}]
                yAxis: {title: Blood glucose, unit: mmol/L}
                thresholds: [{value: 10, label: High}, {kind: lessThan, value: 4}]
              - type: chart
                kind: bar
                categories: [Jan, Feb, Mar]
                series: [{title: Weight change (kg), values: [1.5, -0.5, -2]}]
                thresholds: [{kind: range, value: -1, upper: 1, label: Steady}]
              - type: chart
                kind: bar
                categories: [Mon, Tue]
                series: [{title: Score, values: [3, 9]}]
                yAxis: {title: Score (0–10)}
                thresholds: [{value: 8, label: Pain above 8}]
            """
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let described = TestSupport.charts(of: document).map {
            ChartDescription.describe($0, strings: .english).replacingOccurrences(of: "\u{00A0}", with: " ")
        }
        XCTAssertEqual(
            described[0],
            "Line chart, Glucose, 5 points from Mon to Fri. Glucose: lowest value 3.6 mmol/L (at Fri), highest value 12.0 mmol/L (at Thu). "
                + "High, above 10 mmol/L: 2 values (at Tue, Thu). Below 4 mmol/L: 1 value (at Fri).")
        XCTAssertEqual(
            described[1],
            "Bar chart, 3 categories, from Jan to Mar. Weight change (kg): lowest value -2.0 kg (Mar), highest value 1.5 kg (Jan). "
                + "Steady, outside -1–1 kg: 2 values (Jan, Mar).")
        // "(0–10)" is a range, not a unit; a label that says its value is not repeated.
        XCTAssertEqual(
            described[2],
            "Bar chart, 2 categories, from Mon to Tue. Score: lowest value 3 (Mon), highest value 9 (Tue). Pain above 8: 1 value (Tue).")
        // French: its words, its decimal comma, no doubled stop after an abbreviation.
        let french = ChartDescription.describe(TestSupport.charts(of: document)[0], strings: .french)
        XCTAssertTrue(french.contains("High, au-dessus de 10\u{00A0}mmol/L : 2 valeurs"), french)
        XCTAssertTrue(french.contains("3,6\u{00A0}mmol/L"), french)
    }

    func testDescriptionsSummariseEachFamily() throws {
        let document = try TestSupport.sampleDocument()
        let descriptions = TestSupport.charts(of: document).map { ChartDescription.describe($0, strings: .english) }
        XCTAssertEqual(
            descriptions,
            [
                "Bar chart, Pain and medication adherence by day, 7 categories, from Mon to Sun. Pain: lowest value 1 (Wed, Fri, Sun), highest value 7 (Sat). Medication adherence: lowest value 3.1 (Fri), highest value 9.4 (Wed).",
                "Line chart, Heart rate during the Saturday session, 300 points from 0 to 2990. Expected: lowest value 70.0\u{00A0}bpm (at 0), highest value 130.0\u{00A0}bpm (at 1760, 1770, 1780, …). Actual: lowest value 67.5\u{00A0}bpm (at 2970), highest value 139.7\u{00A0}bpm (at 1590).",
                "Pie chart, Share of activity. Steps taken 60%, Tasks completed 25%, Surveys completed 15%.",
                "Ring chart, Activity rings. Move 49%, Exercise 86%, Stand 15%.",
                "Range chart, Daily stress, low to high, 7 categories, from Mon to Sun. Stress: lowest value 1, highest value 8.",
            ])
    }
}

/// A chart's own "No data" text (CareKit let an app say what an empty chart shows).
final class ChartNoDataTextTests: XCTestCase {
    func testAChartsOwnNoDataTextIsDrawnAndSaidInBothFormats() throws {
        let yaml = """
            title: Empty week
            elements:
              - {type: chart, kind: bar, title: Pain, noData: No readings this week, categories: [], series: []}
              - {type: chart, kind: pie, title: Activity, segments: []}
            """
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let text = try TestSupport.run("pdftotext", [try TestSupport.temporaryFile(try document.pdf(), name: "nodata.pdf").path, "-"]).text
        XCTAssertTrue(text.contains("No readings this week"))
        XCTAssertTrue(text.contains("No data"), "a chart without its own text keeps the language's")
        let html = try document.html()
        XCTAssertTrue(html.contains(">No readings this week</text>"), "drawn in the SVG")
        XCTAssertTrue(html.contains("No readings this week.</desc>"), "and said in its text alternative")
        XCTAssertEqual(
            try JSONDecoder().decode(Chart.self, from: JSONEncoder().encode(Chart(noData: "None", .pie(PieChart(segments: []))))).noData,
            "None")
    }

    /// A generated description is read aloud in place of the chart, so it must read as language
    /// in every built-in language: mostly letters, not a list of numbers (the independent
    /// checker's test: at least half the characters are letters), for every chart of the gallery.
    /// Chinese writes a word in one or two characters, against up to six for a number, so it is
    /// held to 0.4 of the same measure.
    func testGeneratedDescriptionsReadAsLanguageInEveryLanguage() throws {
        let gallery = try DocumentDecoder.decode(
            try Data(contentsOf: TestSupport.samples.appendingPathComponent("charts.yaml")), format: .yaml)
        let charts = TestSupport.charts(of: gallery).map { chart -> Chart in
            var generated = chart
            generated.alt = nil
            return generated
        }
        XCTAssertGreaterThan(charts.count, 20)
        for language in BuiltInStrings.languages {
            for chart in charts {
                let description = ChartDescription.describe(chart, strings: .forLanguage(language))
                let letters = description.filter(\.isLetter).count
                let least = language == "zh" ? 0.4 : 0.5
                XCTAssertGreaterThanOrEqual(Double(letters) / Double(description.count), least, "\(language): \(description)")
            }
        }
    }

    /// A pie of many segments names the largest, in the pie's order, and counts the rest.
    func testAPieOfManySegmentsNamesTheLargestAndCountsTheRest() throws {
        let values: [Double] = [5, 30, 1, 1, 20, 2, 2, 3, 3, 10, 23]
        let pie = PieChart(segments: values.enumerated().map { ChartSegment(title: "S\($0.offset + 1)", value: $0.element) })
        let description = ChartDescription.describe(.pie(pie, title: "Visits"), strings: .english)
        XCTAssertEqual(
            description, "Pie chart, Visits. S1 5%, S2 30%, S5 20%, S8 3%, S9 3%, S10 10%, S11 23%, 4 other segments with 6% together.")
        let few = PieChart(segments: values.prefix(8).enumerated().map { ChartSegment(title: "S\($0.offset + 1)", value: $0.element) })
        XCTAssertFalse(ChartDescription.describe(.pie(few, title: "Visits"), strings: .english).contains("other segments"))
    }
}
