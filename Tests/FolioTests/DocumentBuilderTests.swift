import Foundation
import XCTest

@testable import Folio

/// The result builder builds the same document as the block list, with `if`, `for` and `try`.
final class DocumentBuilderTests: XCTestCase {
    func testTheBuilderGivesTheSameBlocksAsTheList() throws {
        let notes = ["First note", "Second note"]
        let showTable = Bool.random()
        let built = try Document(title: "Weekly Update", header: "Kim") {
            Subtitle("Pain")
            Paragraph("A week of lower pain.")
            try BarChart(categories: ["Mon", "Tue"]) {
                ChartSeries(title: "Pain", values: [3, nil], tint: try Color(hex: "#E5484D"))
                for extra in ["Sleep"] { ChartSeries(title: extra, values: [7, 6]) }
            }
            .chart(title: "Pain by day", yAxis: ChartAxis(max: 10))
            LineChart { LinePlot(title: "HR", values: [70, 72]) }
            if showTable {
                Table(headers: ["Name", "Dose"], rows: [["Ibuprofen", "400 mg"]])
            } else {
                Message(title: "No medications", text: "None this week.")
            }
            for note in notes { Paragraph(note) }
            PageBreak()
            Columns(widths: [2, 1]) {
                PieChart(donut: true) {
                    ChartSegment(title: "Done", value: 3)
                    ChartSegment(title: "Left", value: 1)
                }
                RingChart { ChartSegment(title: "Move", value: 0.5) }
            }
        }
        let red = try Color(hex: "#E5484D")
        let listed = Document(
            title: "Weekly Update", header: "Kim",
            elements: [
                .subtitle(Subtitle("Pain")),
                .paragraph(Paragraph("A week of lower pain.")),
                .chart(
                    Chart.bar(
                        BarChart(
                            categories: ["Mon", "Tue"],
                            series: [
                                ChartSeries(title: "Pain", values: [3, nil], tint: red),
                                ChartSeries(title: "Sleep", values: [7, 6]),
                            ]),
                        title: "Pain by day", yAxis: ChartAxis(max: 10))),
                .chart(Chart(.line(LineChart(plots: [LinePlot(title: "HR", values: [70, 72])])))),
                showTable
                    ? .table(Table(headers: ["Name", "Dose"], rows: [["Ibuprofen", "400 mg"]]))
                    : .message(Message(title: "No medications", text: "None this week.")),
                .paragraph(Paragraph("First note")),
                .paragraph(Paragraph("Second note")),
                .pageBreak,
                .columns(
                    Columns(
                        [
                            .chart(
                                Chart(
                                    .pie(
                                        PieChart(
                                            segments: [ChartSegment(title: "Done", value: 3), ChartSegment(title: "Left", value: 1)],
                                            donut: true)))),
                            .chart(Chart(.rings(RingChart(rings: [ChartSegment(title: "Move", value: 0.5)])))),
                        ], widths: [2, 1])),
            ])
        XCTAssertEqual(built, listed)
        // The same bytes need the same creation date: two renders may straddle a second.
        var (fixedBuilt, fixedListed) = (built, listed)
        fixedBuilt.metadata.creationDate = Date(timeIntervalSince1970: 1_763_280_000)
        fixedListed.metadata.creationDate = fixedBuilt.metadata.creationDate
        XCTAssertEqual(try fixedBuilt.pdf(), try fixedListed.pdf(), "the same document, the same bytes")
    }

    func testAThrowingElementStopsTheBuild() {
        XCTAssertThrowsError(
            try Document(title: "T") {
                Paragraph("before")
                try BarChart(categories: ["A"]) { ChartSeries(values: [1], tint: try Color(hex: "not a colour")) }
            })
    }
}
