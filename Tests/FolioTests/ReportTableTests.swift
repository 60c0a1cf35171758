import FolioModel
import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Tables of records (#44): filtered, sorted, grouped, totalled and flagged the same in the PDF and
/// the HTML; totals that equal a computation made apart from Folio; rules that name a missing
/// field refused in one line; data never read as markup.
final class ReportTableTests: XCTestCase {
    private static let medications = ["Metformin", "Lisinopril", "Insulin", "Paracetamol"]

    /// A medication log of `count` administrations, eight a day from Monday 5 January 2026, each
    /// with its medication, time, dose and status; the doses drawn from a seeded generator.
    private static func log(_ count: Int) -> [[String: Any]] {
        var random = SeededGenerator(seed: 44)
        return (0..<count).map { index in
            let day = index / 8
            let hour = 6 + (index % 8) * 2
            let date = Calendar(identifier: .gregorian).date(byAdding: .day, value: day, to: Self.monday) ?? Self.monday
            let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC") ?? .current, from: date)
            let given = String(format: "%04d-%02d-%02dT%02d:15:00-05:00", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, hour)
            let status = ["given", "given", "given", "refused", "cancelled"][Int.random(in: 0..<5, using: &random)]
            let dose: Double = [2.5, 5, 10, 20][Int.random(in: 0..<4, using: &random)]
            return [
                "medication": medications[index % 4], "given": given, "dose": dose,
                "status": status, "glucose": Int.random(in: 60...240, using: &random),
            ]
        }
    }

    private static let monday: Date = {
        var components = DateComponents()
        (components.year, components.month, components.day) = (2026, 1, 5)
        components.timeZone = TimeZone(identifier: "UTC")
        return Calendar(identifier: .gregorian).date(from: components) ?? Date(timeIntervalSince1970: 0)
    }()

    private func document(records: [[String: Any]], table extra: [String: Any]) throws -> Document {
        var table: [String: Any] = ["type": "table", "caption": "Administrations", "records": records]
        table.merge(extra) { $1 }
        let json = try JSONSerialization.data(withJSONObject: ["title": "Log", "elements": [table]])
        return try DocumentDecoder.decode(json, format: .json)
    }

    private func table(of document: Document) throws -> Table {
        guard case .table(let table)? = document.elements.first else { throw FixtureError("the fixture holds no table first") }
        return table
    }

    private static var logTable: [String: Any] {
        [
            "columns": [
                ["field": "given", "title": "Given", "format": "date: weekdaytime"],
                ["field": "dose", "title": "Dose", "format": "number: 1 | unit: mg"],
                ["field": "status", "title": "Status"],
                ["field": "glucose", "title": "Glucose"],
            ],
            "where": [["field": "status", "op": "!=", "value": "cancelled"]],
            "groupBy": ["medication", ["field": "given", "by": "week"]],
            "sortBy": ["given"],
            "subtotals": ["dose": "sum", "given": "count"],
            "total": ["dose": "sum", "given": "count"],
            "highlight": [["when": ["field": "glucose", "op": ">", "value": 180], "style": "alert", "label": "High"]],
        ]
    }

    /// 5,000 administrations grouped by medication and week: every subtotal and the total equal the
    /// sums computed here from the generated records, in the order the groups should come.
    func testAMedicationLogsSubtotalsAndTotalEqualAnIndependentComputation() throws {
        let records = Self.log(5000)
        let document = try document(records: records, table: Self.logTable)
        let table = try table(of: document)

        // Computed apart: medications by name, weeks in order (record index / 56 is its week).
        var expected: [(count: Int, dose: Double)] = []
        var total = (count: 0, dose: 0.0)
        for medication in Self.medications.sorted() {
            var weeks: [Int: (count: Int, dose: Double)] = [:]
            for (index, record) in records.enumerated()
            where record["medication"] as? String == medication && record["status"] as? String != "cancelled" {
                let dose = record["dose"] as? Double ?? 0
                let week = weeks[index / 56] ?? (0, 0)
                weeks[index / 56] = (week.count + 1, week.dose + dose)
                total.count += 1
                total.dose += dose
            }
            for week in weeks.keys.sorted() { expected.append(weeks[week] ?? (0, 0)) }
            expected.append(weeks.values.reduce((0, 0.0)) { ($0.0 + $1.count, $0.1 + $1.dose) })
        }
        func number(_ text: String) -> Double? {
            Double(text.replacingOccurrences(of: ",", with: "").replacingOccurrences(of: "\u{00A0}mg", with: ""))
        }
        let subtotals = table.rows.indices.filter { table.kind(ofRow: $0).role == .subtotal }
        XCTAssertEqual(subtotals.count, expected.count)
        for (row, want) in zip(subtotals, expected) {
            let cells = table.rows[row]
            let count = NumberFormat.groupingThousands(want.count, separator: ",")
            XCTAssertTrue(cells[0].hasSuffix(": \(count)"), "\(cells[0]) counts \(count)")
            XCTAssertEqual(number(cells[1]) ?? -1, want.dose, accuracy: 0.001, "row \(row): \(cells)")
        }
        let totalRow = try XCTUnwrap(table.rows.indices.last)
        XCTAssertEqual(table.kind(ofRow: totalRow).role, .total)
        XCTAssertEqual(table.rows[totalRow][0], "Total: \(NumberFormat.groupingThousands(total.count, separator: ","))")
        XCTAssertEqual(number(table.rows[totalRow][1]) ?? -1, total.dose, accuracy: 0.001)
        // Data rows: the shown records, none cancelled, each group's in time order.
        let data = table.rows.indices.filter { table.kind(ofRow: $0).role == .data }
        XCTAssertEqual(data.count, total.count)
        XCTAssertFalse(table.rows.contains { $0.contains("cancelled") })
        // Within each group the records are in time order (sortBy given, though given also groups by week).
        var previous: Double?
        for row in table.rows.indices {
            guard table.kind(ofRow: row).role == .data else {
                previous = nil
                continue
            }
            guard case .text(let given)? = table.values?.rows[row].first, let instant = ISODate.parse(given) else {
                return XCTFail("row \(row) keeps its time")
            }
            if let previous { XCTAssertLessThanOrEqual(previous, instant, "row \(row)") }
            previous = instant
        }

        // The same table in both outputs: the total's words in the PDF's text and the HTML's foot.
        let pdf = try document.pdf(options: TestSupport.sampleOptions)
        let text = try TestSupport.pdfText(pdf)
        let totalText = "Total: \(NumberFormat.groupingThousands(total.count, separator: ","))"
        XCTAssertTrue(text.contains(totalText), "the PDF shows \(totalText)")
        // A group split by a page says so over its rest (the field's name is its title: it is not a column).
        XCTAssertNotNil(
            text.range(of: #"(medication: [A-Za-z]+|Week of [A-Z][a-z]+ \d+, 2026) \(continued\)"#, options: .regularExpression),
            "a group split by a page says it continues")
        let html = try document.html(options: TestSupport.sampleOptions)
        XCTAssertTrue(html.contains("<tfoot><tr class=\"folio-total\"><th scope=\"row\">\(totalText)</th>"), "the total is the foot")
        XCTAssertEqual(html.components(separatedBy: "scope=\"rowgroup\"").count - 1, table.rowKinds.filter { $0.role == .group }.count)
    }

    /// The structure a screen reader walks: header row in THead, groups' headers and the totals'
    /// labels as row headers, the total in TFoot; the checkers pass the whole log.
    func testGroupsAndTotalsAreTaggedForAScreenReader() throws {
        let document = try document(records: Self.log(300), table: Self.logTable)
        let pdf = try document.pdf(options: TestSupport.sampleOptions)
        let readable = try TestSupport.readablePDF(pdf)
        for element in ["/S /THead", "/S /TBody", "/S /TFoot", "/Scope /Row", "/Scope /Column"] {
            XCTAssertTrue(readable.contains(element), "the structure has \(element)")
        }
        XCTAssertEqual(readable.components(separatedBy: "/S /TFoot").count - 1, 1, "one foot")
        // The independent checkers are the test venv's (make test); the structure above is checked here always.
        guard ProcessInfo.processInfo.environment["FOLIO_UNIT_ONLY"] == nil else { return }
        let file = try TestSupport.temporaryFile(pdf, name: "report-table.pdf")
        try TestSupport.assertPassesPDFUACheckers([file.path])
    }

    /// Numbers sort as numbers and dates as the instants they are (an offset counted), whatever
    /// the data wrote them as; a record without the field sorts last; `limit` keeps the first.
    func testSortingReadsNumbersAndDatesAsSuch() throws {
        let records: [[String: Any]] = [
            ["name": "a", "n": 10, "at": "2026-03-08T01:30:00-05:00"],
            ["name": "b", "n": 9, "at": "2026-03-08T07:00:00+01:00"],
            ["name": "c", "n": "100", "at": "2026-03-08"],
            ["name": "d"],
        ]
        func order(_ sort: Any, limit: Int? = nil) throws -> [String] {
            var extra: [String: Any] = ["columns": ["name"], "sortBy": sort]
            if let limit { extra["limit"] = limit }
            return try table(of: document(records: records, table: extra)).rows.map { $0[0] }
        }
        XCTAssertEqual(try order(["n"]), ["b", "a", "c", "d"])
        XCTAssertEqual(try order(["-n"]), ["c", "a", "b", "d"])
        // 07:00+01:00 is 06:00 UTC, before 01:30-05:00 (06:30 UTC); a date alone is its midnight.
        XCTAssertEqual(try order(["at"]), ["c", "b", "a", "d"])
        XCTAssertEqual(try order([["field": "at", "order": "descending"]], limit: 2), ["a", "b"])
    }

    /// `where` compares numbers, dates and text; a record without the field meets no comparison
    /// (not an error) but `absent`.
    func testWhereComparesAndAMissingFieldIsFalse() throws {
        let records: [[String: Any]] = [
            ["name": "a", "glucose": 200, "ward": "4 West"],
            ["name": "b", "glucose": 90],
            ["name": "c", "ward": "ICU", "glucose": "181"],
        ]
        func names(_ condition: [String: Any]) throws -> [String] {
            try table(of: document(records: records, table: ["columns": ["name"], "where": [condition]])).rows.map { $0[0] }
        }
        XCTAssertEqual(try names(["field": "glucose", "op": ">", "value": 180]), ["a", "c"])
        XCTAssertEqual(try names(["field": "ward", "op": "==", "value": "ICU"]), ["c"])
        XCTAssertEqual(try names(["field": "ward", "op": "!=", "value": "ICU"]), ["a"])
        XCTAssertEqual(try names(["field": "ward", "op": "absent"]), ["b"])
        XCTAssertEqual(try names(["field": "ward", "op": "contains", "value": "west"]), ["a"])
        XCTAssertEqual(try names(["field": "name", "op": "in", "value": ["a", "c", "z"]]), ["a", "c"])
    }

    /// A rule naming a field no record has is one line naming the rule; so is a muted highlight
    /// without a word, a total of a column not shown and a record that is not an object.
    func testARuleNamingAMissingFieldIsOneLineNamingTheRule() throws {
        let records: [[String: Any]] = [["medication": "A", "dose": 1]]
        func error(_ extra: [String: Any], records: [Any] = records) -> String {
            do {
                var table: [String: Any] = ["type": "table", "records": records, "columns": ["medication", "dose"]]
                table.merge(extra) { $1 }
                let json = try JSONSerialization.data(withJSONObject: ["title": "T", "elements": [table]])
                _ = try DocumentDecoder.decode(json, format: .json)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(error(["groupBy": ["medicaton"]]), "elements[0].groupBy[0].field: no record has the field \"medicaton\"")
        XCTAssertEqual(error(["sortBy": ["-dos"]]), "elements[0].sortBy[0].field: no record has the field \"dos\"")
        XCTAssertEqual(
            error(["where": [["field": "x", "op": ">", "value": 1]]]), "elements[0].where[0].field: no record has the field \"x\"")
        XCTAssertEqual(error(["total": ["glucose": "sum"]]), "elements[0].total.glucose: no column shows the field \"glucose\"")
        XCTAssertEqual(
            error(["highlight": [["when": ["field": "dose", "op": ">", "value": 0], "style": "muted"]]]),
            "elements[0].highlight[0].label: a muted highlight needs a label: colour alone does not tell a reader why (WCAG 1.4.1)")
        XCTAssertEqual(error(["total": ["dose": "median"]]).components(separatedBy: "\n").count, 1)
        XCTAssertTrue(error(["total": ["dose": "median"]]).hasPrefix("elements[0].total.dose: unknown value \"median\""))
        XCTAssertEqual(
            error([:], records: [["medication": "A"], "B"]), "elements[0].records[1]: expected an object of fields, found \"B\"")
        XCTAssertEqual(
            error(["groupBy": [["field": "medication", "by": "week"]]]),
            "elements[0].records[0].medication: groupBy[0] groups by week, which needs a date such as 2026-11-14; found \"A\"")
        XCTAssertEqual(
            error(["crosstab": ["rows": "medication", "columns": ["field": "medication", "by": "month"]]]),
            "elements[0].records[0].medication: crosstab.columns groups by month, which needs a date such as 2026-11-14; found \"A\"")
        XCTAssertEqual(
            error(["columns": [["field": "dose", "format": "date: short"]]]),
            "elements[0].records[0].dose: date needs a date such as 2026-11-14 or 2026-11-14T07:30:00Z, but dose is a number")
    }

    /// A highlight adds its word to the cell's text (what a screen reader and a greyscale print get)
    /// and its colour; a row highlight colours every cell and puts its word first.
    func testAHighlightAddsAWordAsWellAsAColour() throws {
        let records: [[String: Any]] = [
            ["name": "a", "glucose": 212, "status": "given"],
            ["name": "b", "glucose": 100, "status": "refused"],
        ]
        let document = try document(
            records: records,
            table: [
                "columns": ["name", "glucose", "status"],
                "highlight": [
                    ["when": ["field": "glucose", "op": ">", "value": 180], "style": "alert", "label": "High"],
                    ["when": ["field": "status", "op": "==", "value": "refused"], "style": "muted", "label": "Refused", "target": "row"],
                ],
            ])
        let table = try table(of: document)
        XCTAssertEqual(table.rows, [["a", "212 **High**", "given"], ["b **Refused**", "100", "refused"]])
        XCTAssertEqual(table.highlights, [.init(row: 0, cell: 1, style: .alert), .init(row: 1, cell: nil, style: .muted)])
        let pdf = try document.pdf(options: TestSupport.sampleOptions)
        let text = try TestSupport.pdfText(pdf)
        XCTAssertTrue(text.contains("212 High"), text)
        XCTAssertTrue(text.contains("b Refused"), text)
        // The alert's tint (#FDECEA) fills the flagged cell, and only it.
        let pixels = try TestSupport.rasterize(pdf, dpi: 72)
        let tinted = pixels.filter { abs(Int($0.r) - 0xFD) <= 2 && abs(Int($0.g) - 0xEC) <= 2 && abs(Int($0.b) - 0xEA) <= 2 }
        XCTAssertGreaterThan(tinted.count, 300, "the flagged cell is tinted")
        XCTAssertLessThan(tinted.count, 8000, "only the flagged cell is tinted")
        let html = try document.html(options: TestSupport.sampleOptions)
        XCTAssertTrue(html.contains("<td data-highlight=\"alert\" class=\"folio-right\">212 <strong>High</strong></td>"), html)
        XCTAssertTrue(html.contains("<tr class=\"folio-hl-muted\">"), html)
        XCTAssertTrue(html.contains(" tr td[data-highlight=alert]{background:#FDECEA;color:#B42318}"), html)
    }

    /// A record's text is data: markup characters in it are shown as written, never as bold text or a
    /// link whose words hide its address, in both outputs.
    func testRecordValuesAreNeverReadAsMarkup() throws {
        let records: [[String: Any]] = [["note": "**loud** [click](https://evil.example) <script>x</script>", "n": 1]]
        let document = try document(records: records, table: ["columns": ["note", "n"], "groupBy": ["note"]])
        let text = try TestSupport.pdfText(try document.pdf(options: TestSupport.sampleOptions))
        XCTAssertTrue(text.contains("**loud** [click](https://evil.example) <script>x</script>"), text)
        let html = try document.html(options: TestSupport.sampleOptions)
        XCTAssertFalse(html.contains("<strong>loud"), html)
        // An address written out stays a link to itself, as in every table cell; never "click" hiding one.
        XCTAssertFalse(html.contains(">click</a>"), html)
        XCTAssertTrue(html.contains("[click](<a href=\"https://evil.example\" rel=\"noopener noreferrer\">https://evil.example</a>)"), html)
        XCTAssertFalse(html.contains("<script>x"), html)
    }

    /// Without columns, a table of records shows every field of its records, in the order first met;
    /// a template binds the records from its data.
    func testATemplateBindsRecordsAndColumnsDefaultToTheirFields() throws {
        let template = try DocumentTemplate(
            data: Data(
                """
                title: Doses
                elements:
                  - {type: table, records: "{{doses}}", total: {dose: sum}}
                """.utf8), format: .yaml)
        let record = try DocumentDecoder.tree(
            Data(#"{"doses": [{"drug": "A", "dose": 2}, {"drug": "B", "dose": 3, "route": "oral"}]}"#.utf8), format: .json)
        let document = try template.document(for: record, number: 1)
        let table = try table(of: document)
        XCTAssertEqual(table.header, ["drug", "dose", "route"])
        XCTAssertEqual(table.rows, [["A", "2", ""], ["B", "3", "oral"], ["Total", "5", ""]])
        XCTAssertEqual(table.align, [.left, .right, .left])
    }

    /// A crosstab: a row per medication, a column per week (the days of a week together, in order),
    /// each cell the sum of its doses; a total column and a total row that equal sums made apart.
    func testACrosstabSumsEachCellRowAndColumn() throws {
        let all = Self.log(400)
        let kept = all.indices.filter { all[$0]["status"] as? String != "cancelled" }
        let records = kept.map { all[$0] }
        let document = try document(
            records: records,
            table: [
                "crosstab": [
                    "rows": ["field": "medication", "title": "Medication"], "columns": ["field": "given", "by": "week"], "value": "dose",
                ]
            ])
        let table = try table(of: document)
        let weeks = Set(kept.map { $0 / 56 }).count
        XCTAssertEqual(table.header?.count, weeks + 2)
        XCTAssertEqual(table.header?.first, "Medication")
        XCTAssertEqual(table.header?[1], "Week of Jan 5, 2026")
        XCTAssertEqual(table.header?.last, "Total")
        XCTAssertEqual(table.rows.map { $0[0] }, Self.medications.sorted() + ["Total"])
        let total = records.reduce(0.0) { $0 + ($1["dose"] as? Double ?? 0) }
        XCTAssertEqual(Double(table.rows.last?.last?.replacingOccurrences(of: ",", with: "") ?? "") ?? -1, total, accuracy: 0.001)
        for (row, medication) in Self.medications.sorted().enumerated() {
            let sum = records.filter { $0["medication"] as? String == medication }.reduce(0.0) { $0 + ($1["dose"] as? Double ?? 0) }
            XCTAssertEqual(
                Double(table.rows[row].last?.replacingOccurrences(of: ",", with: "") ?? "") ?? -1, sum, accuracy: 0.001, medication)
        }
        XCTAssertEqual(table.kind(ofRow: table.rows.count - 1).role, .total)
        let html = try document.html(options: TestSupport.sampleOptions)
        XCTAssertTrue(html.contains("<tfoot><tr class=\"folio-total\"><th scope=\"row\">Total</th>"), html)
    }

    /// A theme names a highlight style's colours; words that would not stand out from their tint
    /// (under 4.5:1) and styles that do not exist are refused naming the field.
    func testAThemeGivesAHighlightStyleItsColoursReadably() throws {
        func theme(_ yaml: String) throws -> ThemeSpec {
            let spec = try DocumentDecoder.decode(ThemeSpec.self, from: try DocumentDecoder.tree(Data(yaml.utf8), format: .yaml))
            try spec.validate(path: "theme")
            return spec
        }
        let spec = try theme("highlights: {alert: {text: \"#7A0000\", background: \"#FFE4E4\"}}")
        let applied = Theme.standard.applying(spec, logo: nil)
        XCTAssertEqual(applied.highlights[.alert]?.text, Color(parsing: "#7A0000"))
        XCTAssertEqual(applied.highlights[.warning], Theme.standard.highlights[.warning])
        XCTAssertThrowsError(try theme("highlights: {alert: {text: \"#FF9999\", background: \"#FFE4E4\"}}")) {
            XCTAssertEqual("\($0)", "theme.highlights.alert.text: the text needs at least 4.5:1 contrast with its background")
        }
        XCTAssertThrowsError(try theme("highlights: {danger: {text: \"#000000\"}}")) {
            XCTAssertEqual("\($0)", "theme.highlights.danger: unknown highlight style; expected one of: alert, warning, good, muted")
        }
    }
}
