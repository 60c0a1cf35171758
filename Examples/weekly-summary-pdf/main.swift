// A program that wants only a PDF: it imports Folio alone, so it builds and links none of the
// reading of YAML or JSON, templates, FHIR, spreadsheets, render workers, schemas or fuzz
// harnesses (`PDFOnlyProgramTests` checks its symbols). The document is the weekly summary of
// the article "Build a weekly summary in Swift".
//
//     swift run weekly-summary-pdf summary.pdf
import Folio
import Foundation

/// The care team's weekly summary of one patient, built from its parts.
func weeklySummary() throws -> Document {
    var document = Document(
        title: "Weekly Care Summary",
        metadata: Metadata(author: "Riverside Care Team", language: "en-US")
    ) {
        Subtitle("Key metrics")
        Widgets([.init(title: "Average pain", value: "3.1"), .init(title: "Total steps", value: "55,037")])
    }
    document.header = RunningLine(center: "2026-11-09 to 2026-11-15 · Émile Okafor")
    document.footer = RunningLine(center: "{page} / {pages}")
    document.elements += try Document {
        try BarChart(categories: ["Mon", "Tue", "Wed", "Thu"]) {
            ChartSeries(
                title: "Adherence", values: [100, nil, 70, 90], valueLabels: ["100%", "N/A", "70%", "90%"], tint: try Color(hex: "#30A46C"))
        }
        .chart(
            title: "Medication adherence",
            yAxis: ChartAxis(min: 0, max: 100, clip: true, ticks: [0, ChartTick(50, label: "Half"), ChartTick(100, label: "All")]))
        LineChart(x: .categories(["Mon", "Tue", "Wed", "Thu"])) {
            LinePlot(title: "Pain", values: [6, nil, 7, 4], markers: true)
        }
        .chart(title: "Pain", thresholds: [ChartThreshold(kind: .greaterThan, value: 6, label: "Call above 6")])
    }.elements
    document.elements +=
        Document {
            Table(headers: ["Medication", "Dose"], rows: [["Ibuprofen", "400 mg"], ["Gabapentin", "300 mg"]])
            for note in ["Walked 20 minutes after lunch.", "Slept badly on Friday."] { Paragraph(note) }
            Message(title: "Keep it up", text: "You met your step goal on two days.", kind: .tip)
        }.elements
    return document
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: weekly-summary-pdf OUTPUT.pdf\n".utf8))
    exit(2)
}
do {
    try weeklySummary().write(to: URL(fileURLWithPath: arguments[1]), format: .pdf)
} catch {
    FileHandle.standardError.write(Data("weekly-summary-pdf: \(error)\n".utf8))
    exit(1)
}
