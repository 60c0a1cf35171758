import Foundation
import XCTest

@testable import FolioData
@testable import FolioFHIR

/// The whole record: what a clinician reads first (problems, allergies, medications, results),
/// read from IPS documents and hand-made Bundles, with every reference resolved to the right patient.
final class FHIRClinicalRecordTests: XCTestCase {
    private let ips = FHIRTestSupport.root.appendingPathComponent("Tests/FolioFHIRTests/Fixtures/ips")

    /// The records of a Bundle given as JSON text (all of the data, no zone chosen).
    private func records(_ json: String, period: String? = nil, zone: String? = nil) throws -> [TreeValue] {
        let export = try FHIRExport(bundle: Data(json.utf8), options: try FHIRImportOptions(period: period, zone: zone, allPatients: true))
        var all: [TreeValue] = []
        try export.forEachRecord { all.append($0) }
        return all
    }

    private func records(file: URL) throws -> [TreeValue] {
        let export = try FHIRExport(path: file.path, options: try FHIRImportOptions(period: nil, allPatients: true))
        var all: [TreeValue] = []
        try export.forEachRecord { all.append($0) }
        return all
    }

    private func bundle(_ resources: [String], type: String = "collection") -> String {
        let entries = resources.map { #"{"resource":\#($0)}"# }.joined(separator: ",")
        return #"{"resourceType":"Bundle","type":"\#(type)","entry":[\#(entries)]}"#
    }

    private func warnings(_ record: TreeValue) -> [String: Int] {
        guard case .array(let items)? = record["warnings"] else { return [:] }
        var byReason: [String: Int] = [:]
        for item in items {
            if case .string(let reason)? = item["reason"], case .number(let count)? = item["count"] { byReason[reason] = Int(count) }
        }
        return byReason
    }

    private func list(_ record: TreeValue, _ path: String) -> [TreeValue] {
        guard case .array(let items)? = record.value(at: path) else { return [] }
        return items
    }

    // MARK: the IPS examples

    /// Every section of each HL7 IPS example is in the record in the document's order, and every
    /// entry a section lists is resolved to the words of its resource.
    func testEveryIPSExampleSectionAndEntryIsRead() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: ips.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertEqual(files.count, 5)
        for name in files {
            let url = ips.appendingPathComponent(name)
            let source = try JSONTreeParser.parse(try Data(contentsOf: url))
            let resources = FHIRResource.array(source, "entry").compactMap { $0["resource"] }
            let composition = try XCTUnwrap(resources.first { FHIRResource.string($0, "resourceType") == "Composition" })
            let records = try records(file: url)
            XCTAssertEqual(records.count, 1, name)
            let record = try XCTUnwrap(records.first)
            XCTAssertNotEqual(record.value(at: "patient.name"), .null, "\(name): the patient's name")
            let sections = list(record, "composition.sections")
            let titles = FHIRResource.array(composition, "section").compactMap { FHIRResource.string($0, "title") }
            XCTAssertEqual(sections.prefix(titles.count).map { $0["title"]?.text }, titles, name)
            for (section, source) in zip(sections, FHIRResource.array(composition, "section")) {
                let listed = FHIRResource.array(source, "entry").count
                XCTAssertEqual(list(section, "entries").count, listed, "\(name): \(section["title"]?.text ?? "")")
                for entry in list(section, "entries") {
                    XCTAssertNotEqual(entry["type"]?.text, "Reference", "\(name): an entry left unresolved")
                    XCTAssertFalse((entry["text"]?.text ?? "").hasPrefix("Unnamed"), "\(name): \(entry)")
                }
                if listed == 0 {
                    XCTAssertTrue(
                        !list(section, "narrative").isEmpty || section["emptyReason"] != .null, "\(name): an empty section says why")
                }
            }
            XCTAssertFalse(
                warnings(record).keys.contains { $0.hasPrefix("a reference that cannot be resolved") }, "\(name): \(warnings(record))")
        }
    }

