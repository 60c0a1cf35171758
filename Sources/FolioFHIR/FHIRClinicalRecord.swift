import FolioData
import FolioModel
import Foundation

/// The clinical part of one patient's record, from the resources `FHIRIndex` kept whole: the
/// Composition and its sections in the document's order, problems, allergies, medications,
/// immunizations, procedures, results (each test once, with its earlier values, and as series to
/// chart), social history, devices, plans, alerts, advance directives and whom to call — in the
/// language of the Composition (or its Bundle) where Folio has its words. References are resolved
/// among the patient's own resources, the resources they contain, and the export's supporting
/// resources; a reference to another patient's resource resolves to nothing.
final class FHIRClinicalRecord {
    let index: FHIRIndex
    private let ofPatient, ofStranger, referableByKey, clinicalKey, patientByKey: SQLiteStatement
    /// A reading of the patient by its resource id (a vital sign an export's Composition lists).
    private let readingOfPatient, readingOfStranger: SQLiteStatement
    private var subject: FHIRRecordSubject = .known(0)
    var clock: ZoneClock { index.options.clock }

    /// The current record's resources by their place in the reading order, and what could not be resolved.
    private var byOrder: [Int64: TreeValue] = [:]
    private var referableCache: [String: TreeValue?] = [:]
    private var unresolved: [String: Int] = [:]

    init(index: FHIRIndex) throws {
        self.index = index
        let columns = "SELECT ord, type, rid, version, updated, json FROM clinical_by_patient"
        ofPatient = try index.database.prepare("\(columns) WHERE pord = ? ORDER BY ord")
        ofStranger = try index.database.prepare("\(columns) WHERE pord IS NULL AND patient = ? ORDER BY ord")
        referableByKey = try index.database.prepare("SELECT json FROM referable WHERE key = ?")
        clinicalKey = try index.database.prepare("SELECT ord FROM clinical_keys WHERE key = ?")
        patientByKey = try index.database.prepare(
            "SELECT p.name FROM patient_keys k JOIN patients p ON p.ord = k.ord WHERE k.key = ? AND k.ord >= 0")
        let reading = "SELECT series, display, value, unit, t, dateonly FROM readings_by_patient"
        readingOfPatient = try index.database.prepare("\(reading) WHERE pord = ? AND rid = ? ORDER BY ord")
        readingOfStranger = try index.database.prepare("\(reading) WHERE pord IS NULL AND patient = ? AND rid = ? ORDER BY ord")
    }

    /// The record's clinical fields, whether it has any clinical data, and what a person running the
    /// export should be told about it (an entry that names nothing).
    struct Members {
        var members: [(key: String, value: TreeValue)]
        var hasData: Bool
        var notices: [String]
    }

    /// One stored resource.
    struct Stored {
        let order: Int64
        let type: String
        let id: String
        let version: Int64?
        let updated: Int64?
        let resource: TreeValue
    }

    /// What a record is built with: its words, readers and resolver.
    struct Reading {
        let words: FHIRWords
        let reader: FHIRClinicalReader
        let results: FHIRResultReader
        let people: FHIRPeople
    }

    /// The record's entries as they are read: each resource's entry by its place, the lists, the
    /// results with the group each was listed in.
    struct Entries {
        var byOrder: [Int64: FHIRClinicalEntry] = [:]
        var lists: [String: [FHIRClinicalEntry]] = [:]
        var reports: [FHIRClinicalEntry] = []
        var listed: [FHIRResultDigest.Listed] = []
        var groups: [FHIRResultDigest.Group] = []
        var numericResults: [FHIRClinicalEntry] = []
        var careTeams: [TreeValue] = []
        var updated: [Int64: Int64] = [:]
        /// Results no report lists ("Other results").
        var standalone: [FHIRClinicalEntry] = []
    }

