import FolioData
import FolioModel
import Foundation

/// The clinical part of one patient's record, from the resources `FHIRIndex` kept whole: the
/// Composition and its sections in the document's order, problems, allergies, medications,
/// immunizations, procedures, results (grouped by report, flagged, and as series to chart),
/// social history, devices, plans, alerts and advance directives. References are resolved among
/// the patient's own resources, the resources they contain, and the export's supporting
/// resources; a reference to another patient's resource resolves to nothing.
final class FHIRClinicalRecord {
    private let index: FHIRIndex
    private let ofPatient, ofStranger, referableByKey, clinicalKey: SQLiteStatement
    /// A reading of the patient by its resource id (a vital sign an export's Composition lists).
    private let readingOfPatient, readingOfStranger: SQLiteStatement
    private var subject: FHIRRecordSubject = .known(0)
    private var clock: ZoneClock { index.options.clock }

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
        let reading = "SELECT series, display, value, unit, t, dateonly FROM readings_by_patient"
        readingOfPatient = try index.database.prepare("\(reading) WHERE pord = ? AND rid = ? ORDER BY ord")
        readingOfStranger = try index.database.prepare("\(reading) WHERE pord IS NULL AND patient = ? AND rid = ? ORDER BY ord")
    }

    /// The record's clinical fields, and whether it has any clinical data.
    struct Members {
        var members: [(key: String, value: TreeValue)]
        var hasData: Bool
    }

    /// One stored resource.
    private struct Stored {
        let order: Int64
        let type: String
        let id: String
        let version: Int64?
        let updated: Int64?
        let resource: TreeValue
    }

    /// The clinical fields of `subject`'s record; what is skipped is counted in `warnings`.
    func members(of subject: FHIRRecordSubject, warnings: inout FHIRRecordWarnings) throws -> Members {
        byOrder = [:]
        referableCache = [:]
        unresolved = [:]
        self.subject = subject
        let resources = newest(try load(subject), warnings: &warnings).filter { stored in
            guard FHIRClinicalRecord.isEnteredInError(stored.resource) else { return true }
            warnings.add("a \(stored.type) entered in error", 1)
            return false
        }
        for stored in resources { byOrder[stored.order] = stored.resource }
        let resolve: (TreeValue?, TreeValue) -> TreeValue? = { [unowned self] reference, container in
            self.resolve(reference, in: container)
        }
        let reader = FHIRClinicalReader(clock: clock, resolve: resolve)
        let results = FHIRResultReader(clock: clock, resolve: resolve)

        var entries: [Int64: FHIRClinicalEntry] = [:]
        var lists: [String: [FHIRClinicalEntry]] = [:]
        var reports: [FHIRClinicalEntry] = []
        var inReport = Set<Int64>()
        var standaloneResults: [(order: Int64, entry: FHIRClinicalEntry)] = []
        var numericResults: [FHIRClinicalEntry] = []

        // Results first: a report's (or a panel's) members are its results, not results of their own.
        for stored in resources where stored.type == "DiagnosticReport" || !FHIRResource.array(stored.resource, "hasMember").isEmpty {
            let field = stored.type == "DiagnosticReport" ? "result" : "hasMember"
            var members: [FHIRClinicalEntry] = []
            for reference in FHIRResource.array(stored.resource, field) {
                guard let order = order(of: reference), let member = byOrder[order],
                    FHIRResource.string(member, "resourceType") == "Observation"
                else {
                    if let reading = reading(reference) {
                        members.append(reading)
                    } else {
                        _ = resolve(reference, stored.resource)
                    }
                    continue
                }
                let entry = results.observation(member)
                members.append(entry)
                entries[order] = entry
                inReport.insert(order)
            }
            let report = results.report(stored.resource, results: members)
            entries[stored.order] = report
            if stored.type == "Observation" { inReport.insert(stored.order) }
            reports.append(report)
        }
        for stored in resources {
            let resource = stored.resource
            switch stored.type {
            case "Condition": add(reader.condition(resource), to: FHIRClinicalReader.isActive(resource) ? "problems" : "pastProblems")
            case "AllergyIntolerance": add(reader.allergy(resource), to: "allergies")
            case "MedicationStatement", "MedicationRequest", "MedicationDispense":
                add(reader.medicationEntry(resource, type: stored.type), to: "medicationList")
            case "Immunization": add(reader.immunization(resource), to: "immunizations")
            case "Procedure": add(reader.procedure(resource), to: "procedures")
            case "Device", "DeviceUseStatement": add(reader.device(resource, type: stored.type), to: "devices")
            case "CarePlan": add(reader.other(resource, type: "CarePlan"), to: "planOfCare")
            case "Goal": add(reader.other(resource, type: "Goal"), to: "goals")
            case "ClinicalImpression": add(reader.other(resource, type: "ClinicalImpression"), to: "clinicalImpressions")
            case "Flag": add(reader.other(resource, type: "Flag"), to: "alerts")
            case "Consent": add(reader.other(resource, type: "Consent"), to: "advanceDirectives")
            case "DocumentReference": add(reader.other(resource, type: "DocumentReference"), to: "documents")
            case "Observation":
                let entry = entries[stored.order] ?? results.observation(resource)
                let categories = FHIRClinicalKinds.categories(resource)
                if categories.contains(FHIRClinicalKinds.socialHistory) {
                    add(entry, to: "socialHistory")
                } else if categories.contains(FHIRClinicalKinds.vitalSigns)
                    || categories.isEmpty && FHIRIndex.seriesKey(resource["code"])?.named != nil
                {
                    add(entry, to: "vitalSigns")
                } else if !inReport.contains(stored.order) {
                    standaloneResults.append((stored.order, entry))
                }
                entries[stored.order] = entry
                if entry.value["number"] != nil, entry.value["number"] != .null, !categories.contains(FHIRClinicalKinds.vitalSigns) {
                    numericResults.append(entry)
                }
            default:
                // Kept only for a Composition that lists it (an Encounter, a dose, a specimen, …).
                entries[stored.order] = reader.generic(resource, type: stored.type)
            }
            func add(_ entry: FHIRClinicalEntry, to list: String) {
                entries[stored.order] = entry
                lists[list, default: []].append(entry)
            }
        }

        var members: [(key: String, value: TreeValue)] = []
        // The Composition presented: a patient summary (LOINC 60591-5) or a document Bundle's own, the
        // newest; other Compositions (progress notes) are listed in `compositions`.
        let compositions = resources.filter { $0.type == "Composition" }
        let composition = compositions.filter {
            index.documentCompositions.contains($0.order)
                || FHIRText.code($0.resource["type"], system: FHIRSeriesCatalog.loinc) == "60591-5"
        }.max {
            (FHIRText.instant(FHIRResource.string($0.resource, "date"), clock: clock) ?? 0, $0.order)
                < (FHIRText.instant(FHIRResource.string($1.resource, "date"), clock: clock) ?? 0, $1.order)
        }
        members.append(("composition", composition.map { self.composition($0.resource, entries: entries) } ?? .null))
        members.append(("compositions", .array(compositions.sorted { date(of: $0) > date(of: $1) }.map(compositionEntry))))
        for list in [
            "problems", "pastProblems", "allergies", "medicationList", "immunizations", "procedures", "socialHistory", "vitalSigns",
            "devices", "planOfCare", "goals", "clinicalImpressions", "alerts", "advanceDirectives", "documents",
        ] {
            members.append((list, .array((lists[list] ?? []).map(\.value))))
        }
        let newestFirst: (FHIRClinicalEntry, FHIRClinicalEntry) -> Bool = { ($0.instant ?? Int64.min) > ($1.instant ?? Int64.min) }
        let standalone = standaloneResults.map(\.entry).sorted(by: newestFirst)
        members.append(("results", .array((reports.flatMap { FHIRResource.array($0.value, "results") }) + standalone.map(\.value))))
        var groups = reports.sorted(by: newestFirst).map(\.value)
        if !standalone.isEmpty {
            var other = FHIRClinicalEntry(
                type: "DiagnosticReport", text: "Other results", details: ["\(standalone.count) result\(standalone.count == 1 ? "" : "s")"],
                date: nil, status: nil)
            other.set("name", "Other results")
            other.set("results", .array(standalone.map(\.value)))
            groups.append(other.value)
        }
        members.append(("resultGroups", .array(groups)))
        members.append(("resultSeries", .array(series(of: numericResults))))
        for (reference, count) in unresolved.sorted(by: { $0.key < $1.key }) {
            warnings.add("a reference that cannot be resolved (\(reference.prefix(80)))", count)
        }
        return Members(members: members, hasData: !resources.isEmpty)
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
    private func order(of reference: TreeValue?) -> Int64? {
        guard let text = FHIRResource.string(reference, "reference"), !text.hasPrefix("#"), let key = FHIRReference(text)?.key
        else { return nil }
        clinicalKey.bind(1, key)
        defer { clinicalKey.reset() }
        guard (try? clinicalKey.step()) == true, let order = clinicalKey.integer(0), byOrder[order] != nil else { return nil }
        return order
    }

    /// The resource a reference names: contained in `container` (`#id`), one of the patient's own,
    /// or a supporting resource of the export; nil (and counted) when it names none of these.
    private func resolve(_ reference: TreeValue?, in container: TreeValue) -> TreeValue? {
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
        referableCache[key] = found
        if found == nil { unresolved[key, default: 0] += 1 }
        return found
    }

    // MARK: the Composition

    private func date(of stored: Stored) -> Int64 { FHIRText.instant(FHIRResource.string(stored.resource, "date"), clock: clock) ?? 0 }

    /// A Composition as one line of a list of the patient's documents: title, type, authors, date, status.
    private func compositionEntry(_ stored: Stored) -> TreeValue {
        let resource = stored.resource
        let authors = FHIRResource.array(resource, "author").compactMap {
            FHIRText.name(of: resolve($0, in: resource)) ?? FHIRText.display($0)
        }
        return FHIRClinicalEntry(
            type: "Composition", text: FHIRResource.string(resource, "title") ?? FHIRText.concept(resource["type"]),
            details: [FHIRText.concept(resource["type"]), authors.isEmpty ? nil : authors.joined(separator: ", ")],
            date: FHIRText.date(FHIRResource.string(resource, "date"), clock: clock),
            status: FHIRResource.string(resource, "status").map(FHIRClinicalEntry.words)
        ).value
    }

    private func composition(_ resource: TreeValue, entries: [Int64: FHIRClinicalEntry]) -> TreeValue {
        let authors = FHIRResource.array(resource, "author").compactMap { reference -> String? in
            FHIRText.name(of: resolve(reference, in: resource)) ?? FHIRText.display(reference)
        }
        let custodian = resource["custodian"].flatMap { FHIRText.name(of: resolve($0, in: resource)) ?? FHIRText.display($0) }
        var sections: [TreeValue] = []
        func addSections(_ list: [TreeValue], level: Int) {
            for section in list where sections.count < 500 {
                sections.append(self.section(section, of: resource, level: level, entries: entries))
                if level < 4 { addSections(FHIRResource.array(section, "section"), level: level + 1) }
            }
        }
        addSections(FHIRResource.array(resource, "section"), level: 1)
        return .object([
            ("title", FHIRResource.string(resource, "title").map(TreeValue.string) ?? .null),
            ("type", FHIRText.concept(resource["type"]).map(TreeValue.string) ?? .null),
            ("date", FHIRText.date(FHIRResource.string(resource, "date"), clock: clock).map(TreeValue.string) ?? .null),
            ("status", FHIRResource.string(resource, "status").map { .string(FHIRClinicalEntry.words($0)) } ?? .null),
            ("authors", .array(authors.map(TreeValue.string))),
            ("author", authors.isEmpty ? .null : .string(authors.joined(separator: ", "))),
            ("custodian", custodian.map(TreeValue.string) ?? .null),
            ("sections", .array(sections)),
        ])
    }

    private func section(_ section: TreeValue, of composition: TreeValue, level: Int, entries: [Int64: FHIRClinicalEntry]) -> TreeValue {
        var listed: [TreeValue] = []
        for reference in FHIRResource.array(section, "entry") {
            if let order = order(of: reference), let entry = entries[order] {
                listed.append(entry.value)
            } else if let entry = reading(reference) {
                listed.append(entry.value)
            } else if let resource = resolve(reference, in: composition) {
                // A resource the record does not list (an Organization, a Patient): its name or code.
                let type = FHIRResource.string(resource, "resourceType") ?? "Resource"
                let text = FHIRText.name(of: resource) ?? FHIRText.concept(resource["code"]) ?? FHIRText.display(reference)
                listed.append(FHIRClinicalEntry(type: type, text: text, details: [], date: nil, status: nil).value)
            } else if let display = FHIRText.display(reference) {
                var entry = FHIRClinicalEntry(type: "Reference", text: display, details: ["not in the record"], date: nil, status: nil)
                entry.set("unresolved", .bool(true))
                listed.append(entry.value)
            }
        }
        let narrative = FHIRResource.string(section["text"], "div").map(FHIRNarrative.blocks) ?? []
        let title = FHIRResource.string(section, "title") ?? FHIRText.concept(section["code"]) ?? "Section"
        let code = FHIRText.code(section["code"], system: FHIRSeriesCatalog.loinc)
        return .object([
            // The sections a template draws in their own way: results (by report, flagged, charted) and vital signs.
            ("isResults", .bool(code == "30954-2")),
            ("isVitalSigns", .bool(code == "8716-3")),
            ("title", .string(title)),
            ("code", FHIRText.code(section["code"]).map(TreeValue.string) ?? .null),
            ("level", .number(Double(level))),
            ("entries", .array(listed)),
            ("emptyReason", FHIRText.concept(section["emptyReason"]).map(TreeValue.string) ?? .null),
            ("narrative", .array(narrative)),
        ])
    }

    /// The patient's vital-sign reading a reference names (`Observation/ID`), kept as readings rather than
    /// whole resources in an export's NDJSON: its series in words, its values and its time.
    private func reading(_ reference: TreeValue) -> FHIRClinicalEntry? {
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
            }
        }
        guard !names.isEmpty else { return nil }
        let name = names.count == 2 && names[0].hasPrefix("Systolic") ? "Blood pressure" : names.joined(separator: ", ")
        var entry = FHIRClinicalEntry(
            type: "Observation", text: name, details: [values.joined(separator: " / "), date], date: date, status: nil)
        entry.set("name", name)
        entry.set("value", values.isEmpty ? nil : values.joined(separator: " / "))
        return entry
    }

    // MARK: result series

    /// Results measured more than once (by code) as series to chart: their times, values, unit and
    /// reference range (as a band, `thresholds`).
    private func series(of results: [FHIRClinicalEntry]) -> [TreeValue] {
        var byCode: [String: [FHIRClinicalEntry]] = [:]
        var order: [String] = []
        for entry in results {
            guard case .string(let code)? = entry.value["code"], entry.instant != nil else { continue }
            if byCode[code] == nil { order.append(code) }
            byCode[code, default: []].append(entry)
        }
        return order.compactMap { code -> TreeValue? in
            guard let list = byCode[code]?.sorted(by: { ($0.instant ?? 0) < ($1.instant ?? 0) }), list.count >= 2,
                let last = list.last
            else { return nil }
            // One unit for the series: the most recent result's; others in another unit are left out.
            let unit = last.value["unit"] ?? .null
            let points = list.filter { ($0.value["unit"] ?? .null) == unit }
            guard points.count >= 2 else { return nil }
            let numbers: [Double] = points.compactMap { if case .number(let n)? = $0.value["number"] { n } else { nil } }
            let times: [TreeValue] = points.compactMap { entry in
                entry.instant.map { .string(clock.text(of: FHIRTime(milliseconds: $0, dateOnly: false))) }
            }
            let low: Double? = if case .number(let n)? = last.value["low"] { n } else { nil }
            let high: Double? = if case .number(let n)? = last.value["high"] { n } else { nil }
            var thresholds: [TreeValue] = []
            let label = last.value["range"]?.textOrNil.map { "Reference range \($0)" } ?? "Reference range"
            switch (low, high) {
            case (let l?, let h?):
                thresholds.append(
                    .object([("kind", .string("range")), ("value", .number(l)), ("upper", .number(h)), ("label", .string(label))]))
            case (let l?, nil):
                thresholds.append(.object([("kind", .string("lessThan")), ("value", .number(l)), ("label", .string(label))]))
            case (nil, let h?):
                thresholds.append(.object([("kind", .string("greaterThan")), ("value", .number(h)), ("label", .string(label))]))
            default: break
            }
            var members: [(key: String, value: TreeValue)] = []
            members.append(("name", last.value["name"] ?? .null))
            members.append(("code", .string(code)))
            members.append(("unit", unit))
            members.append(("count", .number(Double(points.count))))
            members.append(("times", .array(times)))
            members.append(("values", .array(numbers.map(TreeValue.number))))
            members.append(("low", low.map(TreeValue.number) ?? .null))
            members.append(("high", high.map(TreeValue.number) ?? .null))
            members.append(("range", last.value["range"] ?? .null))
            members.append(("thresholds", .array(thresholds)))
            members.append(("last", last.value["value"] ?? .null))
            members.append(("lastFlag", last.value["flagText"] ?? .null))
            return .object(members)
        }
    }
}
