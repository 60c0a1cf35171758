import Folio
import Foundation

/// Builds the W1 weekly summary (shared/bench/WORKLOAD.md) from one patient record
/// with the Swift API, the way a Swift user would.
enum W1Report {
    struct Record: Decodable {
        struct Patient: Decodable {
            let id: String
            let name: String
            let week: String
        }
        struct Medication: Decodable {
            let name: String
            let dose: String
            let schedule: String
            let taken: String
        }
        let patient: Patient
        let days: [String]
        let pain: [Double]
        let medicationAdherence: [Double]
        let steps: [Int]
        let medications: [Medication]
        let stress: [[Double]]
        let rings: [String: Double]
        let activityShare: [String: Double]
        let heartRate: HeartRate
        struct HeartRate: Decodable {
            let elapsedSeconds: [Double]
            let expected: [Double]
            let actual: [Double]
        }
        let notes: [String]
    }

    static func document(_ record: Record, logo: Data) -> Document {
        let averagePain = record.pain.reduce(0, +) / Double(max(record.pain.count, 1))
        let adherence = record.medicationAdherence.reduce(0, +) / Double(max(record.medicationAdherence.count, 1))
        let percent = "\(Int((adherence * 100).rounded()))%"
        let chart = BarChart(
            categories: record.days,
            series: [
                ChartSeries(title: "Pain", values: record.pain, tint: Color(parsing: "#E5484D")),
                ChartSeries(
                    title: "Medication adherence",
                    values: record.medicationAdherence.map { ($0 * 100).rounded() / 10 },
                    tint: Color(parsing: "#3E63DD")),
            ])
        let heartRate = LineChart(
            x: .numbers(record.heartRate.elapsedSeconds),
            plots: [
                LinePlot(title: "Expected", values: record.heartRate.expected, tint: Color(parsing: "#8B8D98"), dashed: true),
                LinePlot(title: "Actual", values: record.heartRate.actual, tint: Color(parsing: "#E5484D")),
            ],
            interpolation: .curved)
        // JSON objects keep their order in the file; Foundation's dictionaries do not, so sort by the W1 order.
        let shareOrder = ["Steps taken", "Tasks completed", "Surveys completed"]
        let ringOrder = ["Move", "Exercise", "Stand"]
        func ordered(_ values: [String: Double], _ order: [String]) -> [(String, Double)] {
            values.sorted { (order.firstIndex(of: $0.key) ?? 99, $0.key) < (order.firstIndex(of: $1.key) ?? 99, $1.key) }
        }
        var elements: [Block] = [
            .image(ImageBlock(source: .data(logo), width: .cm(6), alt: "Care team logo")),
            .subtitle(Subtitle("Key metrics")),
            .widgets(
                Widgets([
                    .init(title: "Average pain", value: NumberFormat.english.string(averagePain, decimals: 1), detail: "out of 10"),
                    .init(title: "Medication adherence", value: percent, detail: "mean of 7 days"),
                    .init(
                        title: "Total steps", value: NumberFormat.groupingThousands(record.steps.reduce(0, +), separator: ","),
                        detail: "this week"),
                ])),
            .message(
                Message(
                    title: "Medication Adherence",
                    text: RichText("Mean adherence this week was **\(percent)**."), kind: .tip)),
            .subtitle(Subtitle("Pain and medication")),
            .chart(
                .bar(
                    chart, title: "Pain and medication adherence by day", xAxis: ChartAxis(title: "Day"),
                    yAxis: ChartAxis(title: "Score (0–10)", max: 10))),
            .subtitle(Subtitle("Heart rate")),
            .chart(
                Chart(
                    title: "Heart rate during the Saturday session", xAxis: ChartAxis(title: "Elapsed time (s)"),
                    yAxis: ChartAxis(title: "Heart rate (bpm)", min: 0, max: 210, tickInterval: 30),
                    thresholds: [ChartThreshold(kind: .greaterThan, value: 160, label: "Threshold 160 bpm")],
                    .line(heartRate))),
            .subtitle(Subtitle("Activity")),
            .columns(
                Columns([
                    .chart(
                        Chart(
                            title: "Share of activity",
                            .pie(
                                PieChart(segments: ordered(record.activityShare, shareOrder).map { ChartSegment(title: $0.0, value: $0.1) })
                            ))),
                    .chart(
                        Chart(
                            title: "Activity rings",
                            .rings(RingChart(rings: ordered(record.rings, ringOrder).map { ChartSegment(title: $0.0, value: $0.1) })))),
                ])),
            .subtitle(Subtitle("Stress range")),
            .chart(
                Chart(
                    title: "Daily stress, low to high", xAxis: ChartAxis(title: "Day"),
                    yAxis: ChartAxis(title: "Stress (0–10)", min: 0, max: 10), legend: .hidden,
                    .range(
                        RangeChart(
                            categories: record.days,
                            plots: [RangePlot(title: "Stress", values: record.stress, tint: Color(parsing: "#8E4EC6"))],
                            connected: true)))),
            .subtitle(Subtitle("Medications")),
            .table(
                Table(
                    header: ["Name", "Dose", "Schedule", "Taken"],
                    rows: record.medications.map { [$0.name, $0.dose, $0.schedule, $0.taken] },
                    align: [.left, .right, .left, .right])),
            .subtitle(Subtitle("Care team notes")),
        ]
        elements += record.notes.map { .paragraph(Paragraph(RichText($0))) }
        return Document(
            title: "Weekly Care Summary",
            header: "\(record.patient.week) update for \(record.patient.name)",
            metadata: Metadata(author: "Folio benchmark", creationDate: Date(timeIntervalSince1970: 1_763_280_000)),
            elements: elements)
    }
}
