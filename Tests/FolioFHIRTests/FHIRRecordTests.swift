import Foundation
import XCTest

@testable import FolioData
@testable import FolioFHIR
@testable import FolioModel

/// FHIR R4 exports read into report records: the values a clinician would check, for every field.
final class FHIRRecordTests: XCTestCase {
    private let fixture = FHIRTestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/fhir-export").path

    private func records(_ path: String, period: String = "2026-11-09/2026-11-15", zone: String = "America/New_York") throws -> (
        records: [String: TreeValue], order: [String], notes: [String]
    ) {
        let export = try FHIRExport(path: path, options: try FHIRImportOptions(period: period, zone: zone))
        var byID: [String: TreeValue] = [:]
        var order: [String] = []
        try export.forEachRecord { record in
            let id = record.value(at: "patient.id")?.text ?? "?"
            byID[id] = record
            order.append(id)
        }
        return (byID, order, export.notes)
    }

    private func numbers(_ value: TreeValue?) -> [Double?] {
        guard case .array(let items)? = value else { return [] }
        return items.map { if case .number(let n) = $0 { n } else { nil } }
    }

    private func number(_ value: TreeValue?) -> Double? { if case .number(let n)? = value { n } else { nil } }

    func testTimesAreReadWithOffsetsFractionsAndDatesOnTheZonesLocalDay() throws {
        let options = try FHIRImportOptions(period: "2026-11-09/2026-11-15", zone: "America/New_York")
        let clock = options.clock
        let late = try XCTUnwrap(FHIRTime.parse("2026-11-10T02:30:00Z", zone: clock))
        XCTAssertEqual(CivilDate.text(clock.day(of: late)), "2026-11-09", "02:30 UTC is the evening before in New York")
        XCTAssertEqual(clock.text(of: late), "2026-11-09T21:30:00-05:00")
        let fraction = try XCTUnwrap(FHIRTime.parse("2026-11-11T09:15:30.5-05:00", zone: clock))
        XCTAssertEqual(clock.text(of: fraction), "2026-11-11T09:15:30.500-05:00")
        let date = try XCTUnwrap(FHIRTime.parse("2026-11-12", zone: clock))
        XCTAssertEqual(CivilDate.text(clock.day(of: date)), "2026-11-12")
        XCTAssertEqual(clock.text(of: date), "2026-11-12T00:00:00-05:00")
        let noOffset = try XCTUnwrap(FHIRTime.parse("2026-11-12T23:30:00", zone: clock))
        XCTAssertEqual(clock.text(of: noOffset), "2026-11-12T23:30:00-05:00", "a time without an offset is the zone's wall clock")
        for bad in ["2026", "2026-11", "2026-02-30", "2026-11-10T25:00:00Z", "2026-11-10T10:00:00+15:00", "10/11/2026", ""] {
            XCTAssertNil(FHIRTime.parse(bad, zone: clock), bad)
        }
        // Across a change of clocks: Paris leaves summer time on 2026-10-25 at 01:00 UTC.
        let paris = try FHIRImportOptions(period: "2026-10-24/2026-10-26", zone: "Europe/Paris").clock
        let beforeChange = try XCTUnwrap(FHIRTime.parse("2026-10-24T22:30:00Z", zone: paris))
        XCTAssertEqual(paris.text(of: beforeChange), "2026-10-25T00:30:00+02:00")
        let afterChange = try XCTUnwrap(FHIRTime.parse("2026-10-25T23:30:00Z", zone: paris))
        XCTAssertEqual(paris.text(of: afterChange), "2026-10-26T00:30:00+01:00")
        XCTAssertEqual(CivilDate.text(paris.day(of: afterChange)), "2026-10-26")
    }

