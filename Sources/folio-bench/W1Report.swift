import Folio
import Foundation

/// Builds the W1 weekly summary (shared/bench/WORKLOAD.md) from one patient record
/// with the Swift API, the way a Swift user would.
enum W1Report {
    struct Record: Decodable {
        struct Patient: Decodable { let id: String; let name: String; let week: String }
        struct Medication: Decodable { let name: String; let dose: String; let schedule: String; let taken: String }
        let patient: Patient
        let days: [String]
        let pain: [Double]
        let medicationAdherence: [Double]
        let steps: [Int]
        let medications: [Medication]
        let notes: [String]
    }

    static func document(_ record: Record, logo: Data) -> Document {
        let averagePain = record.pain.reduce(0, +) / Double(max(record.pain.count, 1))
        let adherence = record.medicationAdherence.reduce(0, +) / Double(max(record.medicationAdherence.count, 1))
        let percent = "\(Int((adherence * 100).rounded()))%"
        let chart = BarChart(
            categories: record.days,
            series: [
                ChartSeries(title: "Pain", values: record.pain, tint: Color(hex: "#E5484D")),
                ChartSeries(title: "Medication adherence",
                            values: record.medicationAdherence.map { ($0 * 100).rounded() / 10 },
                            tint: Color(hex: "#3E63DD")),
            ],
            xAxisTitle: "Day", yAxisTitle: "Score (0–10)", max: 10)
        var elements: [Block] = [
            .image(ImageBlock(source: .data(logo), width: .cm(6), alt: "Care team logo")),
            .subtitle(Subtitle("Key metrics")),
            .widgets(Widgets([
                .init(title: "Average pain", value: NumberFormat.string(averagePain, decimals: 1), detail: "out of 10"),
                .init(title: "Medication adherence", value: percent, detail: "mean of 7 days"),
                .init(title: "Total steps", value: record.steps.reduce(0, +).formatted(), detail: "this week"),
            ])),
            .message(Message(title: "Medication Adherence",
                             text: RichText("Mean adherence this week was **\(percent)**."), kind: .tip)),
            .subtitle(Subtitle("Pain and medication")),
            .chart(.bar(chart, title: "Pain and medication adherence by day")),
            .subtitle(Subtitle("Medications")),
            .table(Table(header: ["Name", "Dose", "Schedule", "Taken"],
                         rows: record.medications.map { [$0.name, $0.dose, $0.schedule, $0.taken] },
                         align: [.left, .right, .left, .right])),
            .subtitle(Subtitle("Care team notes")),
        ]
        elements += record.notes.map { .paragraph(Paragraph(RichText($0))) }
        return Document(title: "Weekly Care Summary",
                        header: "\(record.patient.week) update for \(record.patient.name)",
                        metadata: Metadata(author: "Folio benchmark", creationDate: Date(timeIntervalSince1970: 1_763_280_000)),
                        elements: elements)
    }
}