    /// The clinical fields of `subject`'s record (its Patient's own fields `patient`, for whom to
    /// call); what is skipped is counted in `warnings`.
    func members(
        of subject: FHIRRecordSubject, patient: TreeValue?, fields: [(key: String, value: TreeValue)], warnings: inout FHIRRecordWarnings
    ) throws -> Members {
        byOrder = [:]
        referableCache = [:]
        unresolved = [:]
        self.subject = subject
        let resources = newest(try load(subject), warnings: &warnings).filter { stored in
            guard FHIRClinicalRecord.isEnteredInError(stored.resource) else { return true }
            // An Observation's status is counted where the readings are read (in the period), once.
            if stored.type != "Observation" {
                let article = stored.type.first.map { "AEIOU".contains($0) } == true ? "an" : "a"
                warnings.add("\(article) \(stored.type) entered in error", 1)
            }
            return false
        }
        for stored in resources { byOrder[stored.order] = stored.resource }
        let composition = presented(resources)
        let language =
            composition.flatMap { FHIRResource.string($0.resource, "language") ?? index.documentLanguages[$0.order] }
            ?? patient.flatMap { FHIRResource.string($0, "language") }
        let words = FHIRWords.forLanguage(language)
        let resolve: (TreeValue?, TreeValue) -> TreeValue? = { [unowned self] reference, container in
            self.resolve(reference, in: container)
        }
        let reading = Reading(
            words: words, reader: FHIRClinicalReader(clock: clock, words: words, resolve: resolve),
            results: FHIRResultReader(clock: clock, words: words, resolve: resolve), people: FHIRPeople(words: words, resolve: resolve))
        var entries = read(resources, with: reading)

        var notices: [String] = []
        for stored in resources {
            guard let entry = entries.byOrder[stored.order] else { continue }
            if entry.unnamed, stored.type != "Composition" {
                notices.append(
                    "a \(stored.type) (\(stored.id.prefix(64))) names nothing: shown as \"\(words[FHIRClinicalEntry.noNameKey(stored.type)])\""
                )
                warnings.add("a \(stored.type) with no name given (shown as such)", 1)
            }
            for problem in entry.problems { warnings.add(problem, 1) }
        }
        var members: [(key: String, value: TreeValue)] = []
        let tag = words.language == "en" ? "en" : (language ?? words.language)
        members.append(("language", .string(Metadata.isLanguageTag(tag) ? tag : words.language)))
        members.append(("words", .object(FHIRWords.Key.allCases.map { ($0.rawValue, .string(words[$0])) })))
        members.append(
            ("composition", composition.map { self.composition($0, entries: entries, with: reading, warnings: &warnings) } ?? .null))
        let compositions = resources.filter { $0.type == "Composition" }
        members.append(
            ("compositions", .array(compositions.sorted { date(of: $0) > date(of: $1) }.map { compositionEntry($0, with: reading) })))
        for list in FHIRClinicalRecord.listNames {
            let ordered = FHIRClinicalEntry.ordered(entries.lists[list] ?? [])
            entries.lists[list] = ordered
            members.append((list, .array(ordered.map(\.value))))
        }
        members += resultMembers(entries, with: reading)
        members.append(("allergyBanner", allergyBanner(entries.lists["allergies"] ?? [], composition: composition, with: reading)))
        members.append(("banner", banner(fields, composition: composition, with: reading)))
        members.append(("whomToCall", .array(reading.people.whomToCall(patient: patient, careTeams: entries.careTeams))))
        for (reference, count) in unresolved.sorted(by: { $0.key < $1.key }) {
            warnings.add("a reference that cannot be resolved (\(reference.prefix(80)))", count)
        }
        return Members(members: members, hasData: !resources.isEmpty, notices: notices)
    }

    /// The lists of entries a record holds, by kind.
    static let listNames = [
        "problems", "pastProblems", "allergies", "medicationList", "immunizations", "procedures", "socialHistory", "vitalSigns",
        "devices", "planOfCare", "goals", "clinicalImpressions", "alerts", "advanceDirectives", "documents",
    ]

    /// The Composition presented: a patient summary (LOINC 60591-5) or a `document` Bundle's own, the newest.
    private func presented(_ resources: [Stored]) -> Stored? {
        resources.filter { stored in
            stored.type == "Composition"
                && (index.documentCompositions.contains(stored.order)
                    || FHIRText.code(stored.resource["type"], system: FHIRSeriesCatalog.loinc) == "60591-5")
        }.max { (date(of: $0), $0.order) < (date(of: $1), $1.order) }
    }