    func testUnitsAreConvertedToTheCanonicalUnitAndUnknownOnesAreNotNumbers() {
        XCTAssertEqual(FHIRUnits.convert(180, from: "[lb_av]", to: "kg") ?? 0, 81.6466266, accuracy: 1e-9)
        XCTAssertEqual(FHIRUnits.convert(98.6, from: "[degF]", to: "Cel"), 37)
        XCTAssertEqual(FHIRUnits.convert(5.5, from: "mmol/L", to: "mg/dL", glucose: true) ?? 0, 99.0858, accuracy: 1e-9)
        XCTAssertNil(FHIRUnits.convert(5.5, from: "mmol/L", to: "mg/dL"), "mmol/L to mg/dL needs the substance's molar mass")
        XCTAssertNil(FHIRUnits.convert(1, from: "kg", to: "Cel"))
        XCTAssertEqual(FHIRUnits.unit(code: nil, system: nil, text: "lbs").ucum, "[lb_av]")
        XCTAssertNil(FHIRUnits.unit(code: "[st_x]", system: "http://unitsofmeasure.org", text: "stone").ucum)
    }

    func testAnExportGivesTheRightValueForEveryField() throws {
        let (records, order, notes) = try records(fixture)
        XCTAssertEqual(order, ["p1", "p2", "ghost"], "patients in export order, then those only referred to; p3 has no data")
        XCTAssertTrue(
            notes.contains("Observation.ndjson:6: not a JSON resource (invalid JSON at column 39: unexpected character)"), "\(notes)")
        XCTAssertFalse(notes.contains { $0.contains("Condition") }, "a Condition is read, not ignored: \(notes)")

        let p1 = try XCTUnwrap(records["p1"])
        XCTAssertEqual(p1.value(at: "patient.name"), .string("Ana Maria Rivera"), "the official name, given names then family")
        // A Condition without a code or status is still on the problem list, named as unnamed.
        XCTAssertEqual(p1.value(at: "problems.0.text"), .string("Problem with no name given"))
        XCTAssertEqual(p1.value(at: "patient.identifier"), .string("MRN-0001"))
        XCTAssertEqual(p1.value(at: "patient.birthDate"), .string("1954-03-02"))
        XCTAssertEqual(p1.value(at: "patient.gender"), .string("female"))
        XCTAssertEqual(p1.value(at: "period.days.0"), .string("2026-11-09"))
        XCTAssertEqual(p1.value(at: "period.days.6"), .string("2026-11-15"))
        XCTAssertEqual(p1.value(at: "period.labels.0"), .string("Mon 9"), "2026-11-09 is a Monday")
        XCTAssertEqual(p1.value(at: "period.labels.6"), .string("Sun 15"))
        XCTAssertEqual(p1.value(at: "period.zone"), .string("America/New_York"))

        // Heart rate: entered-in-error, cancelled, preliminary and a later withdrawn version are left out;
        // 02:30Z on the 10th counts on the 9th; an absolute URL with _history is the same patient.
        XCTAssertEqual(numbers(p1.value(at: "series.heartRate.daily")), [72, 80, 90, nil, nil, nil, nil])
        XCTAssertEqual(p1.value(at: "series.heartRate.unit"), .string("/min"))
        XCTAssertEqual(p1.value(at: "series.heartRate.count"), .number(3))
        XCTAssertEqual(number(p1.value(at: "series.heartRate.mean")) ?? 0, 242.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(p1.value(at: "series.heartRate.min"), .number(72))
        XCTAssertEqual(p1.value(at: "series.heartRate.max"), .number(90))
        XCTAssertEqual(p1.value(at: "series.heartRate.last"), .number(90))
        XCTAssertEqual(p1.value(at: "series.heartRate.points.0.time"), .string("2026-11-09T21:30:00-05:00"))

        // Weight in pounds read as kilograms; the unknown unit is a warning, not a number.
        XCTAssertEqual(numbers(p1.value(at: "series.bodyWeight.daily")), [81.6466266, nil, nil, 81, nil, nil, nil])
        XCTAssertEqual(p1.value(at: "series.bodyWeight.count"), .number(2))
        XCTAssertEqual(numbers(p1.value(at: "series.bodyTemperature.daily"))[4], 37)
        XCTAssertEqual(p1.value(at: "series.bodyTemperature.unit"), .string("Cel"))
        // Glucose: the corrected reading replaces the one it amends (same identifier).
        XCTAssertEqual(numbers(p1.value(at: "series.glucose.daily")), [nil, nil, nil, nil, nil, 110, 100])
        // Blood pressure from the panel's components; an absent diastolic is null, not zero.
        XCTAssertEqual(numbers(p1.value(at: "series.systolic.daily")), [128, 135, nil, nil, nil, nil, nil])
        XCTAssertEqual(numbers(p1.value(at: "series.diastolic.daily")), [82, nil, nil, nil, nil, nil, nil])
        XCTAssertEqual(p1.value(at: "series.diastolic.points.1.value"), .null)
        XCTAssertEqual(p1.value(at: "series.diastolic.count"), .number(1))
        XCTAssertEqual(p1.value(at: "bloodPressure.daily.0"), .array([.number(82), .number(128)]))
        XCTAssertEqual(p1.value(at: "bloodPressure.daily.1"), .array([]))
        // Steps: absent data is null (never zero); a date-only reading is on its date.
        XCTAssertEqual(numbers(p1.value(at: "series.steps.daily")), [nil, 5400, nil, nil, nil, nil, nil])
        XCTAssertEqual(p1.value(at: "series.steps.points.0.value"), .null)
        // Another code: its own series under codes, in its own unit; a reading after the period is not counted.
        XCTAssertEqual(p1.value(at: "codes.http://loinc.org|39156-5.unit"), nil, "dotted paths cannot reach a URL key")
        guard case .object(let codes)? = p1["codes"] else { return XCTFail("no codes") }
        XCTAssertEqual(codes.map(\.key), ["http://loinc.org|39156-5"])
        XCTAssertEqual(codes.first?.value["unit"], .string("kg/m2"))
        XCTAssertEqual(codes.first?.value["name"], .string("Body mass index"))
        // Medication adherence: given of recorded per day; entered-in-error left out.
        XCTAssertEqual(p1.value(at: "medications.0.name"), .string("Lisinopril 10 MG Oral Tablet"))
        XCTAssertEqual(numbers(p1.value(at: "medications.0.adherence.daily")), [0.5, 1, nil, nil, nil, nil, nil])
        XCTAssertEqual(p1.value(at: "medications.0.adherence.mean"), .number(0.75))
        let warnings = Dictionary(
            uniqueKeysWithValues: numbersByReason(p1["warnings"]))
        XCTAssertEqual(warnings["an observation with status entered-in-error"], 2)
        XCTAssertEqual(warnings["an observation with status cancelled"], 1)
        XCTAssertEqual(warnings["an observation with status preliminary"], 1)
        XCTAssertEqual(warnings["a reading replaced by an amended or corrected one"], 1)
        XCTAssertEqual(warnings["unknown unit \"[st_x]\" for bodyWeight (expected kg)"], 1)
        XCTAssertEqual(warnings["a medication administration with status entered-in-error"], 1)

        // Readings at the edges of the period in the zone: 23:59:59 the day before is out, midnight and 23:30 are in.
        let p2 = try XCTUnwrap(records["p2"])
        XCTAssertEqual(numbers(p2.value(at: "series.heartRate.daily")), [68, nil, nil, nil, nil, nil, 70])
        XCTAssertEqual(p2.value(at: "series.oxygenSaturation.points.0.value"), .number(97), "a fraction of 1 is a percentage")
        XCTAssertEqual(p2.value(at: "series.painSeverity.last"), .number(4))
        XCTAssertEqual(p2.value(at: "patient.identifier"), .null, "no MR-typed identifier")
        XCTAssertEqual(p2["medications"], .array([]))
        XCTAssertNil(p2["bloodPressure"])

        let ghost = try XCTUnwrap(records["ghost"])
        XCTAssertEqual(ghost.value(at: "patient.name"), .null)
        XCTAssertEqual(ghost.value(at: "warnings.0.reason"), .string("the Patient Patient/ghost is not in the export"))
    }

    private func numbersByReason(_ warnings: TreeValue?) -> [(String, Int)] {
        guard case .array(let items)? = warnings else { return [] }
        return items.compactMap { item in
            guard case .string(let reason)? = item["reason"], case .number(let count)? = item["count"] else { return nil }
            return (reason, Int(count))
        }
    }

    func testAFolderReadsOnlyItsRegularFiles() throws {
        let folder = try FHIRTestSupport.temporaryDirectory()
        for name in ["Patient.ndjson", "Observation.ndjson"] {
            try FileManager.default.copyItem(atPath: "\(fixture)/\(name)", toPath: folder.appendingPathComponent(name).path)
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("nested.json"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.ndjson").path, withDestinationPath: "\(fixture)/Observation.ndjson")
        let (records, _, notes) = try records(folder.path)
        XCTAssertEqual(records.count, 3)
        XCTAssertTrue(notes.contains("nested.json: not a regular file; ignored"), "\(notes)")
        XCTAssertTrue(notes.contains("link.ndjson: not a regular file; ignored"), "\(notes)")
    }

    func testEveryPatientGetsARecordWithAllPatients() throws {
        let export = try FHIRExport(
            path: fixture, options: try FHIRImportOptions(period: "2026-11-09/2026-11-15", zone: "UTC", allPatients: true))
        var ids: [String] = []
        try export.forEachRecord { ids.append($0.value(at: "patient.id")?.text ?? "?") }
        XCTAssertEqual(ids, ["p1", "p2", "p3", "ghost"])
    }

    func testABundleIsReadWithItsUrnReferencesAndVersions() throws {
        func entry(_ fullUrl: String, _ resource: String) -> String {
            #"{"fullUrl":"\#(fullUrl)","resource":\#(resource),"request":{"method":"POST","url":"X"}}"#
        }
        let patient = #"{"resourceType":"Patient","id":"b1","name":[{"family":"Berg","given":["Ines"]}]}"#
        let weight = { (id: String, value: String, status: String, subject: String, version: String) in
            #"{"resourceType":"Observation","id":"\#(id)","meta":{"versionId":"\#(version)"},"status":"\#(status)","code":{"coding":[{"system":"http://loinc.org","code":"29463-7"}]},"subject":{"reference":"\#(subject)"},"effectivePeriod":{"start":"2026-11-10T10:00:00+01:00"},"valueQuantity":{"value":\#(value),"unit":"lb","system":"http://unitsofmeasure.org","code":"[lb_av]"}}"#
        }
        let uuid = "urn:uuid:6F1B0A6E-8C3B-4C8A-9E4E-0A1B2C3D4E5F"
        // w3 withdrawn, then (without versions) found again as final: a withdrawal anywhere stands.
        let withdrawn = weight("w3", "999", "entered-in-error", uuid, "").replacingOccurrences(of: #""meta":{"versionId":""},"#, with: "")
        let bundle = """
            {"resourceType":"Bundle","type":"transaction","entry":[
            \(entry(uuid, patient)),
            \(entry("urn:uuid:1", weight("w1", "200", "final", uuid.lowercased(), "2"))),
            \(entry("urn:uuid:2", weight("w1", "100", "final", uuid, "1"))),
            \(entry("urn:uuid:3", weight("w2", "150", "amended", "https://ehr.example/fhir/Patient/b1", "1"))),
            \(entry("urn:uuid:4", withdrawn)),
            \(entry("urn:uuid:5", weight("w3", "999", "final", uuid, "").replacingOccurrences(of: #""meta":{"versionId":""},"#, with: ""))),
            {"request":{"method":"DELETE","url":"Observation/9"}}]}
            """
        let export = try FHIRExport(
            bundle: Data(bundle.utf8), options: try FHIRImportOptions(period: "2026-11-10/P1D", zone: "Europe/Berlin"))
        var records: [TreeValue] = []
        try export.forEachRecord { records.append($0) }
        XCTAssertEqual(records.count, 1, "every reference names the one Patient")
        let record = try XCTUnwrap(records.first)
        XCTAssertEqual(record.value(at: "patient.name"), .string("Ines Berg"))
        // w1 version 2 (200 lb) wins over version 1, though read first; w2 (amended, same instant) replaces it.
        XCTAssertEqual(record.value(at: "series.bodyWeight.count"), .number(1))
        XCTAssertEqual(number(record.value(at: "series.bodyWeight.last")) ?? 0, 150 * 0.45359237, accuracy: 1e-9)
        XCTAssertEqual(record.value(at: "series.bodyWeight.points.0.time"), .string("2026-11-10T10:00:00+01:00"))
        XCTAssertEqual(record.value(at: "warnings.1.reason"), .string("an observation with status entered-in-error"))
    }

    /// Each export's SQLite index is closed with it, whatever order its statements are released in:
    /// the fuzzer found memory growing per input when a connection outlived its statements.
    func testAnExportsIndexIsClosedWithIt() throws {
        let options = try FHIRImportOptions(period: "2026-11-09/P7D", zone: "UTC")
        let bundle = try Data(contentsOf: FHIRTestSupport.root.appendingPathComponent("Fuzz/corpus-fhir/bundle.json"))
        func run(_ count: Int) throws {
            for _ in 0..<count {
                let export = try FHIRExport(bundle: bundle, options: options)
                try export.forEachRecord { _ = $0.json }
            }
        }
        try run(5)
        let before = SQLiteDatabase.memoryInUse
        try run(60)
        let grown = SQLiteDatabase.memoryInUse - before
        XCTAssertLessThan(grown, 1 << 16, "60 exports left SQLite holding \(grown) more bytes: an index outlived its export")
    }

    /// `--period last-week`: the Monday-to-Sunday week before today's, today counted in the zone.
    func testLastWeekIsTheMondayToSundayBeforeTodaysWeekInTheZone() throws {
        // Every day of the week of Monday 2026-11-16 gives the week of Monday 2026-11-09.
        for offset in Int64(0)...6 {
            let today = CivilDate.days(year: 2026, month: 11, day: 16) + offset
            XCTAssertEqual(FHIRPeriod.week(before: today).text, "2026-11-09/2026-11-15", "\(CivilDate.text(today))")
        }
        XCTAssertEqual(FHIRPeriod.week(before: CivilDate.days(year: 2027, month: 1, day: 3)).text, "2026-12-21/2026-12-27")
        XCTAssertEqual(FHIRPeriod.week(before: CivilDate.days(year: 1970, month: 1, day: 1)).text, "1969-12-22/1969-12-28")
        // Monday 03:00 UTC is still Sunday evening in New York.
        let mondayMorning = CivilDate.days(year: 2026, month: 11, day: 16) * 86_400 + 3 * 3_600
        let utc = try FHIRImportOptions(period: "last-week", zone: "UTC", now: mondayMorning)
        XCTAssertEqual(utc.periodText, "2026-11-09/2026-11-15")
        let newYork = try FHIRImportOptions(period: "last-week", zone: "America/New_York", now: mondayMorning)
        XCTAssertEqual(newYork.periodText, "2026-11-02/2026-11-08")
        XCTAssertEqual(newYork.period?.dayCount, 7)
        XCTAssertThrowsError(try FHIRImportOptions(period: "last-week", zone: "Mars/Olympus", now: mondayMorning)) {
            XCTAssertTrue("\($0)".hasPrefix("--zone: "), "\($0)")
        }
    }

    func testBadPeriodsZonesAndBundlesAreOneLineNamingTheField() throws {
        XCTAssertThrowsError(try FHIRImportOptions(period: "2026-11-15/2026-11-09")) {
            XCTAssertEqual("\($0)", "--period: the period ends before it starts")
        }
        XCTAssertThrowsError(try FHIRImportOptions(period: "last week")) { XCTAssertTrue("\($0)".hasPrefix("--period: ")) }
        XCTAssertThrowsError(try FHIRImportOptions(period: "1800-01-01/2026-01-01")) { XCTAssertTrue("\($0)".contains("longer than")) }
        XCTAssertNoThrow(try FHIRImportOptions(period: "1930-01-01/2026-12-31"), "a lifetime of records is one period")
        XCTAssertNil(try FHIRImportOptions(period: nil).period, "without a period: all of the data")
        XCTAssertThrowsError(try FHIRImportOptions(period: "2026-11-09/P7D", zone: "Mars/Olympus")) {
            XCTAssertTrue("\($0)".hasPrefix("--zone: \"Mars/Olympus\" is not an IANA time zone"))
        }
        let options = try FHIRImportOptions(period: "2026-11-09/P7D")
        XCTAssertThrowsError(
            try FHIRExport(bundle: Data(#"{"resourceType":"Bundle","type":"transaction-response"}"#.utf8), options: options)
        ) {
            XCTAssertTrue("\($0)".contains("Bundle.type \"transaction-response\""), "\($0)")
        }
        XCTAssertThrowsError(try FHIRExport(bundle: Data("[1,2".utf8), options: options)) { XCTAssertTrue("\($0)".contains("is not JSON")) }
    }

    func testHostileResourcesAreNotesOrWarningsNeverACrash() throws {
        let lines = [
            "", "null", "[]", #"{"resourceType":7}"#, #"{"resourceType":"Observation"}"#,
            #"{"resourceType":"Observation","status":"final","subject":{"reference":"Patient/h"},"code":{"coding":"x"},"effectiveDateTime":"2026-11-10T00:00:00Z","valueQuantity":{"value":"9"}}"#,
            #"{"resourceType":"Observation","status":"final","subject":{"reference":"Patient/h"},"code":{"coding":[{"system":"http://loinc.org","code":"8867-4"}]},"effectiveDateTime":"2026-11-10T00:00:00Z","valueQuantity":{"value":1e308,"code":"/s"}}"#,
            #"{"resourceType":"Observation","status":"final","subject":{"reference":"Patient/h"},"code":{"coding":[{"system":"http://loinc.org","code":"8867-4"}]},"effectiveDateTime":"2026-11-10T00:00:00Z","valueQuantity":{"value":70,"comparator":">","code":"/min"}}"#,
            #"{"resourceType":"Observation","status":"final","subject":{"reference":"Patient/h"},"code":{"coding":[{"system":"http://loinc.org","code":"8867-4"}]},"effectiveDateTime":"2026","valueQuantity":{"value":70,"code":"/min"}}"#,
            #"{"resourceType":"Observation","status":"final","subject":{"reference":"Patient/h"},"code":{"coding":[{"system":"http://loinc.org","code":"8867-4"}]},"effectiveDateTime":"2026-11-10T00:00:00Z","valueString":"fast"}"#,
            String(repeating: "[", count: 10_000),
        ]
        let file = try FHIRTestSupport.temporaryFile(Data(lines.joined(separator: "\n").utf8), name: "hostile.ndjson")
        let (records, _, notes) = try records(file.path, zone: "UTC")
        XCTAssertTrue(notes.contains("hostile.ndjson:2: not a JSON object"), "\(notes)")
        XCTAssertTrue(
            notes.contains("hostile.ndjson:5: Observation (no id) has no subject and is skipped"), "\(notes)")
        let warnings = Dictionary(uniqueKeysWithValues: numbersByReason(records["h"]?["warnings"]))
        XCTAssertEqual(warnings["a value with comparator > (not an exact reading)"], 1)
        XCTAssertEqual(warnings["a value that is not a number (valueString)"], 1, "a heart rate must be a number")
        XCTAssertEqual(warnings["an observation without a code"], 1)
        XCTAssertEqual(warnings["a time of only a month or a year (2026)"], 1)
        // 1e308 per second is infinite per minute: not a number, never a value.
        XCTAssertEqual(warnings["a value out of range (beyond ±1e15)"], 1)
        XCTAssertNil(records["h"]?.value(at: "series.heartRate"))
    }
}