    func testTheFirstIPSExampleReadsAsItsNarrativeSays() throws {
        let record = try XCTUnwrap(try records(file: ips.appendingPathComponent("IPS-examples-Bundle-01.json")).first)
        // The Patient has no id, only a urn:uuid full URL: still the record's patient, with a subject outside the Bundle.
        XCTAssertEqual(record.value(at: "patient.name"), .string("Martha DeLarosa"))
        XCTAssertEqual(record.value(at: "patient.subject.identifier.value"), .string("574687583"))
        XCTAssertEqual(record.value(at: "composition.author"), .string("Beetje van Hulp"))
        XCTAssertEqual(record.value(at: "composition.custodian"), .string("Anorg Aniza Tion BV / The best custodian ever"))
        // The Medication a statement refers to gives its name; partial dates stay partial.
        XCTAssertTrue(
            list(record, "medicationList").contains { $0["text"] == .string("Product containing anastrozole (medicinal product)") },
            "\(list(record, "medicationList"))")
        XCTAssertEqual(record.value(at: "problems.0.onset"), .string("2015"))
        XCTAssertEqual(record.value(at: "pastProblems.0.abatement"), .string("2015-03"))
        XCTAssertEqual(record.value(at: "allergies.0.criticality"), .string("high"))
        XCTAssertEqual(record.value(at: "allergies.1.noKnownAllergy"), .bool(true), "\"No known food allergy\" is said as such")
        // HbA1c 7.5 % with no reference range and no interpretation: no flag, its note kept.
        let results = list(record, "results")
        let hba1c = try XCTUnwrap(results.first { $0["name"]?.text.hasPrefix("Hemoglobin A1c") == true })
        XCTAssertEqual(hba1c["value"], .string("7.5%"))
        XCTAssertEqual(hba1c["flag"], .null)
        XCTAssertEqual(hba1c["note"], .string("Above stated goal of 7.0 %"))
        // The blood typing panel groups its members; a categorical value is a value, never "left out".
        XCTAssertEqual(record.value(at: "resultGroups.0.name"), .string("Blood typing"))
        XCTAssertEqual(list(record, "resultGroups.0.results").count, 4)
        XCTAssertEqual(record.value(at: "resultGroups.0.results.0.value"), .string("Blood group A Rh(D) positive"))
        XCTAssertEqual(warnings(record), [:])
        // A section without entries keeps its narrative, as Folio's own blocks.
        let plan = try XCTUnwrap(list(record, "composition.sections").first { $0["title"]?.text == "Plan of Treatment" })
        XCTAssertEqual(
            plan.value(at: "narrative.0.paragraph")?.text.hasPrefix("Continue hormone medication with Anastrozole"), true)
    }

    // MARK: results

