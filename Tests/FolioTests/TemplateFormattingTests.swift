import Foundation
import XCTest

@testable import Folio
@testable import FolioData
@testable import FolioTemplate

/// Values in the reader's words (#44): `number`, `unit`, `date` in all seven built-in languages,
/// and `zone` around the days clocks change in America/New_York and Europe/Paris.
final class TemplateFormattingTests: XCTestCase {
    /// The plain text (a title: no markup escaped) a template binds `text` to for `record`, in `language`.
    private func bound(_ text: String, language: String = "en", record: String) throws -> String {
        let template = """
            title: '\(text)'
            metadata: {language: \(language)}
            elements: []
            """
        let tree = try DocumentTemplate(data: Data(template.utf8), format: .yaml).bind(try JSONTreeParser.parse(Data(record.utf8)))
        guard case .string(let result)? = tree["title"] else { throw FolioError(path: "", "no title") }
        return result
    }

    func testNumbersUnitsAndDatesInEveryLanguage() throws {
        let record = #"{"n": 12345.67, "g": 5.4, "d": "2026-11-14", "t": "2026-11-14T12:30:00Z"}"#
        let text =
            "{{n | number: 1}} / {{n | number}} / {{g | unit: mmol/L}} / {{d | date: short}} / {{d | date: medium}} / {{d | date: long}}"
            + " / {{d | date: weekday}} / {{t | zone: America/New_York | date: datetime}}"
        let expected: [String: String] = [
            "en":
                "12,345.7 / 12,346 / 5.4\u{A0}mmol/L / 11/14/2026 / Nov 14, 2026 / November 14, 2026 / Sat, Nov 14 / Nov 14, 2026 at 7:30\u{202F}AM",
            "fr":
                "12\u{202F}345,7 / 12\u{202F}346 / 5,4\u{A0}mmol/L / 14/11/2026 / 14 nov. 2026 / 14 novembre 2026 / sam. 14 nov. / 14 nov. 2026 à 07:30",
            "de":
                "12.345,7 / 12.346 / 5,4\u{A0}mmol/L / 14.11.2026 / 14. Nov. 2026 / 14. November 2026 / Sa. 14. Nov. / 14. Nov. 2026, 07:30",
            "es":
                "12.345,7 / 12.346 / 5,4\u{A0}mmol/L / 14/11/2026 / 14 nov 2026 / 14 de noviembre de 2026 / sáb, 14 nov / 14 nov 2026, 7:30",
            "pt":
                "12\u{202F}345,7 / 12\u{202F}346 / 5,4\u{A0}mmol/L / 14/11/2026 / 14/11/2026 / 14 de novembro de 2026 / sáb., 14/11 / 14/11/2026, 07:30",
            "ar":
                "12,345.7 / 12,346 / 5.4\u{A0}mmol/L / 14\u{200F}/11\u{200F}/2026 / 14 نوفمبر، 2026 / 14 نوفمبر، 2026 / سبت، 14 نوفمبر / 14 نوفمبر، 2026، 7:30\u{A0}ص",
            "zh": "12,345.7 / 12,346 / 5.4\u{A0}mmol/L / 2026/11/14 / 2026年11月14日 / 2026年11月14日 / 11月14日 周六 / 2026年11月14日 07:30",
        ]
        for (language, line) in expected {
            XCTAssertEqual(try bound(text, language: language, record: record), line, language)
        }
        // The unit never parts from its number; French groups with a narrow no-break space.
        XCTAssertTrue(try bound("{{g | unit: mmol/L}}", record: record).contains("\u{00A0}mmol/L"))
        XCTAssertEqual(try bound("{{n | number}}", language: "fr", record: record), "12\u{202F}346")
        // A language the record gives.
        let template = "title: \"{{d | date: long}}\"\nmetadata: {language: \"{{lang}}\"}\nelements: []\n"
        let tree = try DocumentTemplate(data: Data(template.utf8), format: .yaml)
            .bind(try JSONTreeParser.parse(Data(#"{"lang": "de", "d": "2026-11-14"}"#.utf8)))
        XCTAssertEqual(tree["title"], .string("14. November 2026"))
    }

    /// Times an hour apart across a change of the clocks keep their order and their true offsets.
    /// r63: dates are printed in the proleptic Gregorian calendar they are read in (ISO 8601's),
    /// whatever their year: Foundation's calendar alone turns Julian before 1582-10-15 (0001-01-01
    /// printed as "January 3, 1"). Weekdays too (1582-10-04 was a Monday in the proleptic calendar).
    func testDatesOfEveryYearInTheCalendarTheyAreReadIn() throws {
        let cases: [(date: String, medium: String, weekday: String)] = [
            ("0001-01-01", "Jan 1, 1", "Monday, January 1, 1"),
            ("1000-02-29", "", ""),
            ("1000-03-01", "Mar 1, 1000", "Saturday, March 1, 1000"),
            ("1500-03-01", "Mar 1, 1500", "Thursday, March 1, 1500"),
            ("1582-10-04", "Oct 4, 1582", "Monday, October 4, 1582"),
            ("1582-10-15", "Oct 15, 1582", "Friday, October 15, 1582"),
            ("1599-12-31", "Dec 31, 1599", "Friday, December 31, 1599"),
            ("1600-01-01", "Jan 1, 1600", "Saturday, January 1, 1600"),
            ("9999-12-31", "Dec 31, 9999", "Friday, December 31, 9999"),
        ]
        for (date, medium, weekday) in cases where !medium.isEmpty {
            XCTAssertEqual(try bound("{{d | date: medium}}", record: #"{"d": "\#(date)"}"#), medium, date)
            XCTAssertEqual(try bound("{{d | date: \"EEEE, MMMM d, y\"}}", record: #"{"d": "\#(date)"}"#), weekday, date)
        }
        // 1000 was no leap year in the Gregorian calendar (it was in the Julian).
        XCTAssertThrowsError(try bound("{{d | date: medium}}", record: #"{"d": "1000-02-29"}"#))
        XCTAssertEqual(try bound("{{d | date: \"dd.MM.yy\"}}", language: "de", record: #"{"d": "1005-07-04"}"#), "04.07.05")
        XCTAssertEqual(try bound("{{d | date: long}}", language: "es", record: #"{"d": "1492-10-12"}"#), "12 de octubre de 1492")
        XCTAssertEqual(try bound("{{d | date: long}}", language: "fr", record: #"{"d": "1515-09-13"}"#), "13 septembre 1515")
        // A chart's dates and a table's day groups are written by the same formatter.
        XCTAssertEqual(NumberFormat(BuiltInStrings.english).dateString(-62_135_596_800, pattern: "yyyy-MM-dd EEE"), "0001-01-01 Mon")
    }

    func testZonesAroundTheDaysTheClocksChange() throws {
        let cases: [(time: String, zone: String, expected: String)] = [
            ("2026-03-08T06:30:00Z", "America/New_York", "2026-03-08T01:30:00-05:00"),
            ("2026-03-08T07:30:00Z", "America/New_York", "2026-03-08T03:30:00-04:00"),
            ("2026-11-01T05:30:00Z", "America/New_York", "2026-11-01T01:30:00-04:00"),
            ("2026-11-01T06:30:00Z", "America/New_York", "2026-11-01T01:30:00-05:00"),
            ("2026-03-29T00:30:00Z", "Europe/Paris", "2026-03-29T01:30:00+01:00"),
            ("2026-03-29T01:30:00Z", "Europe/Paris", "2026-03-29T03:30:00+02:00"),
            ("2026-10-25T00:30:00Z", "Europe/Paris", "2026-10-25T02:30:00+02:00"),
            ("2026-10-25T01:30:00Z", "Europe/Paris", "2026-10-25T02:30:00+01:00"),
            ("2026-11-14T07:30:00-05:00", "Europe/Paris", "2026-11-14T13:30:00+01:00"),
            ("2026-11-14", "Europe/Paris", "2026-11-14"),
        ]
        for (time, zone, expected) in cases {
            XCTAssertEqual(try bound("{{t | zone: \(zone)}}", record: #"{"t": "\#(time)"}"#), expected, "\(time) in \(zone)")
        }
        // Shown at the offset the time carries: the reading's own clock.
        XCTAssertEqual(try bound("{{t | date: time}}", record: #"{"t": "2026-11-01T01:30:00-05:00"}"#), "1:30\u{202F}AM")
        XCTAssertEqual(
            try bound("{{t | zone: Europe/Paris | date: \"HH:mm\"}}", language: "fr", record: #"{"t": "2026-10-25T01:30:00Z"}"#), "02:30")
    }

    func testAgeCountsWholeYearsToTheBirthday() throws {
        let record = #"{"born": "1980-11-15", "leap": "2000-02-29"}"#
        XCTAssertEqual(try bound("{{born | age: 2026-11-14}} years", record: record), "45 years")
        XCTAssertEqual(try bound("{{born | age: 2026-11-15}} years", record: record), "46 years")
        XCTAssertEqual(try bound("{{leap | age: 2026-02-28}} years", record: record), "25 years")
        XCTAssertEqual(try bound("{{leap | age: 2026-03-01}} years", record: record), "26 years")
        // Without a day, today: at least the years since 1980 less one.
        XCTAssertGreaterThanOrEqual(Int(try bound("{{born | age}} years", record: record).prefix { $0.isNumber }) ?? 0, 45)
        XCTAssertThrowsError(try bound("{{born | age: 1970-01-01}} years", record: record))
    }

    func testBadValuesAndArgumentsNameTheField() throws {
        func failure(_ text: String, _ record: String) -> String {
            do {
                _ = try bound(text, record: record)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(
            failure("{{t | zone: Mars/Olympus}}", #"{"t": "2026-11-14T07:30:00Z"}"#),
            "title: zone needs an IANA time zone, such as zone: Europe/Paris")
        XCTAssertTrue(failure("{{t | date: medium}}", #"{"t": "yesterday"}"#).hasPrefix("title: date needs a date"))
        XCTAssertTrue(failure("{{t | date: medium}}", #"{"t": "2026-02-30"}"#).hasPrefix("title: date needs a date"))
        XCTAssertTrue(failure("{{t | date: time}}", #"{"t": "2026-11-14"}"#).contains("is a date alone"))
        XCTAssertTrue(failure("{{t | number}}", #"{"t": "many"}"#).hasPrefix("title: number needs a number"))
        XCTAssertTrue(failure("{{t | unit}}", #"{"t": 5}"#).hasPrefix("title: unit needs the unit's symbol"))
        XCTAssertTrue(failure("{{t | date: medium}}", #"{"t": "2026-11-14T07:30:00+15:00"}"#).hasPrefix("title: date needs a date"))
    }

    /// The document's `metadata.timeZone` (written or bound from the record) is the clocks `date` reads
    /// a time by, unless a `zone` filter names other ones; a date alone stays its day.
    func testTheDocumentsZoneIsTheClocksDatesAreShownBy() throws {
        func bound(_ text: String, zone: String, record: String) throws -> String {
            let template = """
                title: '\(text)'
                metadata: {language: en, timeZone: "\(zone)"}
                elements: []
                """
            let tree = try DocumentTemplate(data: Data(template.utf8), format: .yaml).bind(try JSONTreeParser.parse(Data(record.utf8)))
            guard case .string(let result)? = tree["title"] else { throw FolioError(path: "", "no title") }
            return result
        }
        let record = #"{"t": "2026-11-01T05:30:00Z", "d": "2026-11-01", "zone": "Europe/Paris"}"#
        // 05:30 UTC on the first Sunday of November is 01:30 EDT in New York (the first of the two 01:30s).
        XCTAssertEqual(try bound("{{t | date: time}}", zone: "America/New_York", record: record), "1:30\u{202F}AM")
        XCTAssertEqual(try bound("{{t | date: time}}", zone: "{{zone}}", record: record), "6:30\u{202F}AM")
        XCTAssertEqual(try bound("{{t | zone: Asia/Tokyo | date: time}}", zone: "America/New_York", record: record), "2:30\u{202F}PM")
        XCTAssertEqual(try bound("{{d | date: medium}}", zone: "America/New_York", record: record), "Nov 1, 2026")
        // A report table's cells and day groups follow the same clocks.
        let document = try DocumentDecoder.decode(
            Data(
                """
                title: T
                metadata: {timeZone: America/New_York}
                elements:
                  - type: table
                    records: [{at: "2026-11-01T03:30:00Z"}, {at: "2026-11-01T05:30:00Z"}, {at: "2026-11-01T06:30:00Z"}]
                    columns: [{field: at, format: "date: time"}]
                    groupBy: [{field: at, by: day}]
                """.utf8), format: .yaml)
        guard case .table(let table)? = document.elements.first else { return XCTFail("no table") }
        XCTAssertEqual(
            table.rows.map { $0[0] }, ["Sat, Oct 31, 2026", "11:30\u{202F}PM", "Sun, Nov 1, 2026", "1:30\u{202F}AM", "1:30\u{202F}AM"])
        XCTAssertThrowsError(try DocumentDecoder.decode(Data("title: T\nmetadata: {timeZone: Mars/Olympus}\n".utf8), format: .yaml)) {
            XCTAssertEqual("\($0)".components(separatedBy: ": ").first, "metadata.timeZone")
        }
    }

    /// `duration` writes seconds (or `duration: minutes`, `hours`) in the two largest units that apply.
    func testDurationsInTheirTwoLargestUnits() throws {
        let record = #"{"walk": 5400, "nap": 45, "stay": 93784, "zero": 0, "infusion": 90, "bad": "long"}"#
        XCTAssertEqual(
            try bound(
                "{{walk | duration}} / {{nap | duration}} / {{stay | duration}} / {{zero | duration}} / {{infusion | duration: minutes}}",
                record: record),
            "1\u{A0}h 30\u{A0}min / 45\u{A0}s / 1\u{A0}d 2\u{A0}h / 0\u{A0}s / 1\u{A0}h 30\u{A0}min")
        XCTAssertEqual(try bound("{{stay | duration}}", language: "fr", record: record), "1\u{A0}d 2\u{A0}h")
        XCTAssertThrowsError(try bound("{{walk | duration: weeks}}", record: record)) {
            XCTAssertTrue("\($0)".contains("duration takes the unit of its number: seconds, minutes or hours"), "\($0)")
        }
        XCTAssertThrowsError(try bound("{{bad | duration}}", record: record)) {
            XCTAssertTrue("\($0)".contains("duration needs a number"), "\($0)")
        }
    }

    /// `--zone` is the clocks of a template that names none (and not of one that does), in render,
    /// check and batch.
    func testTheZoneOptionIsATemplatesClocksWhereItNamesNone() throws {
        try TestSupport.integrationOnly()
        let folder = try TestSupport.temporaryDirectory()
        let template = folder.appendingPathComponent("t.yaml")
        try Data("title: \"{{t | date: time}}\"\nelements: []\n".utf8).write(to: template)
        let data = folder.appendingPathComponent("d.jsonl")
        try Data(#"{"t": "2026-11-01T05:30:00Z"}"#.utf8 + [0x0A]).write(to: data)
        let output = folder.appendingPathComponent("t.pdf")
        let render = try TestSupport.run(
            TestSupport.folioBinary.path, ["render", template.path, "--data", data.path, "--zone", "Europe/Paris", "-o", output.path])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertEqual(try TestSupport.pdfInfo(try Data(contentsOf: output))["Title"], "6:30\u{202F}AM")
        let batch = try TestSupport.run(
            TestSupport.folioBinary.path,
            [
                "batch", template.path, "--data", data.path, "--zone", "Asia/Tokyo", "--out", folder.appendingPathComponent("out").path,
                "--quiet",
            ])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        XCTAssertEqual(
            try TestSupport.pdfInfo(try Data(contentsOf: folder.appendingPathComponent("out/record-1.pdf")))["Title"], "2:30\u{202F}PM")
        let bad = try TestSupport.run(
            TestSupport.folioBinary.path, ["render", template.path, "--data", data.path, "--zone", "Mars/Olympus"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("--zone: \"Mars/Olympus\" is not an IANA time zone"), bad.stderr)
    }
}