    /// Every resource read into its entry and list; results first, as a report's (or a panel's)
    /// members are its results, not results of their own.
    private func read(_ resources: [Stored], with reading: Reading) -> Entries {
        var entries = Entries()
        var inReport = Set<Int64>()
        var standalone: [FHIRClinicalEntry] = []
        for stored in resources where stored.type == "DiagnosticReport" || !FHIRResource.array(stored.resource, "hasMember").isEmpty {
            let field = stored.type == "DiagnosticReport" ? "result" : "hasMember"
            var members: [FHIRClinicalEntry] = []
            for reference in FHIRResource.array(stored.resource, field) {
                guard let order = order(of: reference), let member = byOrder[order],
                    FHIRResource.string(member, "resourceType") == "Observation"
                else {
                    if let reading = self.reading(reference, with: reading.words) {
                        members.append(reading)
                    } else {
                        _ = resolve(reference, in: stored.resource)
                    }
                    continue
                }
                // A result two reports list is the first one's.
                guard !inReport.contains(order) else { continue }
                let entry = reading.results.observation(member)
                members.append(entry)
                entries.byOrder[order] = entry
                inReport.insert(order)
            }
            let report = reading.results.report(stored.resource, results: members)
            entries.byOrder[stored.order] = report
            if stored.type == "Observation" { inReport.insert(stored.order) }
            entries.reports.append(report)
            let group = entries.groups.count
            entries.groups.append(.init(name: report.value["text"]?.textOrNil ?? "", details: report.value["details"]?.textOrNil))
            for (position, member) in members.enumerated() { entries.listed.append(.init(entry: member, group: group, order: position)) }
        }
        for stored in resources {
            if let updated = stored.updated { entries.updated[stored.order] = updated }
            let entry = entry(of: stored, with: reading, entries: &entries, inReport: inReport)
            if let entry {
                entries.byOrder[stored.order] = entry
            }
            if stored.type == "Observation", let entry, !inReport.contains(stored.order) {
                let categories = FHIRClinicalKinds.categories(stored.resource)
                if !categories.contains(FHIRClinicalKinds.socialHistory), !categories.contains(FHIRClinicalKinds.vitalSigns),
                    !(categories.isEmpty && FHIRIndex.seriesKey(stored.resource["code"])?.named != nil)
                {
                    standalone.append(entry)
                }
            }
        }
        entries.standalone = standalone
        if !standalone.isEmpty {
            let group = entries.groups.count
            entries.groups.append(.init(name: reading.words[.otherResults], details: nil))
            for (position, entry) in standalone.enumerated() { entries.listed.append(.init(entry: entry, group: group, order: position)) }
        }
        return entries
    }

    /// One resource's entry, added to its list; nil for a result a report already holds.
    private func entry(of stored: Stored, with reading: Reading, entries: inout Entries, inReport: Set<Int64>) -> FHIRClinicalEntry? {
        let resource = stored.resource
        let reader = reading.reader
        func add(_ entry: FHIRClinicalEntry, to list: String) -> FHIRClinicalEntry {
            entries.lists[list, default: []].append(entry)
            return entry
        }
        switch stored.type {
        case "Condition": return add(reader.condition(resource), to: FHIRClinicalReader.isActive(resource) ? "problems" : "pastProblems")
        case "AllergyIntolerance": return add(reader.allergy(resource), to: "allergies")
        case "MedicationStatement", "MedicationRequest", "MedicationDispense":
            return add(reader.medicationEntry(resource, type: stored.type), to: "medicationList")
        case "Immunization": return add(reader.immunization(resource), to: "immunizations")
        case "Procedure": return add(reader.procedure(resource), to: "procedures")
        case "Device", "DeviceUseStatement": return add(reader.device(resource, type: stored.type), to: "devices")
        case "CarePlan": return add(reader.other(resource, type: "CarePlan"), to: "planOfCare")
        case "Goal": return add(reader.other(resource, type: "Goal"), to: "goals")
        case "ClinicalImpression": return add(reader.other(resource, type: "ClinicalImpression"), to: "clinicalImpressions")
        case "Flag": return add(reader.other(resource, type: "Flag"), to: "alerts")
        case "Consent": return add(reader.other(resource, type: "Consent"), to: "advanceDirectives")
        case "DocumentReference": return add(reader.other(resource, type: "DocumentReference"), to: "documents")
        case "Observation":
            let entry = entries.byOrder[stored.order] ?? reading.results.observation(resource)
            let categories = FHIRClinicalKinds.categories(resource)
            if categories.contains(FHIRClinicalKinds.socialHistory) {
                _ = add(entry, to: "socialHistory")
            } else if categories.contains(FHIRClinicalKinds.vitalSigns)
                || categories.isEmpty && FHIRIndex.seriesKey(resource["code"])?.named != nil
            {
                _ = add(entry, to: "vitalSigns")
            }
            if entry.value["number"] != nil, entry.value["number"] != .null, !categories.contains(FHIRClinicalKinds.vitalSigns) {
                entries.numericResults.append(entry)
            }
            return entry
        case "CareTeam":
            entries.careTeams.append(resource)
            return reader.generic(resource, type: stored.type)
        case "Composition", "DiagnosticReport":
            return entries.byOrder[stored.order] ?? reader.generic(resource, type: stored.type)
        default:
            // Kept only for a Composition that lists it (an Encounter, a dose, a specimen, …).
            return reader.generic(resource, type: stored.type)
        }
    }

