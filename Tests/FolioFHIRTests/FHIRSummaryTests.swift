import Foundation
import XCTest

@testable import FolioData
@testable import FolioFHIR
@testable import FolioModel

/// What a clinician reads (#55), case by case from small Bundles: every entry named, flags as the
/// source says, the whole dose, comments, current apart from past, one patient per document, authors
/// named, absence said, each test once, the document's language.
final class FHIRSummaryTests: XCTestCase {
    private func records(_ json: String, notes: ((String) -> Void)? = nil) throws -> [TreeValue] {
        let export = try FHIRExport(bundle: Data(json.utf8), options: try FHIRImportOptions(period: nil, allPatients: true))
        var all: [TreeValue] = []
        try export.forEachRecord({ all.append($0) }, note: { notes?($0) })
        for note in export.notes { notes?(note) }
        return all
    }

    private func record(_ json: String) throws -> TreeValue { try XCTUnwrap(try records(json).first) }

    private func bundle(_ resources: [String], type: String = "collection", language: String? = nil) -> String {
        let entries = resources.map { #"{"resource":\#($0)}"# }.joined(separator: ",")
        let lang = language.map { #","language":"\#($0)""# } ?? ""
        return #"{"resourceType":"Bundle","type":"\#(type)"\#(lang),"entry":[\#(entries)]}"#
    }

    private func list(_ record: TreeValue, _ path: String) -> [TreeValue] {
        guard case .array(let items)? = record.value(at: path) else { return [] }
        return items
    }

    private func warnings(_ record: TreeValue) -> [String] { list(record, "warnings").compactMap { $0["reason"]?.textOrNil } }

    private let patient = #"{"resourceType":"Patient","id":"p","name":[{"family":"Doe","given":["Jane"]}]}"#

    /// A composition of patient p with `sections` (JSON of the section array).
    private func composition(_ sections: String, extra: String = "") -> String {
        #"{"resourceType":"Composition","id":"c","status":"final","type":{"coding":[{"system":"http://loinc.org","code":"60591-5"}]},"subject":{"reference":"Patient/p"},"date":"2026-11-10","title":"Summary","author":[{"reference":"Practitioner/dr"}]\#(extra),"section":\#(sections)}"#
    }

    // MARK: names

    func testEveryEntryIsNamedNeverACodeOrASystem() throws {
        let json = bundle([
            patient,
            // A coding with a display alone (no system, no code) is a name.
            #"{"resourceType":"AllergyIntolerance","id":"a","patient":{"reference":"Patient/p"},"code":{"coding":[{"display":"Penicillin"}]}}"#,
            // No code at all: named by what its reaction names.
            #"{"resourceType":"AllergyIntolerance","id":"b","patient":{"reference":"Patient/p"},"reaction":[{"substance":{"text":"Peanut"},"manifestation":[{"text":"Hives"}]}]}"#,
            // Nothing: called so, in words a clinician uses.
            #"{"resourceType":"AllergyIntolerance","id":"c","patient":{"reference":"Patient/p"}}"#,
            #"{"resourceType":"DiagnosticReport","id":"r","status":"final","subject":{"reference":"Patient/p"}}"#,
            #"{"resourceType":"Condition","id":"d","subject":{"reference":"Patient/p"},"code":{"coding":[{"system":"http://snomed.info/sct","code":"109228008"}]}}"#,
            #"{"resourceType":"Condition","id":"e","subject":{"reference":"Patient/p"},"code":{"coding":[{"system":"https://example.org/fhir/CodeSystem/local-problems","code":"X12"}]}}"#,
            #"{"resourceType":"Condition","id":"f","subject":{"reference":"Patient/p"},"code":{"coding":[{"system":"urn:oid:2.16.840.1.113883.6.96","code":"44054006"}]}}"#,
        ])
        var notes: [String] = []
        let record = try XCTUnwrap(try records(json) { notes.append($0) }.first)
        let allergies = list(record, "allergies").compactMap { $0["text"]?.textOrNil }
        XCTAssertEqual(Set(allergies), ["Penicillin", "Peanut", "Allergy or intolerance with no name given"])
        XCTAssertEqual(
            Set(list(record, "problems").compactMap { $0["text"]?.textOrNil }),
            [
                "SNOMED CT 109228008", "code X12 of local problems", "OID 2.16.840.1.113883.6.96 code 44054006",
            ])
        XCTAssertEqual(record.value(at: "resultGroups.0.name"), .string("Report with no name given"))
        XCTAssertTrue(warnings(record).contains("a AllergyIntolerance with no name given (shown as such)"), "\(warnings(record))")
        XCTAssertTrue(notes.contains { $0.contains("a DiagnosticReport (r) names nothing") }, "\(notes)")
        let text = record.json
        for bad in ["Unnamed", "http://", "https://", "|X12", "allergyintolerance"] {
            XCTAssertFalse(text.replacingOccurrences(of: #""code":"http://"#, with: "").contains(bad) && bad != "http://", bad)
        }
        for entry in list(record, "allergies") + list(record, "problems") {
            let shown = (entry["text"]?.textOrNil ?? "") + (entry["details"]?.textOrNil ?? "")
            XCTAssertFalse(shown.contains("://") || shown.contains("|") || shown.contains("Unnamed"), shown)
        }
    }

    // MARK: results

    private func observation(
        _ id: String, code: String = "2075-0", value: Double, unit: String = "mmol/L", extra: String = "",
        time: String = "2026-11-10T08:00:00Z"
    ) -> String {
        #"{"resourceType":"Observation","id":"\#(id)","status":"final","category":[{"coding":[{"code":"laboratory"}]}],"code":{"coding":[{"system":"http://loinc.org","code":"\#(code)","display":"Chloride"}]},"subject":{"reference":"Patient/p"},"effectiveDateTime":"\#(time)","valueQuantity":{"value":\#(value),"unit":"\#(unit)"}\#(extra)}"#
    }

    func testInterpretationsAreReadAsTheSourceSaysAndABadRangeFlagsNothing() throws {
        let v3 = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation"
        let json = bundle([
            patient,
            // An interpretation sent as one object (not an array), a range whose low is above its high.
            observation(
                "cl", value: 55,
                extra:
                    #","interpretation":{"coding":[{"system":"\#(v3)","code":"H"}]},"referenceRange":[{"low":{"value":60},"high":{"value":50}}]"#
            ),
            observation("na", code: "2951-2", value: 70, extra: #","referenceRange":[{"low":{"value":60},"high":{"value":50}}]"#),
            observation("k", code: "2823-3", value: 4, extra: #","interpretation":[{"coding":[{"system":"\#(v3)","code":"N"}]}]"#),
            #"{"resourceType":"Observation","id":"m","status":"final","code":{"text":"Measles IgG"},"subject":{"reference":"Patient/p"},"valueCodeableConcept":{"text":"Not detected"},"interpretation":[{"coding":[{"system":"\#(v3)","code":"NEG"}]}]}"#,
            #"{"resourceType":"Observation","id":"s","status":"final","code":{"text":"Strep screen"},"subject":{"reference":"Patient/p"},"valueString":"see note","interpretation":[{"coding":[{"system":"http://snomed.info/sct","code":"10828004","display":"Positive"}]}]}"#,
        ])
        let record = try record(json)
        let results = Dictionary(list(record, "results").map { ($0["name"]?.textOrNil ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        let chloride = list(record, "results").first { $0["number"] == .number(55) }
        XCTAssertEqual(chloride?["flagText"], .string("↑ High"), "the source's interpretation, as an object")
        XCTAssertEqual(chloride?["range"], .string("60–50"), "the range beside it")
        let sodium = list(record, "results").first { $0["number"] == .number(70) }
        XCTAssertEqual(sodium?["flagText"], .null, "no flag computed from a range whose low is above its high")
        XCTAssertTrue(warnings(record).contains { $0.hasPrefix("a result whose reference range's low is above its high") })
        XCTAssertEqual(list(record, "results").first { $0["number"] == .number(4) }?["flagText"], .string("Normal"))
        XCTAssertEqual(results["Measles IgG"]?["flagText"], .string("Negative"))
        XCTAssertEqual(results["Strep screen"]?["flagText"], .string("Positive"))
    }

    func testEachTestIsListedOnceWithItsEarlierValues() throws {
        var resources = [patient]
        let count = 5_000
        for index in 0..<count {
            let day = 1 + index % 28
            let month = 1 + (index / 28) % 12
            let year = 2010 + index / 336
            let time = String(format: "%04d-%02d-%02dT08:00:00Z", year, month, day)
            resources.append(
                observation(
                    "cr\(index)", code: "2160-0", value: Double(80 + index % 20), unit: "umol/L",
                    extra: #","referenceRange":[{"low":{"value":60},"high":{"value":110}}]"#, time: time))
        }
        resources.append(
            composition(
                #"[{"title":"Results","code":{"coding":[{"system":"http://loinc.org","code":"30954-2"}]},"entry":[{"reference":"Observation/cr0"},{"reference":"Observation/cr4999"}]}]"#
            ))
        let record = try record(bundle(resources))
        let rows = list(record, "resultPanels").flatMap { list($0, "results") }
        XCTAssertEqual(rows.count, 1, "one test, one row")
        XCTAssertEqual(rows.first?["count"], .number(Double(count)))
        XCTAssertEqual(
            rows.first?["earlier"]?.text.split(separator: ";").count, FHIRResultDigest.earlierShown + 1, "five earlier and an ellipsis")
        XCTAssertEqual(list(record, "resultSeries").first?["values"].map { if case .array(let a) = $0 { a.count } else { 0 } }, count)
        // The Results section shows the digest, not its entries again.
        let section = try XCTUnwrap(list(record, "composition.sections").first)
        XCTAssertEqual(section["kind"], .string("results"))
        XCTAssertEqual(list(section, "current").count, 0)
    }

    func testComponentsAreShownBesideTheirObservationsOwnValue() throws {
        let json = bundle([
            patient,
            #"{"resourceType":"Observation","id":"t","status":"final","category":[{"coding":[{"code":"social-history"}]}],"code":{"text":"Tobacco use"},"subject":{"reference":"Patient/p"},"valueCodeableConcept":{"text":"Former smoker"},"component":[{"code":{"text":"Pack-years"},"valueQuantity":{"value":50,"unit":"pack-years"}}],"note":[{"text":"Quit in 2019"}]}"#,
        ])
        let smoking = try XCTUnwrap(list(try record(json), "socialHistory").first)
        XCTAssertEqual(smoking["value"], .string("Former smoker; Pack-years: 50 pack-years"))
        XCTAssertTrue(smoking["details"]?.text.contains("Note: Quit in 2019") == true, "\(smoking)")
    }

    // MARK: doses

    private func statement(_ dosage: String, status: String = "active", id: String = "m") -> String {
        #"{"resourceType":"MedicationStatement","id":"\#(id)","status":"\#(status)","subject":{"reference":"Patient/p"},"medicationCodeableConcept":{"text":"Drug \#(id)"},"dosage":[\#(dosage)]}"#
    }

    func testTheWholeDoseIsSaid() throws {
        let cases: [(dosage: String, says: [String])] = [
            // A frequency without a period.
            (
                #"{"doseAndRate":[{"doseQuantity":{"value":1,"unit":"tablet"}}],"timing":{"repeat":{"frequency":3}}}"#,
                ["1 tablet", "3 times"]
            ),
            (
                #"{"timing":{"repeat":{"frequency":2,"period":1,"periodUnit":"d","boundsDuration":{"value":14,"unit":"days","code":"d"}}}}"#,
                ["twice a day", "for 14 days"]
            ),
            (
                #"{"timing":{"repeat":{"frequency":1,"period":4,"periodMax":6,"periodUnit":"h"}},"asNeededCodeableConcept":{"text":"pain"},"maxDosePerPeriod":{"numerator":{"value":4,"unit":"g"},"denominator":{"value":1,"unit":"day","code":"d"}}}"#,
                ["every 4 to 6 hours", "as needed for pain", "at most 4 g a day"]
            ),
            (
                #"{"doseAndRate":[{"doseQuantity":{"value":15,"unit":"mg"}}],"timing":{"repeat":{"frequency":1,"period":1,"periodUnit":"wk","dayOfWeek":["mon"]}}}"#,
                ["15 mg", "once a week", "on Mondays"]
            ),
            (
                #"{"timing":{"repeat":{"when":["ACM"],"offset":30,"timeOfDay":["08:00:00"]}},"route":{"text":"Oral"}}"#,
                ["30 minutes before breakfast", "at 08:00", "Oral"]
            ),
            (
                #"{"timing":{"repeat":{"count":10,"duration":30,"durationUnit":"min","boundsPeriod":{"start":"2026-11-02","end":"2026-11-16"}}},"maxDosePerAdministration":{"value":2,"unit":"g"}}"#,
                ["each dose over 30 minutes", "2026-11-02 to 2026-11-16", "10 doses in all", "at most 2 g a dose"]
            ),
            (
                #"{"text":"One tablet at night","timing":{"repeat":{"when":["HS"]}},"patientInstruction":"With water"}"#,
                ["One tablet at night (coded as: at bedtime, to the patient: With water)"]
            ),
            (
                #"{"timing":{"code":{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/v3-GTSAbbreviation","code":"BID"}]}}}"#,
                ["twice a day"]
            ),
        ]
        for (index, item) in cases.enumerated() {
            let record = try record(bundle([patient, statement(item.dosage, id: "m\(index)")]))
            let dosage = record.value(at: "medicationList.0.dosage")?.textOrNil ?? ""
            for part in item.says { XCTAssertTrue(dosage.contains(part), "\(item.dosage): \"\(dosage)\" lacks \"\(part)\"") }
        }
    }

    // MARK: current apart from past

    func testCurrentEntriesComeBeforeThePast() throws {
        var resources = [patient]
        for index in 0..<10 { resources.append(statement("{}", status: "cancelled", id: "x\(index)")) }
        resources.append(statement("{}", status: "stopped", id: "s"))
        resources.append(statement("{}", status: "completed", id: "d"))
        resources.append(statement("{}", status: "active", id: "a"))
        resources += [
            #"{"resourceType":"Condition","id":"old","subject":{"reference":"Patient/p"},"code":{"text":"Appendicitis"},"clinicalStatus":{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/condition-clinical","code":"resolved"}]},"onsetDateTime":"2001"}"#,
            #"{"resourceType":"Condition","id":"now","subject":{"reference":"Patient/p"},"code":{"text":"Asthma"},"clinicalStatus":{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/condition-clinical","code":"active"}]},"onsetDateTime":"1990"}"#,
            #"{"resourceType":"Immunization","id":"i1","status":"completed","patient":{"reference":"Patient/p"},"vaccineCode":{"text":"Tetanus"},"occurrenceDateTime":"2015-01-01"}"#,
            #"{"resourceType":"Immunization","id":"i2","status":"not-done","patient":{"reference":"Patient/p"},"vaccineCode":{"text":"MMR"},"statusReason":{"text":"Patient declined"},"occurrenceDateTime":"2024-01-01"}"#,
            #"{"resourceType":"Immunization","id":"i3","status":"completed","patient":{"reference":"Patient/p"},"vaccineCode":{"text":"Influenza"},"occurrenceDateTime":"2025-10-01"}"#,
            composition(
                #"[{"title":"Medications","code":{"coding":[{"system":"http://loinc.org","code":"10160-0"}]},"entry":[{"reference":"MedicationStatement/x0"},{"reference":"MedicationStatement/a"},{"reference":"MedicationStatement/s"}]},{"title":"Problems","code":{"coding":[{"system":"http://loinc.org","code":"11450-4"}]},"entry":[{"reference":"Condition/old"},{"reference":"Condition/now"}]},{"title":"Vaccines","code":{"coding":[{"system":"http://loinc.org","code":"11369-6"}]},"entry":[{"reference":"Immunization/i1"},{"reference":"Immunization/i2"},{"reference":"Immunization/i3"}]}]"#
            ),
        ]
        let record = try record(bundle(resources))
        let medications = list(record, "medicationList")
        XCTAssertEqual(medications.first?["text"], .string("Drug a"), "the one active medicine first")
        XCTAssertEqual(medications.filter { $0["current"] == .bool(false) }.count, 12)
        let sections = list(record, "composition.sections")
        XCTAssertEqual(list(sections[0], "current").map { $0["text"] }, [.string("Drug a")])
        XCTAssertEqual(list(sections[0], "past").count, 2)
        XCTAssertEqual(list(sections[1], "current").map { $0["text"] }, [.string("Asthma")])
        XCTAssertEqual(list(sections[1], "past").map { $0["text"] }, [.string("Appendicitis")])
        XCTAssertEqual(list(sections[2], "current").map { $0["text"] }, [.string("Influenza"), .string("Tetanus")], "newest first")
        XCTAssertEqual(list(sections[2], "past").map { $0["text"] }, [.string("MMR")])
        XCTAssertTrue(list(sections[2], "past").first?["details"]?.text.contains("not given: Patient declined") == true)
        XCTAssertEqual(sections[2]["order"], .string(FHIRWords.english[.orderImmunizations]))
    }

    func testHighCriticalityAllergiesAreMarkedAndOnTheBanner() throws {
        let json = bundle([
            patient,
            #"{"resourceType":"AllergyIntolerance","id":"a","patient":{"reference":"Patient/p"},"criticality":"high","code":{"text":"Penicillin"},"reaction":[{"manifestation":[{"text":"Anaphylaxis"}],"note":[{"text":"Needed adrenaline"}]}]}"#,
        ])
        let record = try record(json)
        XCTAssertEqual(record.value(at: "allergies.0.display"), .string("⚠ High criticality · Penicillin"))
        XCTAssertTrue(record.value(at: "allergyBanner.text")?.text.contains("⚠ High criticality · Penicillin") == true)
        XCTAssertTrue(record.value(at: "allergies.0.details")?.text.contains("Anaphylaxis — Needed adrenaline") == true)
        XCTAssertEqual(try self.record(bundle([patient])).value(at: "allergyBanner.known"), .bool(false), "no allergy information is said")
    }

    // MARK: one patient per document

    func testADocumentIsOnePatientsSummary() throws {
        let json = bundle(
            [
                composition(
                    #"[{"title":"Medications","code":{"coding":[{"system":"http://loinc.org","code":"10160-0"}]},"entry":[{"reference":"MedicationRequest/m"}]}]"#
                ),
                // The Patient found by its full URL, though its id is another.
                #"{"resourceType":"Patient","id":"internal-7","name":[{"family":"Doe","given":["Jane"]}]}"#,
                #"{"resourceType":"Patient","id":"q","name":[{"family":"Other"}]}"#,
                #"{"resourceType":"MedicationRequest","id":"m","status":"active","intent":"order","subject":{"reference":"Patient/p"},"medicationCodeableConcept":{"text":"Metformin"}}"#,
                #"{"resourceType":"MedicationRequest","id":"n","status":"active","intent":"order","subject":{"reference":"Patient/q"},"medicationCodeableConcept":{"text":"Warfarin"}}"#,
                #"{"resourceType":"Condition","id":"z","subject":{"reference":"Patient/stranger"},"code":{"text":"Stranger's condition"}}"#,
            ], type: "document"
        ).replacingOccurrences(
            of: #"{"resource":{"resourceType":"Patient","id":"internal-7""#,
            with: #"{"fullUrl":"https://ehr.example/fhir/Patient/p","resource":{"resourceType":"Patient","id":"internal-7""#)
        var notes: [String] = []
        let all = try records(json) { notes.append($0) }
        XCTAssertEqual(all.count, 1, "one summary: \(all.map { $0.value(at: "patient.id") })")
        let record = try XCTUnwrap(all.first)
        XCTAssertEqual(record.value(at: "patient.name"), .string("Jane Doe"), "the Patient its full URL names")
        XCTAssertFalse(record.json.contains("Warfarin") || record.json.contains("Stranger's"), record.json)
        XCTAssertTrue(warnings(record).contains("a MedicationRequest about another patient than the summary's"), "\(warnings(record))")
        XCTAssertTrue(warnings(record).contains("a Condition about another patient than the summary's"), "\(warnings(record))")
        XCTAssertTrue(notes.contains { $0.contains("about another patient") }, "\(notes)")
        XCTAssertTrue(notes.contains { $0.contains("full URL names Patient/p but whose id is internal-7") }, "\(notes)")
    }

    /// A full URL naming another Patient's id never takes that Patient's resources from it.
    func testAFullURLCannotClaimAnotherPatientsID() throws {
        let json = bundle([
            #"{"resourceType":"Patient","id":"b","name":[{"family":"Beta"}]}"#,
            #"{"resourceType":"Condition","id":"cb","subject":{"reference":"Patient/b"},"code":{"text":"Beta's condition"}}"#,
        ]).replacingOccurrences(
            of: #""entry":["#,
            with:
                #""entry":[{"fullUrl":"https://x.example/Patient/b","resource":{"resourceType":"Patient","id":"a","name":[{"family":"Alpha"}]}},"#
        )
        let all = try records(json)
        let beta = try XCTUnwrap(all.first { $0.value(at: "patient.id") == .string("b") })
        let alpha = try XCTUnwrap(all.first { $0.value(at: "patient.id") == .string("a") })
        XCTAssertEqual(beta.value(at: "problems.0.text"), .string("Beta's condition"))
        XCTAssertFalse(alpha.json.contains("Beta's condition"))
    }

    // MARK: who, when, absence

    func testAuthorsOfEveryKindAreNamed() throws {
        let json = bundle([
            patient,
            #"{"resourceType":"Practitioner","id":"pr","name":[{"family":"Smith","given":["Ann"]}]}"#,
            #"{"resourceType":"Organization","id":"org","name":"Example Clinic"}"#,
            #"{"resourceType":"PractitionerRole","id":"role","practitioner":{"reference":"Practitioner/pr"},"organization":{"reference":"Organization/org"},"code":[{"text":"General practitioner"}]}"#,
            #"{"resourceType":"Device","id":"dev","deviceName":[{"name":"Summary generator 2","type":"user-friendly-name"}]}"#,
            #"{"resourceType":"RelatedPerson","id":"rp","patient":{"reference":"Patient/p"},"name":[{"family":"Doe","given":["Sam"]}],"relationship":[{"text":"Son"}]}"#,
            composition(
                "[]",
                extra:
                    #","attester":[{"mode":"legal","time":"2026-11-11","party":{"reference":"Practitioner/pr"}}],"custodian":{"reference":"Organization/org"}"#
            ).replacingOccurrences(
                of: #""author":[{"reference":"Practitioner/dr"}]"#,
                with:
                    #""author":[{"reference":"PractitionerRole/role"},{"reference":"Device/dev"},{"reference":"Patient/p"},{"reference":"RelatedPerson/rp"},{"reference":"Organization/org"}]"#
            ),
        ])
        let record = try record(json)
        XCTAssertEqual(
            list(record, "composition.authors").map(\.text),
            ["Ann Smith, General practitioner, Example Clinic", "Summary generator 2", "Jane Doe", "Sam Doe (Son)", "Example Clinic"])
        let byline = record.value(at: "composition.byline")?.text ?? ""
        XCTAssertTrue(byline.hasPrefix("Written 2026-11-10"), byline)
        XCTAssertTrue(byline.contains("kept by Example Clinic") && byline.contains("attested by Ann Smith (2026-11-11)"), byline)
    }

    func testAbsenceIsSaidAndUntitledSectionsGetTheirIPSName() throws {
        let json = bundle([
            patient,
            composition(
                #"[{"code":{"coding":[{"system":"http://loinc.org","code":"48765-2"}]},"text":{"status":"generated","div":"<div xmlns=\"http://www.w3.org/1999/xhtml\"><table><thead><tr><th>Substance</th><th>Reaction</th></tr></thead><tbody></tbody></table></div>"},"emptyReason":{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/list-empty-reason","code":"unavailable"}]}}]"#
            ),
        ])
        let sections = list(try record(json), "composition.sections")
        XCTAssertEqual(sections.first?["title"], .string("Allergies and intolerances"))
        XCTAssertEqual(sections.first?["narrative"], .array([]), "an empty table is no narrative")
        XCTAssertEqual(sections.first?["emptyReason"], .string("Information not available"))
        XCTAssertEqual(sections.map { $0["title"]?.text }, ["Allergies and intolerances", "Medication summary", "Problem list"])
        XCTAssertEqual(sections.dropFirst().map { $0["missing"] }, [.bool(true), .bool(true)])
        XCTAssertEqual(sections.last?["emptyReason"], .string("This summary does not include this section."))
    }

    func testAnEntryNotInTheRecordIsShownAsSuch() throws {
        let json = bundle([
            patient,
            composition(
                #"[{"title":"Medications","code":{"coding":[{"system":"http://loinc.org","code":"10160-0"}]},"entry":[{"reference":"MedicationStatement/gone"}]}]"#
            ),
        ])
        let entry = try XCTUnwrap(list(try record(json), "composition.sections.0.entries").first)
        XCTAssertEqual(entry["unresolved"], .bool(true))
        XCTAssertEqual(entry["text"], .string("Medication with no name given"))
        XCTAssertEqual(entry["details"], .string("not in the record"))
    }

    // MARK: language and names

    func testTheSummaryIsInTheDocumentsLanguage() throws {
        let json = bundle(
            [
                composition(
                    #"[{"code":{"coding":[{"system":"http://loinc.org","code":"48765-2"}]},"entry":[{"reference":"AllergyIntolerance/a"}]}]"#
                ),
                patient,
                #"{"resourceType":"AllergyIntolerance","id":"a","patient":{"reference":"Patient/p"},"criticality":"high","code":{"text":"Penicillin"}}"#,
            ], type: "document", language: "de-CH")
        let record = try record(json)
        XCTAssertEqual(record["language"], .string("de-CH"))
        XCTAssertEqual(record.value(at: "composition.sections.0.title"), .string("Allergien und Unverträglichkeiten"))
        XCTAssertEqual(record.value(at: "allergies.0.display"), .string("⚠ Hohe Kritikalität · Penicillin"))
        XCTAssertEqual(record.value(at: "words.leftOut"), .string("Nicht in diese Zusammenfassung aufgenommen"))
        let dutch = try self.record(bundle([composition("[]"), patient], type: "document", language: "nl"))
        XCTAssertEqual(dutch["language"], .string("en"), "no Dutch words: English, tagged as such")
    }

    func testANamesOwnScriptIsKept() throws {
        let json = bundle([
            #"{"resourceType":"Patient","id":"p","name":[{"use":"official","family":"Tanaka","given":["Taro"]},{"text":"田中 太郎"}]}"#,
            #"{"resourceType":"Condition","id":"c","subject":{"reference":"Patient/p"},"code":{"text":"Asthma"}}"#,
        ])
        XCTAssertEqual(try record(json).value(at: "patient.name"), .string("Taro Tanaka (田中 太郎)"))
    }

    /// Every language has every phrase and every code of English's tables: no English word leaks
    /// into a summary Folio says it writes in another language.
    func testEveryLanguageHasEveryWord() {
        XCTAssertEqual(FHIRWords.languages, ["en", "ar", "de", "es", "fr", "pt", "zh"])
        for language in FHIRWords.languages {
            XCTAssertEqual(FHIRWords.missingWords(in: language), [], language)
            XCTAssertEqual(FHIRWords.forLanguage(language).language, language)
        }
        XCTAssertEqual(FHIRWords.forLanguage("fr-CA")[.since], "depuis {date}")
        XCTAssertEqual(FHIRWords.forLanguage("nl").language, "en")
    }
}
