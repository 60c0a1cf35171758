import FolioData
import FolioModel
import Foundation

extension FHIRClinicalRecord {
    /// The sections an International Patient Summary must carry (allergies, medications, problems):
    /// one a document does not carry is listed as not included.
    static let requiredSections = ["48765-2", "10160-0", "11450-4"]

    /// The Composition presented: its title, date, authors of every kind, attesters, custodian, a
    /// first line saying all of them (`byline`), and its sections in the document's order, each with
    /// its entries current first, its absence said when it has none, and the required sections it
    /// lacks at the end.
    func composition(_ stored: Stored, entries: Entries, with reading: Reading, warnings: inout FHIRRecordWarnings) -> TreeValue {
        let resource = stored.resource
        let words = reading.words
        let people = reading.people
        let authors = FHIRResource.array(resource, "author").compactMap { people.name($0, in: resource) }
        let attesters = FHIRResource.array(resource, "attester").compactMap { attester -> String? in
            guard let party = people.name(attester["party"], in: resource) else { return nil }
            let time = FHIRText.date(FHIRResource.string(attester, "time"), clock: clock)
            return time.map { "\(party) (\($0))" } ?? party
        }
        let custodian = resource["custodian"].flatMap { people.name($0, in: resource) }
        let date = FHIRText.date(FHIRResource.string(resource, "date"), clock: clock)
        var byline = [date.map { words.format(.written, ["date": $0]) } ?? words[.dateNotGiven]]
        byline.append(
            authors.isEmpty ? words[.authorNotGiven] : words.format(.by, ["authors": authors.joined(separator: words[.listSeparator])]))
        if let custodian { byline.append(words.format(.keptBy, ["custodian": custodian])) }
        if !attesters.isEmpty {
            byline.append(words.format(.attestedBy, ["attesters": attesters.joined(separator: words[.listSeparator])]))
        }
        var sections: [TreeValue] = []
        var codes = Set<String>()
        func addSections(_ list: [TreeValue], level: Int) {
            for section in list where sections.count < 500 {
                if let code = FHIRText.code(section["code"], system: FHIRSeriesCatalog.loinc) { codes.insert(code) }
                sections.append(self.section(section, of: resource, level: level, entries: entries, with: reading))
                if level < 4 { addSections(FHIRResource.array(section, "section"), level: level + 1) }
            }
        }
        addSections(FHIRResource.array(resource, "section"), level: 1)
        // Said in the section itself: a reader sees the section, and that it is not included.
        for code in FHIRClinicalRecord.requiredSections where !codes.contains(code) { sections.append(missingSection(code, with: reading)) }
        let title =
            FHIRResource.string(resource, "title") ?? words.code("60591-5", of: "loinc") ?? FHIRText.concept(resource["type"], words: words)
        return .object([
            ("title", title.map(TreeValue.string) ?? .null),
            ("type", FHIRText.concept(resource["type"], words: words).map(TreeValue.string) ?? .null),
            ("date", date.map(TreeValue.string) ?? .null),
            ("status", FHIRResource.string(resource, "status").map { .string(words.code($0, of: "status") ?? $0) } ?? .null),
            ("authors", .array(authors.map(TreeValue.string))),
            ("author", authors.isEmpty ? .null : .string(authors.joined(separator: words[.listSeparator]))),
            ("attesters", .array(attesters.map(TreeValue.string))),
            ("custodian", custodian.map(TreeValue.string) ?? .null),
            ("byline", .string(byline.joined(separator: words[.clauseSeparator]) + (words.language == "zh" ? "。" : "."))),
            ("sections", .array(sections)),
        ])
    }

    /// A required IPS section the document lacks: its name, and that it is not included.
    private func missingSection(_ code: String, with reading: Reading) -> TreeValue {
        .object([
            ("kind", .string("list")), ("title", .string(reading.words.code(code, of: "loinc") ?? code)), ("code", .string(code)),
            ("level", .number(1)), ("missing", .bool(true)), ("entries", .array([])), ("current", .array([])), ("past", .array([])),
            ("digest", .array([])), ("order", .null), ("lastUpdated", .null),
            ("emptyReason", .string(reading.words[.sectionNotIncluded])), ("narrative", .array([])), ("isResults", .bool(false)),
            ("isVitalSigns", .bool(false)),
        ])
    }