    /// The results, each test once (`resultPanels`), the reports (`reports`, newest first, at most
    /// 20, and `earlierReports`), the series to chart, and the older fields (`results`, `resultGroups`).
    private func resultMembers(_ entries: Entries, with reading: Reading) -> [(key: String, value: TreeValue)] {
        let digest = FHIRResultDigest(words: reading.words)
        let newestFirst: (FHIRClinicalEntry, FHIRClinicalEntry) -> Bool = { ($0.instant ?? Int64.min) > ($1.instant ?? Int64.min) }
        let reports = entries.reports.sorted(by: newestFirst)
        let shownReports = reports.prefix(20).map { report -> TreeValue in
            .object([
                ("text", report.value["text"] ?? .null), ("details", report.value["details"] ?? .null),
                ("conclusion", report.value["conclusion"] ?? .null),
            ])
        }
        var groups = reports.map(\.value)
        let other = entries.standalone
        if !other.isEmpty {
            var group = FHIRClinicalEntry(
                type: "DiagnosticReport", text: reading.words[.otherResults],
                details: [other.count == 1 ? reading.words[.oneResult] : reading.words.format(.results, number: Double(other.count))],
                date: nil, status: nil, words: reading.words)
            group.set("name", reading.words[.otherResults])
            group.set("results", .array(other.sorted(by: newestFirst).map(\.value)))
            groups.append(group.value)
        }
        return [
            ("results", .array(entries.listed.map(\.entry.value))),
            ("resultPanels", .array(digest.panels(entries.listed, groups: entries.groups))),
            ("reports", .array(shownReports)),
            (
                "earlierReports",
                reports.count > 20 ? .string(reading.words.format(.earlierReports, number: Double(reports.count - 20))) : .null
            ),
            ("resultGroups", .array(groups)),
            ("resultSeries", .array(series(of: entries.numericResults, words: reading.words))),
        ]
    }

    /// The allergies a summary shows on its first page: the current ones (high criticality marked),
    /// else what the document's allergy section says instead (its reason for being empty, its
    /// narrative), and whether the record says anything about allergies at all.
    private func allergyBanner(_ allergies: [FHIRClinicalEntry], composition: Stored?, with reading: Reading) -> TreeValue {
        let current = allergies.filter(\.current)
        let shown = current.map { entry -> TreeValue in
            .object([("display", entry.value["display"] ?? .null), ("details", entry.value["details"] ?? .null)])
        }
        var text = current.map { entry -> String in
            let display = entry.value["display"]?.textOrNil ?? ""
            return entry.value["details"]?.textOrNil.map { "\(display) — \($0)" } ?? display
        }.joined(separator: "\n")
        var said = !allergies.isEmpty
        if allergies.isEmpty, let composition {
            let section = FHIRResource.array(composition.resource, "section").first {
                FHIRText.code($0["code"], system: FHIRSeriesCatalog.loinc) == "48765-2"
            }
            let narrative = FHIRResource.string(section?["text"], "div").map(FHIRNarrative.plainText) ?? ""
            if let reason = FHIRText.concept(section?["emptyReason"], words: reading.words) ?? (narrative.isEmpty ? nil : narrative) {
                text = String(reason.prefix(500))
                said = true
            }
        }
        return .object([
            ("entries", .array(shown)), ("known", .bool(said)), ("text", text.isEmpty ? .null : .string(text)),
            ("highCriticality", .bool(current.contains { $0.value["highCriticality"] == .bool(true) })),
        ])
    }

