import FolioLayout
import FolioPDF
import FolioPango
import Foundation
import XCTest

@testable import Folio
@testable import FolioHTML
@testable import FolioTemplate

/// The CareKit, ResearchKit and Core Plot chart options: value labels, missing values, hard
/// axis ranges, tick labels, a second value axis, per-bar colours, stacks side by side, fills,
/// donut widths and the palette's shades; each drawn, described and validated.
final class ChartOptionsTests: XCTestCase {
    private let red = Color(red: 0.9, green: 0.28, blue: 0.3)
    private let renderer = ChartRenderer(measurer: FixedMeasurer())

    private func texts(_ drawing: Drawing) -> [String] {
        drawing.commands.compactMap { if case .text(let item) = $0 { return item.text } else { return nil } }
    }

    private func textItems(_ drawing: Drawing) -> [TextItem] {
        drawing.commands.compactMap { if case .text(let item) = $0 { return item } else { return nil } }
    }

    /// Filled axis-aligned rectangles of `color`, in drawing order.
    private func rects(_ drawing: Drawing, color: Color) -> [Rect] { TestSupport.filledRects(drawing, color: color) }

    private func error(_ element: String) -> String {
        let json = #"{"elements": ["# + element + "]}"
        do {
            _ = try DocumentDecoder.decode(Data(json.utf8), format: .json)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    func testValueLabelsAndMissingValues() {
        let series = ChartSeries(title: "Relief", values: [33, nil, 10], valueLabels: ["33%", "N/A", nil], tint: .black)
        let chart = Chart.bar(BarChart(categories: ["Mon", "Tue", "Wed"], series: [series]), title: "Relief")
        let drawing = renderer.drawing(for: chart, width: 400)
        let shown = texts(drawing)
        XCTAssertTrue(shown.contains("33%") && shown.contains("N/A") && shown.contains("10"), "\(shown)")
        XCTAssertFalse(shown.contains("33"), "the author's label replaces the value")
        // Two bars and the legend swatch: the missing value has no bar, not a zero-height one.
        XCTAssertEqual(rects(drawing, color: .black).filter { $0.height > 0.01 }.count, 3)
        XCTAssertEqual(rects(drawing, color: .black).count, 3)
        XCTAssertTrue(drawing.description.contains("No data (Tue)"), drawing.description)
        XCTAssertTrue(drawing.description.contains("Relief: lowest value 10 (Wed), highest value 33 (Mon)"), drawing.description)
        let table = ChartDataTable(chart, strings: .english)
        XCTAssertEqual(table.rows.map { $0[1] }, ["33%", "N/A", "10"])
        let unlabelled = Chart.bar(BarChart(categories: ["A", "B"], series: [ChartSeries(title: "S", values: [1, nil])]))
        XCTAssertEqual(ChartDataTable(unlabelled, strings: .english).rows.map { $0[1] }, ["1", "No data"])
    }

    /// One bar per category: a label may use the category's width, so "N/A" still tells a missing
    /// day from a zero in a narrow layout; side by side, each label has only its bar's width.
    func testLabelsUseTheRoomTheyHave() {
        let series = ChartSeries(title: "R", values: [30, nil, 80], valueLabels: ["30 pct", "N/A", "80 pct"])
        let single = Chart.bar(BarChart(categories: ["A", "B", "C"], series: [series]))
        let narrow = renderer.drawing(for: single, width: 118)
        XCTAssertTrue(texts(narrow).contains("N/A") && texts(narrow).contains("80 pct"), "\(texts(narrow))")
        let paired = Chart.bar(BarChart(categories: ["A", "B", "C"], series: [series, ChartSeries(title: "S", values: [1, 2, 3])]))
        XCTAssertFalse(texts(renderer.drawing(for: paired, width: 118)).contains("80 pct"), "too wide for its bar beside another")
    }

    func testPerBarColoursSingleOutBarsAndTheLegendKeepsTheSeriesColour() {
        let series = ChartSeries(title: "Steps", values: [5, 6, 7], tint: .black, tints: [nil, red, nil])
        let drawing = renderer.drawing(for: .bar(BarChart(categories: ["A", "B", "C"], series: [series])), width: 400)
        XCTAssertEqual(rects(drawing, color: red).count, 1)
        XCTAssertEqual(rects(drawing, color: .black).count, 3, "two bars and the legend swatch")
    }

    func testAClippedAxisIsExactAndCutsBarsAtItsEdge() throws {
        let values: [Double?] = [6000, 15_400, 8000, 12_000]
        let chart = Chart.bar(
            BarChart(categories: ["A", "B", "C", "D"], series: [ChartSeries(values: values, tint: .black)], valueLabels: false),
            yAxis: ChartAxis(min: 4000, max: 12_000, clip: true))
        let drawing = renderer.drawing(for: chart, width: 400)
        let bars = rects(drawing, color: .black)
        XCTAssertEqual(bars.count, 4, "no legend entry for an untitled series")
        let full = bars[3].height
        XCTAssertEqual(bars[1].height, full, accuracy: 0.01, "15400 is cut at 12000")
        XCTAssertEqual(bars[1].y, bars[3].y, accuracy: 0.01)
        XCTAssertEqual(bars[0].height / full, 2000 / 8000, accuracy: 0.001, "bars rise from the axis minimum")
        XCTAssertEqual(bars[2].height / full, 4000 / 8000, accuracy: 0.001)
        let cutMarks = TestSupport.strokes(drawing).filter { $0.1.color == .white }
        XCTAssertEqual(cutMarks.count, 2, "the bar cut at the edge carries two white strokes; 12000 itself is not cut")
        // An axis reaching 10,000 groups its digits ("12,000").
        let ticks = texts(drawing).compactMap { Double($0.replacingOccurrences(of: ",", with: "")) }
        XCTAssertEqual(ticks.min(), 4000)
        XCTAssertEqual(ticks.max(), 12_000, "the range is not widened to a nicer number or to the data")
        // Without clip, min and max only widen.
        var widened = chart
        widened.yAxis.clip = false
        XCTAssertGreaterThanOrEqual(
            texts(renderer.drawing(for: widened, width: 400)).compactMap { Double($0.replacingOccurrences(of: ",", with: "")) }.max() ?? 0,
            15_000)
    }

    func testADashedPlotIsDrawnOverTheSolidOnesItWouldBeHiddenUnder() throws {
        // The weekly summary's heart rate: an "Expected" dashed curve listed first was hidden under "Actual".
        let expected = Color(red: 0.55, green: 0.55, blue: 0.6)
        let actual = Color(red: 0.9, green: 0.28, blue: 0.3)
        let chart = Chart.line(
            LineChart(
                x: .numbers([0, 1, 2, 3]),
                plots: [
                    LinePlot(title: "Expected", values: [70, 80, 90, 100], tint: expected, dashed: true),
                    LinePlot(title: "Actual", values: [71, 79, 91, 99], tint: actual),
                    LinePlot(title: "Resting", values: [60, 60, 61, 60]),
                ]))
        let strokes = renderer.drawing(for: chart, width: 400).commands.compactMap { command -> StrokeStyle? in
            if case .stroke(_, let style) = command, style.width == 1.3 { return style } else { return nil }
        }
        XCTAssertEqual(strokes.count, 3)
        XCTAssertEqual(strokes.last?.color, expected, "the dashed plot is drawn last")
        XCTAssertEqual(strokes.last?.dash, [5, 3])
        XCTAssertEqual(strokes.first?.color, actual, "the solid plots keep their order")
    }

    func testAClippedLineChartDrawsItsPlotsInsideAClip() throws {
        let chart = Chart.line(
            LineChart(x: .numbers([1, 2, 3, 4]), plots: [LinePlot(title: "G", values: [1, 9, 3, 4])]),
            xAxis: ChartAxis(min: 2, max: 3, clip: true), yAxis: ChartAxis(max: 5, clip: true))
        let drawing = renderer.drawing(for: chart, width: 400)
        let clips = drawing.commands.compactMap { if case .beginClip(let rect) = $0 { return rect } else { return nil } }
        XCTAssertEqual(clips.count, 1)
        XCTAssertEqual(drawing.commands.filter { $0 == .endClip }.count, 1)
        let svg = SVGCanvas.svgMarkup(drawing, id: "c", title: "t", fontFamily: "DejaVu Sans")
        XCTAssertTrue(svg.contains(#"<clipPath id="c-clip1"><rect"#), svg)
        XCTAssertTrue(svg.contains(#"<g clip-path="url(#c-clip1)">"#), "the plots are drawn in the clipped group")
    }

    func testTicksWithLabelsPrintTheAuthorsWords() throws {
        let chart = Chart.bar(
            BarChart(categories: ["A"], series: [ChartSeries(title: "S", values: [40])]),
            yAxis: ChartAxis(max: 100, ticks: [0, ChartTick(50, label: "Half"), ChartTick(100, label: "Full")]))
        let drawing = renderer.drawing(for: chart, width: 400)
        let items = textItems(drawing)
        let half = try XCTUnwrap(items.first { $0.text == "Half" })
        let full = try XCTUnwrap(items.first { $0.text == "Full" })
        let zero = try XCTUnwrap(items.first { $0.text == "0" })
        XCTAssertFalse(items.contains { $0.text == "50" })
        XCTAssertEqual(half.frame.midY, (full.frame.midY + zero.frame.midY) / 2, accuracy: 0.01, "Half sits at 50")
        let document = try DocumentDecoder.decode(
            Data(
                #"{"elements": [{"type": "chart", "categories": ["A"], "series": [{"values": [1]}], "yAxis": {"ticks": [0, {"value": 1, "label": "Goal"}]}}]}"#
                    .utf8),
            format: .json)
        let decoded = try XCTUnwrap(document.elements.first?.content as? Chart)
        XCTAssertEqual(decoded.yAxis.ticks, [ChartTick(0), ChartTick(1, label: "Goal")])
    }

    func testNamedStacksStandSideBySide() {
        let colors = [Color.black, red, Color(red: 0, green: 0, blue: 1), Color(red: 0, green: 1, blue: 0)]
        let chart = Chart.bar(
            BarChart(
                categories: ["W1"],
                series: [
                    ChartSeries(title: "Walk plan", values: [90], tint: colors[0], stack: "plan"),
                    ChartSeries(title: "Cycle plan", values: [60], tint: colors[1], stack: "plan"),
                    ChartSeries(title: "Walk done", values: [80], tint: colors[2], stack: "done"),
                    ChartSeries(title: "Cycle done", values: [nil], tint: colors[3], stack: "done"),
                ]))
        let drawing = renderer.drawing(for: chart, width: 400)
        let bars = colors.map { rects(drawing, color: $0).first }
        guard let walkPlan = bars[0], let cyclePlan = bars[1], let walkDone = bars[2] else { return XCTFail("bars missing") }
        XCTAssertEqual(walkPlan.x, cyclePlan.x, accuracy: 0.01, "one stack")
        XCTAssertEqual(cyclePlan.maxY, walkPlan.y, accuracy: 0.01, "the second sits on the first")
        XCTAssertEqual(cyclePlan.height / walkPlan.height, 60.0 / 90.0, accuracy: 0.001)
        XCTAssertGreaterThan(walkDone.x, walkPlan.maxX, "the second stack stands beside the first")
        XCTAssertEqual(walkDone.maxY, walkPlan.maxY, accuracy: 0.01)
        XCTAssertEqual(rects(drawing, color: colors[3]).count, 1, "only the legend swatch for the missing value")
        XCTAssertTrue(texts(drawing).contains("150"), "the plan stack's total")
        XCTAssertTrue(drawing.description.hasPrefix("Stacked bar chart"))
    }

    /// Weight in kg on the first axis (black markers) and steps on the second (red markers).
    private func weightAndSteps(thresholds: [ChartThreshold] = []) -> Chart {
        Chart(
            yAxis: ChartAxis(title: "kg"), thresholds: thresholds, secondaryYAxis: ChartAxis(title: "Steps", min: 0),
            .line(
                LineChart(
                    x: .categories(["A", "B"]),
                    plots: [
                        LinePlot(title: "Weight", values: [80, 82], tint: .black, markers: true),
                        LinePlot(title: "Steps", values: [5000, 10_000], tint: red, markers: true, axis: .secondary),
                    ])))
    }

    func testASecondAxisMeasuresItsPlotsInTheirOwnUnit() throws {
        let chart = weightAndSteps()
        let drawing = renderer.drawing(for: chart, width: 400)
        let shown = texts(drawing)
        XCTAssertTrue(shown.contains("10,000") && shown.contains("Steps") && shown.contains("kg"), "\(shown)")
        XCTAssertFalse(shown.contains { Double($0).map { $0 > 100 && $0 < 1000 } ?? false }, "weights are not stretched to steps")
        // The plot's markers, not the legend's swatches (below the x labels).
        let plotBottom = try XCTUnwrap(textItems(drawing).first { $0.text == "A" }?.frame.y)
        func markers(_ color: Color) -> [Double] {
            drawing.commands.compactMap { command in
                guard case .fill(let path, let fill) = command, fill == color, case .arc(let center, _, _, _)? = path.elements.first,
                    center.y < plotBottom
                else { return nil }
                return center.y
            }
        }
        let steps = markers(red)
        XCTAssertEqual(steps.count, 2)
        let weight = markers(.black)
        XCTAssertEqual(weight.count, 2)
        // Steps 5000 of 0…10000 sits halfway; its top value at the plot's top, as is the top weight (82 of 80…82 nice range).
        XCTAssertLessThan(steps[1], steps[0])
        let tenThousand = try XCTUnwrap(textItems(drawing).first { $0.text == "10,000" })
        XCTAssertEqual(tenThousand.frame.midY, steps[1], accuracy: 0.5)
        XCTAssertEqual(
            error(
                #"{"type": "chart", "categories": ["A"], "series": [{"values": [1]}], "secondaryYAxis": {"title": "x"}}"#),
            "elements[0].secondaryYAxis: only line and scatter charts have a second value axis")
    }

    /// A threshold on the first axis highlights the first axis's points, not a second-axis series in
    /// another unit (steps of 5,000 are not "above 100 kg"); one naming a second-axis series applies to it.
    func testAThresholdHighlightsOnlyThePlotsOfItsAxis() throws {
        let amber = try Color(hex: "#FFB000")
        func highlights(_ threshold: ChartThreshold) -> Int {
            let chart = weightAndSteps(thresholds: [threshold])
            return renderer.drawing(for: chart, width: 400).commands.filter { command in
                guard case .fill(_, let fill) = command else { return false }
                return fill == amber
            }.count
        }
        XCTAssertEqual(highlights(ChartThreshold(kind: .greaterThan, value: 100, tint: amber)), 0, "no weight is above 100 kg")
        XCTAssertEqual(highlights(ChartThreshold(kind: .greaterThan, value: 81, tint: amber)), 1, "82 kg is")
        XCTAssertEqual(highlights(ChartThreshold(kind: .greaterThan, value: 6000, tint: amber, series: "Steps")), 1, "10,000 steps")
    }

    /// A threshold naming a second-axis series is drawn against that axis, in its unit, and widens
    /// that axis, not the first: a step goal of 12,000 does not flatten a weight in kilograms (#42).
    func testAThresholdOfASecondAxisSeriesIsDrawnOnThatAxis() throws {
        let amber = try Color(hex: "#FFB000")
        let chart = weightAndSteps(thresholds: [ChartThreshold(kind: .greaterThan, value: 12_000, tint: amber, series: "Steps")])
        let drawing = renderer.drawing(for: chart, width: 400)
        let shown = texts(drawing)
        XCTAssertFalse(shown.contains { Double($0).map { $0 > 100 && $0 < 1000 } ?? false }, "the kg axis stays in kilograms: \(shown)")
        XCTAssertTrue(
            shown.contains("12,000") || shown.contains("14,000") || shown.contains("15,000"), "the step axis reaches the goal: \(shown)")
        let goal = try XCTUnwrap(
            TestSupport.strokes(drawing).first { $0.1.color == amber }?.0.elements.first.flatMap { element -> Double? in
                if case .move(let point) = element { return point.y } else { return nil }
            }, "the goal's line")
        // On the step axis: 12,000 lies above 10,000 (the top step point), measured by the axis's own ticks.
        let ticks = textItems(drawing).filter { ["0", "5,000", "10,000", "15,000"].contains($0.text) && $0.frame.x > 200 }
        let zero = try XCTUnwrap(ticks.first { $0.text == "0" }?.frame.midY)
        let tenThousand = try XCTUnwrap(ticks.first { $0.text == "10,000" }?.frame.midY)
        XCTAssertEqual(goal, zero + (tenThousand - zero) * 1.2, accuracy: 1, "12,000 on the step axis")
    }

    /// An axis reaching 10,000 groups its tick digits in the document's language; a smaller one does not.
    func testLargeAxisNumbersAreGroupedInTheDocumentsLanguage() {
        func ticks(_ values: [Double], _ strings: BuiltInStrings) -> [String] {
            let chart = Chart(.bar(BarChart(categories: ["a", "b"], series: [ChartSeries(title: "s", values: values)])))
            return texts(ChartRenderer(measurer: FixedMeasurer(), theme: .standard, strings: strings).drawing(for: chart, width: 400))
        }
        XCTAssertTrue(ticks([5000, 1_200_000], .english).contains("1,000,000"))
        XCTAssertTrue(ticks([5000, 1_200_000], .german).contains("1.000.000"))
        XCTAssertTrue(ticks([5000, 1_200_000], .french).contains("1\u{202F}000\u{202F}000"))
        XCTAssertTrue(ticks([5, 1200], .english).contains("1200"), "an axis below 10,000 is not grouped")
    }

    func testAFillHasItsOwnColourAndOpacity() {
        let green = Color(red: 0.19, green: 0.64, blue: 0.42)
        let chart = Chart.line(
            LineChart(plots: [LinePlot(title: "S", values: [1, 3, 2], tint: .black, fill: true, fillColor: green, fillOpacity: 0.3)]))
        let drawing = renderer.drawing(for: chart, width: 400)
        XCTAssertTrue(drawing.commands.contains { if case .fill(_, let c) = $0 { return c == green.withAlpha(0.3) } else { return false } })
        XCTAssertTrue(TestSupport.strokes(drawing).contains { $0.1.color == .black })
    }

    func testPerPointColoursMarkThosePoints() {
        let chart = Chart.line(LineChart(plots: [LinePlot(values: [1, 5, 2], tints: [nil, red, nil])]))
        let drawing = renderer.drawing(for: chart, width: 400)
        let marked = drawing.commands.filter { if case .fill(_, let c) = $0 { return c == red } else { return false } }
        XCTAssertEqual(marked.count, 1)
        XCTAssertFalse(texts(drawing).contains(""), "an untitled plot has no (empty) legend entry")
    }

    func testMarkerShapesMarkThePointsAndTheLegend() {
        let chart = Chart.line(
            LineChart(plots: [LinePlot(title: "Weight", values: [80, 81, 82], tint: red, markerShape: .triangle)]))
        let drawing = renderer.drawing(for: chart, width: 400)
        let triangles = drawing.commands.filter {
            guard case .fill(let path, let color) = $0, color == red else { return false }
            return path.elements.count == 4 && path.elements.allSatisfy { if case .arc = $0 { return false } else { return true } }
        }
        XCTAssertEqual(triangles.count, 4, "three points and the legend swatch")
        XCTAssertEqual(
            error(#"{"type": "chart", "kind": "line", "plots": [{"values": [1], "markerShape": "star"}]}"#),
            #"elements[0].plots[0].markerShape: unknown value "star"; expected one of: circle, square, triangle, diamond, cross"#)
    }

    func testDonutRingWidth() {
        func innerRadius(_ width: Double?) -> Double? {
            let chart = Chart.pie(PieChart(segments: [ChartSegment(title: "A", value: 1)], donut: true, ringWidth: width))
            for command in renderer.drawing(for: chart, width: 300).commands {
                if case .fill(let path, _) = command, path.elements.count > 1, case .arc(_, let outer, _, _) = path.elements[0],
                    case .arc(_, let inner, _, _) = path.elements[1]
                {
                    return inner / outer
                }
            }
            return nil
        }
        XCTAssertEqual(innerRadius(nil) ?? 0, 0.58, accuracy: 0.001)
        XCTAssertEqual(innerRadius(0.2) ?? 0, 0.8, accuracy: 0.001)
    }

    func testThePaletteIsShadedBeforeItRepeats() {
        let theme = Theme.standard
        let colours = (0..<theme.distinguishableColors).map(theme.seriesColor)
        XCTAssertEqual(Set(colours.map(\.hex)).count, colours.count, "no two series share a colour")
        XCTAssertEqual(theme.seriesColor(theme.distinguishableColors), theme.seriesColor(0))
        let many = Chart.bar(
            BarChart(
                categories: ["A"],
                series: (0...theme.distinguishableColors).map { ChartSeries(title: "S\($0)", values: [1]) }))
        XCTAssertTrue(renderer.repeatsColors(many))
        var few = many
        if case .bar(var bar) = few.body {
            bar.series.removeLast()
            few.body = .bar(bar)
        }
        XCTAssertFalse(renderer.repeatsColors(few))
    }

    func testNewOptionsAreValidatedWithTheirFieldPaths() {
        let bar = #""type": "chart", "categories": ["A", "B"]"#
        XCTAssertEqual(
            error(#"{\#(bar), "series": [{"values": [1, 2], "valueLabels": ["x"]}]}"#),
            "elements[0].series[0].valueLabels: has 1 labels but there are 2 values")
        XCTAssertEqual(
            error(##"{\##(bar), "series": [{"values": [1, 2], "tints": ["#FF0000"]}]}"##),
            "elements[0].series[0].tints: has 1 colours but there are 2 values")
        XCTAssertEqual(
            error(#"{\#(bar), "series": [{"values": [1, 2], "tints": ["red", null]}]}"#),
            ##"elements[0].series[0].tints[0]: "red" is not a colour; use #RRGGBB"##)
        XCTAssertEqual(
            error(#"{\#(bar), "series": [{"values": [1, 2], "stack": "a"}], "yAxis": {"scale": "log"}}"#),
            #"elements[0].series[0].stack: stacked bars (stack "a") cannot use a log scale"#)
        XCTAssertEqual(
            error(#"{\#(bar), "series": [{"values": [1, 2]}], "yAxis": {"clip": true}}"#),
            "elements[0].yAxis.clip: a clipped axis needs min or max (or both)")
        XCTAssertEqual(
            error(#"{\#(bar), "series": [{"values": [1, 2]}], "yAxis": {"ticks": ["high"]}}"#),
            "elements[0].yAxis.ticks[0]: expected a number or {value, label}")
        XCTAssertEqual(
            error(#"{\#(bar), "series": [{"values": [1, 2]}], "yAxis": {"ticks": [{"value": 1e400}]}}"#).hasPrefix(
                "elements[0].yAxis.ticks[0]"), true)
        XCTAssertEqual(
            error(#"{"type": "chart", "kind": "line", "plots": [{"values": [1], "fillOpacity": 2}]}"#),
            "elements[0].plots[0].fillOpacity: must be between 0 and 1")
        XCTAssertEqual(
            error(#"{"type": "chart", "kind": "line", "plots": [{"values": [1], "axis": "right"}]}"#),
            #"elements[0].plots[0].axis: unknown value "right"; expected one of: primary, secondary"#)
        XCTAssertEqual(
            error(#"{"type": "chart", "kind": "donut", "segments": [{"title": "a", "value": 1}], "ringWidth": 0}"#),
            "elements[0].ringWidth: must be between 0.1 and 1 (a fraction of the radius)")
    }

    /// The gallery's new charts say the same in PDF and HTML: labels, tick words, missing values.
    func testNewOptionsReachPDFAndHTMLAlike() throws {
        let yaml = """
            elements:
              - type: chart
                title: Relief
                categories: [Mon, Tue, Wed]
                series:
                  - {title: Relief, values: [30, null, 10], valueLabels: ["30 pct", "N/A", "10 pct"]}
                yAxis: {max: 100, clip: true, ticks: [0, {value: 50, label: Halfway}, 100]}
                dataTable: true
            """
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let pdf = try TestSupport.pdfText(try document.render(as: .pdf))
        let html = String(decoding: try document.render(as: .html), as: UTF8.self)
        for text in ["30 pct", "N/A", "10 pct", "Halfway"] {
            XCTAssertTrue(pdf.contains(text), "PDF lacks \(text)")
            XCTAssertTrue(html.contains(">\(text)<"), "HTML lacks \(text)")
        }
        XCTAssertTrue(html.contains("No data (Tue)"), "the text alternative says the value is missing")
    }

    /// Samples/carekit-style.yaml: CareKit's centred header and "n / N" footer, value labels with
    /// "N/A" for the day without data, and hard axis ranges, on a US Letter page.
    func testTheCareKitStyleSample() throws {
        let url = TestSupport.samples.appendingPathComponent("carekit-style.yaml")
        let document = try DocumentDecoder.decode(try Data(contentsOf: url), format: .yaml)
        let pdf = try document.render(as: .pdf)
        let pages = try TestSupport.pageTexts(pdf)
        XCTAssertEqual(pages.count, 2)
        let words = try TestSupport.words(pdf)
        let axis = 612.0 / 2
        let header = words.filter { $0.yMin < 50 }
        XCTAssertEqual(header.map(\.text).joined(separator: " "), "App Name: OCKSample, User Name: John Appleseed")
        XCTAssertEqual(((header.first?.xMin ?? 0) + (header.last?.xMax ?? 0)) / 2, axis, accuracy: 1.5)
        let footer = words.filter { $0.yMin > 740 }
        XCTAssertEqual(footer.map(\.text), ["1", "/", "2"])
        XCTAssertEqual(((footer.first?.xMin ?? 0) + (footer.last?.xMax ?? 0)) / 2, axis, accuracy: 1.5)
        XCTAssertGreaterThanOrEqual(words.filter { $0.text == "N/A" }.count, 3, "two labels in the first chart, one in the second")
        XCTAssertTrue(words.contains { $0.text == "Goal" }, "the tick's own label")
        let chart = try XCTUnwrap(document.elements.compactMap { $0.content as? Chart }.first)
        XCTAssertTrue(ChartDescription.describe(chart, strings: .english).contains("No data (Tuesday)"))
    }
}