    /// One section: its title (its IPS name when it has none), what kind of table shows it, its
    /// entries current first (and past apart), a digest of repeated tests, the order said, its
    /// newest entry's last update, its narrative (an empty table is none) and why it is empty.
    private func section(_ section: TreeValue, of composition: TreeValue, level: Int, entries: Entries, with reading: Reading) -> TreeValue
    {
        let words = reading.words
        var listed: [FHIRClinicalEntry] = []
        var newest: Int64?
        for reference in FHIRResource.array(section, "entry") {
            if let order = order(of: reference), let entry = entries.byOrder[order] {
                listed.append(entry)
                if let updated = entries.updated[order] { newest = max(newest ?? updated, updated) }
            } else if let entry = self.reading(reference, with: words) {
                listed.append(entry)
            } else if let resource = resolve(reference, in: composition) {
                // A resource the record does not list (an Organization, a Patient): its name or code.
                let type = FHIRResource.string(resource, "resourceType") ?? "Resource"
                let text =
                    reading.people.name(of: resource) ?? FHIRText.concept(resource["code"], words: words) ?? FHIRText.display(reference)
                listed.append(FHIRClinicalEntry(type: type, text: text, details: [], date: nil, status: nil, words: words))
            } else {
                listed.append(unresolvedEntry(reference, with: words))
            }
        }
        let narrative = (FHIRResource.string(section["text"], "div").map(FHIRNarrative.blocks) ?? [])
        let code = FHIRText.code(section["code"], system: FHIRSeriesCatalog.loinc)
        let title =
            FHIRResource.string(section, "title") ?? code.flatMap { words.code($0, of: "loinc") }
            ?? FHIRText.concept(section["code"], words: words, codeFallback: false) ?? words[.section]
        let isResults = code == "30954-2"
        let observations = listed.filter { $0.value["type"]?.textOrNil == "Observation" }
        let digested =
            !isResults && !listed.isEmpty && observations.count == listed.count
            && (code == "8716-3" || code == "29762-2" || repeats(listed))
        let kind = isResults ? "results" : digested ? "digest" : "list"
        // Only a list section shows its entries as current and past tables.
        let ordered = kind == "list" ? FHIRClinicalEntry.ordered(listed) : []
        let current = ordered.filter(\.current)
        let past = ordered.filter { !$0.current }
        var digest: [TreeValue] = []
        if digested {
            let rows = FHIRResultDigest(words: words).panels(
                listed.enumerated().map { .init(entry: $0.element, group: 0, order: $0.offset) }, groups: [.init(name: title, details: nil)]
            )
            if case .array(let found)? = rows.first?["results"] { digest = found }
        }
        let order: FHIRWords.Key? =
            switch code {
            case "11450-4", "11348-0": listed.isEmpty ? nil : .orderProblems
            case "11369-6": listed.isEmpty ? nil : .orderImmunizations
            default: isResults || digested ? .orderResults : (past.isEmpty ? nil : .orderCurrentFirst)
            }
        return .object([
            ("kind", .string(kind)),
            // The sections a template draws in their own way: results (each test once, charted) and vital signs.
            ("isResults", .bool(isResults)),
            ("isVitalSigns", .bool(code == "8716-3")),
            ("title", .string(title)),
            ("code", FHIRText.code(section["code"]).map(TreeValue.string) ?? .null),
            ("level", .number(Double(level))),
            ("missing", .bool(false)),
            ("entries", .array(listed.map(\.value))),
            ("current", .array(current.map(\.value))),
            ("past", .array(past.map(\.value))),
            ("digest", .array(digest)),
            ("order", order.map { .string(words[$0]) } ?? .null),
            ("lastUpdated", newest.map { .string(words.format(.lastUpdated, ["date": CivilDate.text($0 / 86_400_000)])) } ?? .null),
            ("emptyReason", FHIRText.concept(section["emptyReason"], words: words).map(TreeValue.string) ?? .null),
            ("narrative", .array(narrative)),
        ])
    }

    /// Whether any test appears more than once among `entries`.
    private func repeats(_ entries: [FHIRClinicalEntry]) -> Bool {
        var seen = Set<String>()
        for entry in entries where !seen.insert(FHIRResultDigest.testKey(entry)).inserted { return true }
        return false
    }

    /// An entry the document lists but the record does not hold: its display, else what kind of
    /// thing it is, said to be not in the record (`unresolved: true`).
    private func unresolvedEntry(_ reference: TreeValue, with words: FHIRWords) -> FHIRClinicalEntry {
        var type = "Reference"
        if let text = FHIRResource.string(reference, "reference"), case .resource(let named, _)? = FHIRReference(text) { type = named }
        if let named = FHIRResource.string(reference, "type") { type = named }
        let text = FHIRText.display(reference) ?? words[FHIRClinicalEntry.noNameKey(type)]
        var entry = FHIRClinicalEntry(
            type: "Reference", text: text, details: [words[.notInTheRecord]], date: nil, status: nil, words: words)
        entry.set("unresolved", .bool(true))
        entry.set("resourceType", type)
        return entry
    }

    /// A Composition as one line of a list of the patient's documents: title, type, authors, date, status.
    func compositionEntry(_ stored: Stored, with reading: Reading) -> TreeValue {
        let resource = stored.resource
        let words = reading.words
        let authors = FHIRResource.array(resource, "author").compactMap { reading.people.name($0, in: resource) }
        var entry = FHIRClinicalEntry(
            type: "Composition",
            text: FHIRResource.string(resource, "title") ?? FHIRText.concept(resource["type"], words: words),
            details: [
                FHIRText.concept(resource["type"], words: words), authors.isEmpty ? nil : authors.joined(separator: words[.listSeparator]),
            ],
            date: FHIRText.date(FHIRResource.string(resource, "date"), clock: clock),
            status: FHIRResource.string(resource, "status").map { words.code($0, of: "status") ?? FHIRClinicalEntry.words($0) },
            words: words)
        entry.instant = FHIRText.instant(FHIRResource.string(resource, "date"), clock: clock)
        return entry.value
    }
}