    /// What a summary's first lines say of the patient and the document, in the record's words: the
    /// title, the patient's name (or that it was not given), birth date and gender, the running
    /// header, and the identifiers each with its type in words.
    private func banner(_ fields: [(key: String, value: TreeValue)], composition: Stored?, with reading: Reading) -> TreeValue {
        let words = reading.words
        func field(_ key: String) -> String? { fields.first { $0.key == key }?.value.textOrNil }
        let name = field("name") ?? words[.noName]
        let born = field("birthDate").map { words.format(.born, ["date": $0]) } ?? words[.birthDateNotGiven]
        let gender = field("gender").map { words.code($0, of: "gender") ?? FHIRClinicalEntry.words($0) } ?? words[.genderNotGiven]
        let title =
            composition.flatMap { FHIRResource.string($0.resource, "title") } ?? words.code("60591-5", of: "loinc") ?? words[.summaryTitle]
        var identifiers: [TreeValue] = []
        if case .array(let items)? = fields.first(where: { $0.key == "identifiers" })?.value {
            identifiers = items.map { item in
                .object([("label", .string(item["type"]?.textOrNil ?? words[.identifier])), ("value", item["value"] ?? .null)])
            }
        }
        return .object([
            ("title", .string(title)), ("name", .string(name)), ("born", .string(born)), ("gender", .string(gender)),
            ("header", .string("\(name) · \(born)")), ("identifiers", .array(identifiers)),
        ])
    }

    // MARK: loading

    private func load(_ subject: FHIRRecordSubject) throws -> [Stored] {
        let statement: SQLiteStatement
        switch subject {
        case .known(let ord):
            statement = ofPatient
            statement.bind(1, ord)
        case .stranger(let key):
            statement = ofStranger
            statement.bind(1, key)
        }
        defer { statement.reset() }
        var stored: [Stored] = []
        while try statement.step() {
            guard let json = statement.text(5), let resource = try? JSONTreeParser.parse(Data(json.utf8)) else { continue }
            stored.append(
                Stored(
                    order: statement.integer(0) ?? 0, type: statement.text(1) ?? "", id: statement.text(2) ?? "",
                    version: statement.integer(3), updated: statement.integer(4), resource: resource))
        }
        return stored
    }

    /// The newest copy of each resource (by type and id: a higher versionId, else a later
    /// lastUpdated, else the one read later); older copies are counted.
    private func newest(_ all: [Stored], warnings: inout FHIRRecordWarnings) -> [Stored] {
        var newestByKey: [String: Int] = [:]
        for (position, stored) in all.enumerated() {
            let key = "\(stored.type)/\(stored.id)"
            if let other = newestByKey[key] {
                let previous = all[other]
                let newer: Bool
                if let a = stored.version, let b = previous.version, a != b {
                    newer = a > b
                } else if let a = stored.updated, let b = previous.updated, a != b {
                    newer = a > b
                } else {
                    newer = true
                }
                if !newer { continue }
            }
            newestByKey[key] = position
        }
        let kept = Set(newestByKey.values)
        if all.count > kept.count { warnings.add("an older version of a resource replaced by a newer one", all.count - kept.count) }
        return all.indices.filter { kept.contains($0) }.map { all[$0] }
    }

    private static func isEnteredInError(_ resource: TreeValue) -> Bool {
        FHIRResource.string(resource, "status") == "entered-in-error"
            || FHIRText.code(resource["verificationStatus"]) == "entered-in-error"
    }

    // MARK: references