    private func observation(
        id: String, code: String = "2823-3", value: String, range: String = "", interpretation: String? = nil,
        time: String = "2026-11-10T08:00:00Z"
    ) -> String {
        let flag =
            interpretation.map {
                #","interpretation":[{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation","code":"\#($0)"}]}]"#
            } ?? ""
        return #"""
            {"resourceType":"Observation","id":"\#(id)","status":"final","category":[{"coding":[{"code":"laboratory"}]}],
             "code":{"coding":[{"system":"http://loinc.org","code":"\#(code)","display":"Potassium"}]},"subject":{"reference":"Patient/p"},
             "effectiveDateTime":"\#(time)","valueQuantity":{"value":\#(value),"unit":"mmol/L","system":"http://unitsofmeasure.org","code":"mmol/L"}\#(range)\#(flag)}
            """#
    }

    /// A value outside its range, or interpreted as abnormal, is flagged in words and a symbol; each kind of flag.
    func testResultsAreFlaggedInWordsForEveryKind() throws {
        let range = #","referenceRange":[{"low":{"value":3.5,"unit":"mmol/L"},"high":{"value":5.1,"unit":"mmol/L"}}]"#
        let cases: [(value: String, interpretation: String?, word: String?, symbol: String?)] = [
            ("5.8", nil, "High", "↑"), ("3.1", nil, "Low", "↓"), ("4.2", nil, nil, nil), ("5.1", nil, nil, nil),
            ("4.2", "H", "High", "↑"), ("4.2", "L", "Low", "↓"), ("7.2", "HH", "Critically high", "↑↑"),
            ("2.1", "LL", "Critically low", "↓↓"),
            ("4.2", "A", "Abnormal", "!"), ("4.2", "AA", "Critically abnormal", "!!"),
            // The source's interpretation is shown as it says, even against the range; normal in words, no symbol.
            ("5.8", "N", "Normal", nil), ("4.2", "NEG", "Negative", nil), ("4.2", "POS", "Positive", "!"),
        ]
        for (position, item) in cases.enumerated() {
            let json = bundle([
                #"{"resourceType":"Patient","id":"p","name":[{"family":"Doe"}]}"#,
                observation(id: "o\(position)", value: item.value, range: range, interpretation: item.interpretation),
            ])
            let record = try XCTUnwrap(try records(json).first)
            let result = try XCTUnwrap(list(record, "results").first, "\(item)")
            XCTAssertEqual(result["flag"]?.textOrNil, item.word, "\(item)")
            XCTAssertEqual(result["flagSymbol"]?.textOrNil, item.symbol, "\(item)")
            XCTAssertEqual(result["range"], .string("3.5–5.1 mmol/L"))
            XCTAssertEqual(result["abnormal"], .bool(item.symbol != nil))
        }
    }

    /// With a period, results are the period's: a corrected result of last year is not among them.
    func testWithAPeriodResultsAreThePeriods() throws {
        let json = bundle([
            #"{"resourceType":"Patient","id":"p"}"#,
            observation(id: "now", value: "4.0", time: "2026-11-10T08:00:00Z"),
            observation(id: "old", value: "4.4", time: "2025-02-10T08:00:00Z").replacingOccurrences(of: "\"final\"", with: "\"corrected\""),
        ])
        let record = try XCTUnwrap(try records(json, period: "2026-11-09/P7D").first)
        XCTAssertEqual(list(record, "results").map { $0["number"] }, [.number(4.0)])
    }

    /// A result measured more than once is a series with its range as a band.
    func testARepeatedResultIsASeriesWithItsRangeAsABand() throws {
        let range = #","referenceRange":[{"low":{"value":3.5},"high":{"value":5.1}}]"#
        let json = bundle([
            #"{"resourceType":"Patient","id":"p"}"#,
            observation(id: "a", value: "4.0", range: range, time: "2026-01-10T08:00:00Z"),
            observation(id: "b", value: "5.6", range: range, time: "2026-03-10T08:00:00Z"),
            observation(id: "c", value: "4.4", range: range, time: "2026-02-10T08:00:00Z"),
        ])
        let record = try XCTUnwrap(try records(json).first)
        let series = try XCTUnwrap(list(record, "resultSeries").first)
        XCTAssertEqual(series["values"], .array([.number(4.0), .number(4.4), .number(5.6)]), "in time order")
        XCTAssertEqual(series.value(at: "thresholds.0.kind"), .string("range"))
        XCTAssertEqual(series.value(at: "thresholds.0.value"), .number(3.5))
        XCTAssertEqual(series.value(at: "thresholds.0.upper"), .number(5.1))
        XCTAssertEqual(series["lastFlag"], .string("↑ High"))
        // Listed once: the latest value, the earlier ones beside it, newest first.
        let rows = list(record, "resultPanels.0.results")
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows.first?["value"], .string("5.6 mmol/L"))
        XCTAssertEqual(rows.first?["earlier"], .string("4.4 mmol/L (2026-02-10 08:00); 4 mmol/L (2026-01-10 08:00)"))
        XCTAssertEqual(rows.first?["count"], .number(3))
    }

    // MARK: references and identity

    /// A Medication is found by reference in the Bundle, contained in the statement, or named by
    /// concept; doses of one drug by reference and by concept are one row.
    func testMedicationsAreResolvedByReferenceContainedOrConcept() throws {
        let rx =
            #"{"coding":[{"system":"http://www.nlm.nih.gov/research/umls/rxnorm","code":"314076","display":"lisinopril 10 MG Oral Tablet"}]}"#
        let json = bundle([
            #"{"resourceType":"Patient","id":"p"}"#,
            #"{"resourceType":"Medication","id":"m1","code":\#(rx)}"#,
            #"{"resourceType":"MedicationStatement","id":"s1","status":"active","subject":{"reference":"Patient/p"},"medicationReference":{"reference":"Medication/m1"},"dosage":[{"text":"one daily"}]}"#,
            ##"{"resourceType":"MedicationRequest","id":"r1","status":"active","intent":"order","subject":{"reference":"Patient/p"},"contained":[{"resourceType":"Medication","id":"c","code":{"text":"Metformin 500 mg"}}],"medicationReference":{"reference":"#c"},"authoredOn":"2026-10-01"}"##,
            #"{"resourceType":"MedicationAdministration","id":"a1","status":"completed","subject":{"reference":"Patient/p"},"medicationReference":{"reference":"Medication/m1"},"effectiveDateTime":"2026-11-10T08:00:00Z"}"#,
            #"{"resourceType":"MedicationAdministration","id":"a2","status":"not-done","subject":{"reference":"Patient/p"},"medicationCodeableConcept":\#(rx),"effectiveDateTime":"2026-11-11T08:00:00Z"}"#,
        ])
        let record = try XCTUnwrap(try records(json, period: "2026-11-09/P7D").first)
        // Current ones newest first: the request of 2026-10-01, then the statement without a date.
        XCTAssertEqual(record.value(at: "medicationList.1.name"), .string("lisinopril 10 MG Oral Tablet"))
        XCTAssertEqual(record.value(at: "medicationList.1.dosage"), .string("one daily"))
        XCTAssertEqual(record.value(at: "medicationList.0.name"), .string("Metformin 500 mg"))
        XCTAssertEqual(record.value(at: "medicationList.0.date"), .string("2026-10-01"))
        let doses = list(record, "medications")
        XCTAssertEqual(doses.count, 1, "one drug, by reference and by concept, is one row: \(doses)")
        XCTAssertEqual(doses.first?.value(at: "adherence.recorded"), .number(2))
        XCTAssertEqual(doses.first?.value(at: "adherence.given"), .number(1))
    }

    /// A Composition of one patient that lists another patient's Condition does not bring it in:
    /// the entry is unresolved (and counted), and each patient's problems are their own.
    func testNoReferenceReachesAnotherPatientsResources() throws {
        let json = bundle([
            #"{"resourceType":"Patient","id":"a","name":[{"family":"Alpha"}]}"#,
            #"{"resourceType":"Patient","id":"b","name":[{"family":"Beta"}]}"#,
            #"{"resourceType":"Condition","id":"cb","subject":{"reference":"Patient/b"},"code":{"text":"Beta's secret diagnosis"}}"#,
            #"{"resourceType":"Composition","id":"x","status":"final","type":{"coding":[{"system":"http://loinc.org","code":"60591-5"}]},"subject":{"reference":"Patient/a"},"date":"2026-11-10","title":"Summary of A","section":[{"title":"Problems","entry":[{"reference":"Condition/cb"}]}]}"#,
        ])
        let records = try records(json)
        let alpha = try XCTUnwrap(records.first { $0.value(at: "patient.id") == .string("a") })
        let beta = try XCTUnwrap(records.first { $0.value(at: "patient.id") == .string("b") })
        XCTAssertFalse(alpha.json.contains("secret"), alpha.json)
        XCTAssertEqual(warnings(alpha)["a reference that cannot be resolved (Condition/cb)"], 1)
        XCTAssertEqual(beta.value(at: "problems.0.text"), .string("Beta's secret diagnosis"))
        XCTAssertEqual(beta["composition"], .null)
    }

    /// A section may list any resource of the Bundle: a dose, an encounter, a specimen are shown by
    /// what they are, not left as unresolved references.
    func testASectionListsResourcesOfAnyType() throws {
        let json = bundle([
            #"{"resourceType":"Patient","id":"p"}"#,
            #"{"resourceType":"MedicationAdministration","id":"d","status":"completed","subject":{"reference":"Patient/p"},"medicationCodeableConcept":{"text":"Ceftriaxone 1 g IV"},"effectiveDateTime":"2026-11-10T08:00:00Z"}"#,
            #"{"resourceType":"Encounter","id":"e","status":"finished","class":{"code":"AMB"},"type":[{"text":"Follow-up visit"}],"subject":{"reference":"Patient/p"},"period":{"start":"2026-11-02"}}"#,
            #"{"resourceType":"Composition","id":"x","status":"final","type":{"coding":[{"system":"http://loinc.org","code":"60591-5"}]},"subject":{"reference":"Patient/p"},"date":"2026-11-10","title":"S","section":[{"title":"Care","entry":[{"reference":"MedicationAdministration/d"},{"reference":"Encounter/e"}]}]}"#,
        ])
        let record = try XCTUnwrap(try records(json).first)
        let entries = list(record, "composition.sections.0.entries")
        XCTAssertEqual(entries.map { $0["text"]?.text }, ["Ceftriaxone 1 g IV", "Follow-up visit"])
        XCTAssertEqual(entries.last?["details"], .string("Finished · from 2026-11-02"))
        XCTAssertEqual(warnings(record), [:])
    }

    /// In an export's NDJSON, a patient summary's section lists a vital sign (kept as a reading) and a
    /// service request (kept only for Compositions); a progress note is listed among the documents.
    func testAnExportsCompositionListsReadingsAndOtherResources() throws {
        let lines = [
            #"{"resourceType":"Patient","id":"p"}"#,
            #"{"resourceType":"Observation","id":"hr","status":"final","subject":{"reference":"Patient/p"},"code":{"coding":[{"system":"http://loinc.org","code":"8867-4"}]},"effectiveDateTime":"2026-11-10T08:00:00Z","valueQuantity":{"value":72,"code":"/min"}}"#,
            #"{"resourceType":"Observation","id":"o2","status":"final","subject":{"reference":"Patient/p"},"code":{"coding":[{"system":"http://loinc.org","code":"3151-8","display":"Inhaled oxygen flow rate"}]},"effectiveDateTime":"2026-11-10T08:00:00Z","valueQuantity":{"value":2,"unit":"L/min"},"component":[{"code":{"coding":[{"system":"http://loinc.org","code":"107117-4"}]},"valueString":"nasal cannula"}]}"#,
            #"{"resourceType":"ServiceRequest","id":"sr","status":"active","intent":"order","subject":{"reference":"Patient/p"},"code":{"text":"Echocardiogram"}}"#,
            #"{"resourceType":"Composition","id":"ips","status":"final","type":{"coding":[{"system":"http://loinc.org","code":"60591-5"}]},"subject":{"reference":"Patient/p"},"date":"2026-11-11","title":"Summary","section":[{"title":"Vital signs","entry":[{"reference":"Observation/hr"},{"reference":"ServiceRequest/sr"}]}]}"#,
            #"{"resourceType":"Composition","id":"note","status":"final","type":{"coding":[{"system":"http://loinc.org","code":"11506-3","display":"Progress note"}]},"subject":{"reference":"Patient/p"},"date":"2026-11-12","title":"Progress note"}"#,
        ]
        let file = try FHIRTestSupport.temporaryFile(Data(lines.joined(separator: "\n").utf8), name: "export.ndjson")
        let record = try XCTUnwrap(try records(file: file).first)
        XCTAssertEqual(record.value(at: "composition.title"), .string("Summary"), "the patient summary, though the note is newer")
        let entries = list(record, "composition.sections.0.entries")
        XCTAssertEqual(entries.map { $0["text"]?.text }, ["Heart rate", "Echocardiogram"])
        XCTAssertEqual(entries.first?["value"], .string("72 /min"))
        XCTAssertEqual(list(record, "compositions").map { $0["text"]?.text }, ["Progress note", "Summary"])
        XCTAssertEqual(warnings(record), [:], "a component in words is not a reading left out")
    }

    /// Two Patients known only by their URNs are two records, each with its own name and data.
    func testPatientsKnownOnlyByFullURLsStayApart() throws {
        let json = #"""
            {"resourceType":"Bundle","type":"transaction","entry":[
             {"fullUrl":"urn:uuid:11111111-1111-4111-8111-111111111111","resource":{"resourceType":"Patient","name":[{"family":"One"}],"birthDate":"2000-01-02"}},
             {"fullUrl":"urn:uuid:22222222-2222-4222-8222-222222222222","resource":{"resourceType":"Patient","name":[{"family":"Two"}]}},
             {"resource":{"resourceType":"Condition","subject":{"reference":"urn:uuid:22222222-2222-4222-8222-222222222222"},"code":{"text":"Asthma"}}}]}
            """#
        let records = try records(json)
        XCTAssertEqual(records.map { $0.value(at: "patient.name")?.text }, ["One", "Two"])
        XCTAssertEqual(records[0].value(at: "patient.id"), .string("11111111-1111-4111-8111-111111111111"))
        XCTAssertEqual(records[0]["problems"], .array([]))
        XCTAssertEqual(records[1].value(at: "problems.0.text"), .string("Asthma"))
        XCTAssertEqual(records[1].value(at: "patient.subject.reference"), .string("urn:uuid:22222222-2222-4222-8222-222222222222"))
    }

    /// `--mask-identifiers`: the values of the named systems are not printed; the subject keeps its value.
    func testIdentifiersOfMaskedSystemsAreMasked() throws {
        let json = bundle([
            #"{"resourceType":"Patient","id":"p","identifier":[{"system":"urn:ssn","value":"123-45-6789"},{"system":"urn:mrn","type":{"coding":[{"code":"MR"}]},"value":"MRN-77"}]}"#
        ])
        var options = try FHIRImportOptions(period: nil, allPatients: true)
        options.maskedIdentifierSystems = ["urn:ssn", "urn:mrn"]
        let export = try FHIRExport(bundle: Data(json.utf8), options: options)
        var record: TreeValue?
        try export.forEachRecord { record = $0 }
        let patient = try XCTUnwrap(record?["patient"])
        XCTAssertEqual(patient.value(at: "identifiers.0.value"), .string("•••• 6789"))
        XCTAssertEqual(patient.value(at: "identifiers.1.value"), .string("••••"), "a short value is masked whole")
        XCTAssertEqual(patient.value(at: "identifiers.1.type"), .string("Medical record number"))
        XCTAssertEqual(patient["identifier"], .string("••••"))
        XCTAssertFalse(patient.json.contains("123-45") || patient.json.contains("MRN-77"), patient.json)
        XCTAssertEqual(patient.value(at: "subject.reference"), .string("Patient/p"))
    }

    // MARK: the defects of the record's readings

    func testCountsAreSummedDuplicatesCountedOnceAndGlucoseAndAnnotatedUnitsRead() throws {
        func reading(_ id: String, _ code: String, _ value: Double, _ unit: String, _ time: String) -> String {
            #"{"resourceType":"Observation","id":"\#(id)","status":"final","subject":{"reference":"Patient/p"},"code":{"coding":[{"system":"http://loinc.org","code":"\#(code)"}]},"effectiveDateTime":"\#(time)","valueQuantity":{"value":\#(value),"system":"http://unitsofmeasure.org","code":"\#(unit)"}}"#
        }
        let json = bundle([
            #"{"resourceType":"Patient","id":"p","birthDate":"2026-01-01"}"#,
            reading("s1", "55423-8", 1200, "{steps}", "2026-11-10T08:00:00Z"),
            reading("s2", "55423-8", 800, "{steps}", "2026-11-10T09:00:00Z"),
            reading("g1", "2345-7", 565, "mg/dL", "2026-11-10T08:00:00Z"), reading("g2", "41653-7", 7, "mmol/L", "2026-11-11T08:00:00Z"),
            reading("h1", "8867-4", 120, "{beats}/min", "2026-11-10T08:00:00Z"),
            reading("h2", "8867-4", 120, "{beats}/min", "2026-11-10T08:00:00Z"),
            reading("o1", "59408-5", 97, "%{saturation}", "2026-11-10T08:00:00Z"),
        ])
        let record = try XCTUnwrap(try records(json, period: "2026-11-10/P2D").first)
        XCTAssertEqual(record.value(at: "series.steps.daily"), .array([.number(2000), .null]), "steps over intervals are summed per day")
        XCTAssertEqual(record.value(at: "series.glucose.max"), .number(565), "serum glucose (2345-7)")
        XCTAssertEqual(record.value(at: "series.glucose.count"), .number(2), "meter glucose (41653-7) in mmol/L too")
        XCTAssertEqual(record.value(at: "series.heartRate.count"), .number(1), "a replayed reading under a new id counts once")
        XCTAssertEqual(record.value(at: "series.oxygenSaturation.last"), .number(97), "%{saturation} is %")
        XCTAssertEqual(warnings(record), [:])
        // A newborn: not an adult, so a template can leave out the adult heart-rate line.
        XCTAssertEqual(record.value(at: "patient.isAdult"), .bool(false))
    }

    /// A date-only reading is its local day's (sorted at its local midnight, so `last` is right); a
    /// month-only reading outside the period makes no record, and inside it is a warning.
    func testDateOnlyAndMonthOnlyTimesArePlacedAsThePeriodsTheyAre() throws {
        func heartRate(_ id: String, _ value: Int, _ time: String, patient: String = "p") -> String {
            #"{"resourceType":"Observation","id":"\#(id)","status":"final","subject":{"reference":"Patient/\#(patient)"},"code":{"coding":[{"system":"http://loinc.org","code":"8867-4"}]},"effectiveDateTime":"\#(time)","valueQuantity":{"value":\#(value),"code":"/min"}}"#
        }
        let json = bundle([
            #"{"resourceType":"Patient","id":"p"}"#, #"{"resourceType":"Patient","id":"q"}"#, #"{"resourceType":"Patient","id":"r"}"#,
            heartRate("a", 70, "2026-11-09T22:00:00-05:00"), heartRate("b", 60, "2026-11-10"),
            heartRate("c", 65, "2026-10", patient: "q"), heartRate("d", 66, "2026-11", patient: "r"),
        ])
        let export = try FHIRExport(
            bundle: Data(json.utf8), options: try FHIRImportOptions(period: "2026-11-09/P7D", zone: "America/New_York"))
        var records: [String: TreeValue] = [:]
        try export.forEachRecord { records[$0.value(at: "patient.id")?.text ?? ""] = $0 }
        let p = try XCTUnwrap(records["p"])
        XCTAssertEqual(p.value(at: "series.heartRate.values"), .array([.number(70), .number(60)]))
        XCTAssertEqual(p.value(at: "series.heartRate.last"), .number(60))
        XCTAssertEqual(p.value(at: "series.heartRate.daily.0"), .number(70))
        XCTAssertEqual(p.value(at: "series.heartRate.daily.1"), .number(60))
        XCTAssertNil(records["q"], "a reading of October is not in a November week")
        XCTAssertEqual(warnings(try XCTUnwrap(records["r"]))["a time of only a month or a year (2026-11)"], 1)
    }

    /// An observation without a status is counted in its patient's warnings, not skipped unseen.
    func testAnObservationWithoutAStatusIsAWarning() throws {
        let json = bundle([
            #"{"resourceType":"Patient","id":"p"}"#,
            #"{"resourceType":"Observation","id":"o","subject":{"reference":"Patient/p"},"code":{"coding":[{"system":"http://loinc.org","code":"8867-4"}]},"effectiveDateTime":"2026-11-10T08:00:00Z","valueQuantity":{"value":70,"code":"/min"}}"#,
        ])
        let record = try XCTUnwrap(try records(json, period: "2026-11-09/P7D").first)
        XCTAssertEqual(warnings(record)["an observation without a status"], 1)
        XCTAssertNil(record.value(at: "series.heartRate"))
    }

    /// Without a period, the record's days are its data's, however far apart.
    func testWithoutAPeriodTheRecordHoldsAllOfTheData() throws {
        let json = bundle([
            #"{"resourceType":"Patient","id":"p"}"#,
            #"{"resourceType":"Observation","id":"w1","status":"final","subject":{"reference":"Patient/p"},"code":{"coding":[{"system":"http://loinc.org","code":"29463-7"}]},"effectiveDateTime":"1990-05-01","valueQuantity":{"value":70,"code":"kg"}}"#,
            #"{"resourceType":"Observation","id":"w2","status":"final","subject":{"reference":"Patient/p"},"code":{"coding":[{"system":"http://loinc.org","code":"29463-7"}]},"effectiveDateTime":"2026-11-10","valueQuantity":{"value":80,"code":"kg"}}"#,
        ])
        let record = try XCTUnwrap(try records(json).first)
        XCTAssertEqual(record.value(at: "period.start"), .string("1990-05-01"))
        XCTAssertEqual(record.value(at: "period.end"), .string("2026-11-10"))
        XCTAssertEqual(record.value(at: "series.bodyWeight.values"), .array([.number(70), .number(80)]))
        XCTAssertEqual(record.value(at: "series.bodyWeight.times.0"), .string("1990-05-01T00:00:00+00:00"))
    }

    // MARK: narrative

    /// A section's XHTML becomes paragraphs, lists and tables of words: no markup, no address, no script.
    func testNarrativeIsReadAsWordsNeverMarkup() {
        let xhtml = #"""
            <div xmlns="http://www.w3.org/1999/xhtml"><p>Allergy to <b>penicillin</b> &amp; nuts&#160;&#x2014; see <a href="https://evil.example/x">the chart</a></p>
            <script>alert(1)</script><img src="https://tracker.example/p.gif" alt="scan"/>
            <ol><li>Walk daily</li><li>Stretch</li></ol>
            <table><thead><tr><th colspan="2">Blood typing</th></tr></thead><tbody><tr><td>Group</td><td>A+</td></tr></tbody></table></div>
            """#
        let blocks = FHIRNarrative.blocks(of: xhtml)
        XCTAssertEqual(blocks.first?["paragraph"], .string("Allergy to penicillin & nuts — see the chart"))
        let text = blocks.map(\.json).joined()
        for forbidden in ["<", "evil.example", "alert", "tracker", "script"] { XCTAssertFalse(text.contains(forbidden), forbidden) }
        XCTAssertTrue(text.contains("scan"), "an image's alt text is kept")
        XCTAssertTrue(blocks.contains { $0["list"] == .array([.string("1. Walk daily"), .string("2. Stretch")]) }, "\(blocks)")
        let table = blocks.first { $0["table"] != nil }?["table"]
        XCTAssertEqual(table?["header"], .array([.string("Blood typing"), .string("")]))
        XCTAssertEqual(table?["rows"], .array([.array([.string("Group"), .string("A+")])]))
    }

    func testHostileNarrativeIsBoundedAndNeverACrash() {
        let deep = String(repeating: "<div>", count: 100_000) + "x" + String(repeating: "</div>", count: 100_000)
        XCTAssertEqual(FHIRNarrative.blocks(of: deep).first?["paragraph"], .string("x"))
        let many = String(repeating: "<p>a</p>", count: 10_000)
        XCTAssertEqual(FHIRNarrative.blocks(of: many).count, FHIRNarrative.maximumBlocks)
        // A tag whose lowercase is longer than it ("İ" is two scalars lowercased) before its attribute.
        XCTAssertEqual(FHIRNarrative.blocks(of: #"<img data-İİİİ="x" ALT="scan"/>"#).first?["paragraph"], .string("scan"))
        for broken in ["<", "<p", "<table><tr><td>", "&#0;&#xD800;&#99999999;&bogus;", "<!-- never closed", "<script>x"] {
            _ = FHIRNarrative.blocks(of: broken)
        }
        XCTAssertEqual(FHIRNarrative.decoded("&#0;&#xD800;&#x41;"), "&#0;&#xD800;A", "NUL and surrogates are not decoded")
        let long = "<p>" + String(repeating: "a", count: 3_000_000) + "</p><p>after</p>"
        let read = FHIRNarrative.blocks(of: long)
        XCTAssertEqual(read.count, 1, "the first million characters are read")
        XCTAssertEqual(read.first?["paragraph"]?.text.count, FHIRNarrative.maximumText)
    }
}