    /// The place in the reading order of the patient's resource a reference names, if it is one.
    func order(of reference: TreeValue?) -> Int64? {
        guard let text = FHIRResource.string(reference, "reference"), !text.hasPrefix("#"), let key = FHIRReference(text)?.key
        else { return nil }
        clinicalKey.bind(1, key)
        defer { clinicalKey.reset() }
        guard (try? clinicalKey.step()) == true, let order = clinicalKey.integer(0), byOrder[order] != nil else { return nil }
        return order
    }

    /// The resource a reference names: contained in `container` (`#id`), one of the patient's own,
    /// a supporting resource of the export, or a Patient (its name alone, for an author); nil (and
    /// counted) when it names none of these.
    func resolve(_ reference: TreeValue?, in container: TreeValue) -> TreeValue? {
        guard let text = FHIRResource.string(reference, "reference") else { return nil }
        if text.hasPrefix("#") {
            let id = String(text.dropFirst())
            if let found = FHIRResource.array(container, "contained").first(where: { FHIRResource.string($0, "id") == id }) { return found }
            unresolved[text, default: 0] += 1
            return nil
        }
        guard let key = FHIRReference(text)?.key else {
            unresolved[String(text.prefix(80)), default: 0] += 1
            return nil
        }
        if let order = order(of: reference), let found = byOrder[order] { return found }
        if let cached = referableCache[key] { return cached }
        referableByKey.bind(1, key)
        defer { referableByKey.reset() }
        var found: TreeValue?
        if (try? referableByKey.step()) == true, let json = referableByKey.text(0) {
            found = try? JSONTreeParser.parse(Data(json.utf8))
        }
        if found == nil, key.hasPrefix("Patient/") || key.hasPrefix("urn:") {
            patientByKey.bind(1, key)
            if (try? patientByKey.step()) == true, let name = patientByKey.text(0) {
                found = .object([("resourceType", .string("Patient")), ("name", .string(name))])
            }
            patientByKey.reset()
        }
        referableCache[key] = found
        if found == nil { unresolved[key, default: 0] += 1 }
        return found
    }

    func date(of stored: Stored) -> Int64 { FHIRText.instant(FHIRResource.string(stored.resource, "date"), clock: clock) ?? 0 }

    /// The patient's vital-sign reading a reference names (`Observation/ID`), kept as readings rather than
    /// whole resources in an export's NDJSON: its series in words, its values and its time.
    func reading(_ reference: TreeValue, with words: FHIRWords) -> FHIRClinicalEntry? {
        guard let text = FHIRResource.string(reference, "reference"), case .resource("Observation", let id)? = FHIRReference(text)
        else { return nil }
        let statement: SQLiteStatement
        switch subject {
        case .known(let ord):
            statement = readingOfPatient
            statement.bind(1, ord)
            statement.bind(2, id)
        case .stranger(let key):
            statement = readingOfStranger
            statement.bind(1, key)
            statement.bind(2, id)
        }
        defer { statement.reset() }
        var names: [String] = []
        var values: [String] = []
        var date: String?
        var instant: Int64?
        while (try? statement.step()) == true {
            let series = statement.text(0) ?? ""
            names.append(FHIRSeriesCatalog.series(named: series)?.title ?? statement.text(1) ?? series)
            if let value = statement.real(2) {
                let unit = statement.text(3).flatMap(FHIRText.readableUnit)
                values.append(FHIRText.number(value) + (unit.map { $0.hasPrefix("%") ? $0 : " \($0)" } ?? ""))
            }
            if date == nil, let milliseconds = statement.integer(4) {
                let time = FHIRTime(milliseconds: milliseconds, dateOnly: statement.integer(5) == 1)
                let local = clock.text(of: time)
                date = time.dateOnly ? String(local.prefix(10)) : String(local.prefix(10)) + " " + String(local.dropFirst(11).prefix(5))
                instant = milliseconds
            }
        }
        guard !names.isEmpty else { return nil }
        let name = names.count == 2 && names[0].hasPrefix("Systolic") ? words[.bloodPressure] : names.joined(separator: ", ")
        var entry = FHIRClinicalEntry(
            type: "Observation", text: name, details: [values.joined(separator: " / "), date], date: date, status: nil, words: words)
        entry.set("name", name)
        entry.set("value", values.isEmpty ? nil : values.joined(separator: " / "))
        entry.instant = instant
        return entry
    }
}
