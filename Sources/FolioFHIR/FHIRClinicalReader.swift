import FolioData
import FolioModel
import Foundation

/// Reads each kind of clinical resource into its entry, in the words of the record's language:
/// what it is (never a bare code), its statuses, dates and comments, and whether it is current.
struct FHIRClinicalReader {
    let clock: ZoneClock
    let words: FHIRWords
    /// Resolves a reference made by `container` (contained, in the Bundle, or in the export).
    let resolve: (TreeValue?, TreeValue) -> TreeValue?

    /// SNOMED CT and IPS codes that say there is nothing to list ("No known allergy").
    static let nothingKnown: Set<String> = [
        "716186003", "409137002", "429625007", "428607008", "428197003", "160245001", "787481004", "182849000",
        "no-known-allergies", "no-allergy-info", "no-known-medications", "no-medication-info", "no-known-problems",
        "no-problem-info", "no-known-procedures", "no-procedure-info", "no-known-immunizations", "no-immunization-info",
        "no-known-devices", "no-device-info", "no-known-medication-allergies", "no-known-food-allergies",
        "no-known-environmental-allergies",
    ]

    /// Whether a concept says there is nothing to list.
    static func saysNothingKnown(_ concept: TreeValue?) -> Bool {
        FHIRResource.codings(concept).contains { nothingKnown.contains($0.code) }
    }

    /// A resource's plain status code in words.
    private func statusWords(_ resource: TreeValue, system: String = "status", key: String = "status") -> String? {
        FHIRResource.string(resource, key).map { words.code($0, of: system) ?? FHIRClinicalEntry.words($0) }
    }

    // MARK: problems

    /// A Condition.
    func condition(_ resource: TreeValue) -> FHIRClinicalEntry {
        let clinical = FHIRText.status(resource["clinicalStatus"], system: "condition-clinical", words: words)
        let verification = FHIRText.status(resource["verificationStatus"], system: "condition-verification", words: words)
        let onset = FHIRText.choice(resource, "onset", clock: clock, words: words)
        let abatement = FHIRText.choice(resource, "abatement", clock: clock, words: words)
        let severity = FHIRText.concept(resource["severity"], words: words)
        let confirmed = FHIRText.code(resource["verificationStatus"]) == "confirmed"
        let name = FHIRText.concept(resource["code"], words: words)
        var entry = FHIRClinicalEntry(
            type: "Condition", text: name,
            details: [
                clinical, confirmed ? nil : verification, severity, onset.map { words.format(.since, ["date": $0]) },
                abatement.map { words.format(.resolvedOn, ["date": $0]) },
                FHIRText.concepts(FHIRResource.array(resource, "bodySite"), words: words), noteText(resource),
            ],
            date: onset ?? FHIRText.date(FHIRResource.string(resource, "recordedDate"), clock: clock), status: clinical, words: words)
        entry.set("name", name)
        entry.set("clinicalStatus", clinical)
        entry.set("verificationStatus", verification)
        entry.set("onset", onset)
        entry.set("abatement", abatement)
        entry.set("severity", severity)
        entry.set("category", FHIRText.categories(FHIRResource.array(resource, "category"), words: words))
        entry.set("note", notes(resource))
        entry.set("active", .bool(FHIRClinicalReader.isActive(resource)))
        entry.current = FHIRClinicalReader.isActive(resource) && FHIRText.code(resource["verificationStatus"]) != "refuted"
        entry.instant =
            FHIRText.choiceInstant(resource, "onset", clock: clock)
            ?? FHIRText.instant(FHIRResource.string(resource, "recordedDate"), clock: clock)
        return entry
    }

    /// Whether a Condition is current: not resolved, inactive or in remission, and not abated.
    static func isActive(_ condition: TreeValue) -> Bool {
        if let code = FHIRText.code(condition["clinicalStatus"]) { return ["active", "recurrence", "relapse"].contains(code) }
        return !(condition.objectKeys.contains { $0.hasPrefix("abatement") })
    }

    // MARK: allergies

    /// An AllergyIntolerance, named by its code, else by the substance its reactions name.
    func allergy(_ resource: TreeValue) -> FHIRClinicalEntry {
        let reactionsSource = FHIRResource.array(resource, "reaction")
        let substance =
            FHIRText.concept(resource["code"], words: words)
            ?? FHIRText.concepts(reactionsSource.compactMap { $0["substance"] }, words: words)
        let criticalityCode = FHIRResource.string(resource, "criticality")
        let criticality = criticalityCode.map { words.code($0, of: "criticality") ?? FHIRClinicalEntry.words($0) }
        let clinical = FHIRText.status(resource["clinicalStatus"], system: "allergy-clinical", words: words)
        let verification = FHIRText.status(resource["verificationStatus"], system: "allergy-verification", words: words)
        let confirmed = FHIRText.code(resource["verificationStatus"]) == "confirmed"
        let categories = FHIRResource.array(resource, "category").compactMap { value -> String? in
            guard case .string(let code) = value else { return nil }
            return words.code(code, of: "allergy-category") ?? FHIRClinicalEntry.words(code)
        }
        let reactions: [TreeValue] = reactionsSource.map { reaction in
            .object([
                ("substance", FHIRText.concept(reaction["substance"], words: words).map(TreeValue.string) ?? .null),
                (
                    "manifestation",
                    FHIRText.concepts(FHIRResource.array(reaction, "manifestation"), words: words).map(TreeValue.string) ?? .null
                ),
                ("severity", FHIRResource.string(reaction, "severity").map { .string(words.code($0, of: "severity") ?? $0) } ?? .null),
                ("description", FHIRResource.string(reaction, "description").map(TreeValue.string) ?? .null),
                ("note", notes(reaction).map(TreeValue.string) ?? .null),
            ])
        }
        let reactionText = reactions.compactMap { reaction -> String? in
            var parts: [String] = []
            if case .string(let manifestation)? = reaction["manifestation"] {
                if case .string(let severity)? = reaction["severity"] {
                    parts.append("\(manifestation) (\(severity))")
                } else {
                    parts.append(manifestation)
                }
            }
            if case .string(let description)? = reaction["description"], !parts.contains(description) { parts.append(description) }
            if case .string(let note)? = reaction["note"] { parts.append(note) }
            return parts.isEmpty ? nil : parts.joined(separator: " — ")
        }.joined(separator: words[.listSeparator])
        let type = FHIRResource.string(resource, "type").map { words.code($0, of: "allergy-type") ?? FHIRClinicalEntry.words($0) }
        let onset = FHIRText.choice(resource, "onset", clock: clock, words: words)
        let high = criticalityCode == "high"
        var entry = FHIRClinicalEntry(
            type: "AllergyIntolerance", text: substance,
            details: [
                type, categories.isEmpty ? nil : categories.joined(separator: words[.listSeparator]), criticality, clinical,
                confirmed ? nil : verification, reactionText.isEmpty ? nil : words.format(.reaction, ["reactions": reactionText]),
                onset.map { words.format(.since, ["date": $0]) }, noteText(resource),
            ],
            date: onset ?? FHIRText.date(FHIRResource.string(resource, "recordedDate"), clock: clock), status: clinical, words: words,
            mark: high ? words[.highCriticalityMark] : nil)
        entry.set("substance", substance)
        entry.set("allergyType", type)
        entry.set("category", categories.isEmpty ? nil : categories.joined(separator: words[.listSeparator]))
        entry.set("criticality", criticalityCode)
        entry.set("highCriticality", .bool(high))
        entry.set("clinicalStatus", clinical)
        entry.set("verificationStatus", verification)
        entry.set("reactions", .array(reactions))
        entry.set("reaction", reactionText.isEmpty ? nil : reactionText)
        entry.set("noKnownAllergy", .bool(FHIRClinicalReader.saysNothingKnown(resource["code"])))
        entry.set("note", notes(resource))
        let clinicalCode = FHIRText.code(resource["clinicalStatus"])
        entry.current =
            clinicalCode != "inactive" && clinicalCode != "resolved" && FHIRText.code(resource["verificationStatus"]) != "refuted"
        entry.instant =
            FHIRText.choiceInstant(resource, "onset", clock: clock)
            ?? FHIRText.instant(FHIRResource.string(resource, "recordedDate"), clock: clock)
        return entry
    }

    // MARK: medications

    /// The medication a statement, request, dispense or administration names: its concept, or
    /// the Medication it refers to (contained, in the Bundle or in the export), with that
    /// Medication's form; a Medication without a code by its ingredients.
    func medication(of resource: TreeValue) -> (name: String?, form: String?) {
        if let concept = resource["medicationCodeableConcept"], let name = FHIRText.concept(concept, words: words) { return (name, nil) }
        guard let reference = resource["medicationReference"] else { return (nil, nil) }
        if let medication = resolve(reference, resource) {
            let ingredients = FHIRResource.array(medication, "ingredient").compactMap { ingredient -> String? in
                FHIRText.concept(ingredient["itemCodeableConcept"], words: words)
                    ?? FHIRText.concept(resolve(ingredient["itemReference"], medication)?["code"], words: words)
                    ?? FHIRText.display(ingredient["itemReference"])
            }
            let name =
                FHIRText.concept(medication["code"], words: words) ?? FHIRText.display(reference)
                ?? (ingredients.isEmpty ? nil : ingredients.joined(separator: " + "))
            return (name, FHIRText.concept(medication["form"], words: words))
        }
        return (FHIRText.display(reference), nil)
    }

    /// The statuses of a medication that make it a past one (stopped, finished, cancelled, not taken).
    static let pastMedicationStatuses: Set<String> = [
        "completed", "stopped", "cancelled", "not-taken", "entered-in-error", "declined", "revoked", "ended",
    ]

    /// A MedicationStatement, MedicationRequest or MedicationDispense.
    func medicationEntry(_ resource: TreeValue, type: String) -> FHIRClinicalEntry {
        let (name, form) = medication(of: resource)
        let dosages = FHIRResource.array(resource, type == "MedicationStatement" ? "dosage" : "dosageInstruction")
        let saying = FHIRDosage(words: words, clock: clock)
        let dosage = dosages.compactMap(saying.text).joined(separator: "; ")
        let statusCode = FHIRResource.string(resource, "status")
        let status = statusWords(resource)
        let when: String?
        switch type {
        case "MedicationRequest":
            when =
                FHIRText.date(FHIRResource.string(resource, "authoredOn"), clock: clock)
                ?? FHIRText.period(resource["dispenseRequest"]?["validityPeriod"], clock: clock, words: words)
        case "MedicationDispense":
            when = FHIRText.date(
                FHIRResource.string(resource, "whenHandedOver") ?? FHIRResource.string(resource, "whenPrepared"), clock: clock)
        default:
            when =
                FHIRText.choice(resource, "effective", clock: clock, words: words)
                ?? FHIRText.date(FHIRResource.string(resource, "dateAsserted"), clock: clock)
        }
        let reasons =
            FHIRResource.array(resource, "reasonCode").compactMap { FHIRText.concept($0, words: words) }
            + FHIRResource.array(resource, "reasonReference").compactMap { reference in
                FHIRText.concept(resolve(reference, resource)?["code"], words: words) ?? FHIRText.display(reference)
            }
        let reason = reasons.isEmpty ? nil : reasons.joined(separator: words[.listSeparator])
        let statusReason =
            FHIRText.concepts(FHIRResource.array(resource, "statusReason"), words: words)
            ?? FHIRText.concept(resource["statusReason"], words: words)
        var entry = FHIRClinicalEntry(
            type: type, text: name,
            details: [
                form, dosage.isEmpty ? nil : dosage, status, statusReason, when, reason.map { words.format(.forReason, ["reason": $0]) },
                noteText(resource),
            ],
            date: when, status: status, words: words)
        entry.set("name", name)
        entry.set("form", form)
        entry.set("dosage", dosage.isEmpty ? nil : dosage)
        entry.set("route", dosages.lazy.compactMap { FHIRText.concept($0["route"], words: self.words) }.first)
        entry.set("reason", reason)
        entry.set("period", when)
        entry.set("intent", FHIRResource.string(resource, "intent"))
        entry.set("noKnownMedication", .bool(FHIRClinicalReader.saysNothingKnown(resource["medicationCodeableConcept"])))
        entry.set("note", notes(resource))
        entry.current = statusCode.map { !FHIRClinicalReader.pastMedicationStatuses.contains($0) } ?? true
        if type == "MedicationDispense", statusCode == "completed" { entry.current = true }
        entry.instant =
            FHIRText.instant(FHIRResource.string(resource, "authoredOn"), clock: clock)
            ?? FHIRText.choiceInstant(resource, "effective", clock: clock)
            ?? FHIRText.instant(
                FHIRResource.string(resource, "whenHandedOver") ?? FHIRResource.string(resource, "dateAsserted"), clock: clock)
        return entry
    }

    // MARK: immunizations, procedures, devices, plans

    /// An Immunization: given ones are current; one not given is listed apart, with its reason.
    func immunization(_ resource: TreeValue) -> FHIRClinicalEntry {
        let vaccine = FHIRText.concept(resource["vaccineCode"], words: words)
        let date = FHIRText.choice(resource, "occurrence", clock: clock, words: words)
        let statusCode = FHIRResource.string(resource, "status")
        let status = statusWords(resource, system: "immunization-status")
        let dose = FHIRResource.array(resource, "protocolApplied").first.flatMap { applied -> String? in
            if case .number(let n)? = applied["doseNumberPositiveInt"] { return words.format(.doseNumber, number: n) }
            return FHIRResource.string(applied, "doseNumberString").map { words.format(.doseNumber, ["n": $0]) }
        }
        let targets = FHIRText.concepts(
            FHIRResource.array(resource, "protocolApplied").flatMap { FHIRResource.array($0, "targetDisease") }, words: words)
        let notGiven =
            statusCode == "not-done"
            ? FHIRText.concept(resource["statusReason"], words: words).map { words.format(.notGivenBecause, ["reason": $0]) } : nil
        var entry = FHIRClinicalEntry(
            type: "Immunization", text: vaccine,
            details: [
                date, status, notGiven, dose, targets.map { words.format(.against, ["diseases": $0]) },
                FHIRResource.string(resource, "lotNumber").map { words.format(.lot, ["lot": $0]) }, noteText(resource),
            ],
            date: date, status: status, words: words)
        entry.set("vaccine", vaccine)
        entry.set("dose", dose)
        entry.set("targetDisease", targets)
        entry.set("lotNumber", FHIRResource.string(resource, "lotNumber"))
        entry.set("route", FHIRText.concept(resource["route"], words: words))
        entry.set("site", FHIRText.concept(resource["site"], words: words))
        entry.set("notGiven", .bool(statusCode == "not-done"))
        entry.set("note", notes(resource))
        entry.current = statusCode != "not-done"
        entry.instant = FHIRText.choiceInstant(resource, "occurrence", clock: clock)
        return entry
    }

    /// A Procedure; one not done is listed apart.
    func procedure(_ resource: TreeValue) -> FHIRClinicalEntry {
        let name = FHIRText.concept(resource["code"], words: words)
        let date = FHIRText.choice(resource, "performed", clock: clock, words: words)
        let statusCode = FHIRResource.string(resource, "status")
        let status = statusWords(resource)
        let sites = FHIRText.concepts(FHIRResource.array(resource, "bodySite"), words: words)
        let reason = FHIRText.concept(resource["statusReason"], words: words)
        var entry = FHIRClinicalEntry(
            type: "Procedure", text: name, details: [date, status, statusCode == "not-done" ? reason : nil, sites, noteText(resource)],
            date: date, status: status, words: words)
        entry.set("name", name)
        entry.set("bodySite", sites)
        entry.set("outcome", FHIRText.concept(resource["outcome"], words: words))
        entry.set("note", notes(resource))
        entry.current = statusCode != "not-done" && statusCode != "stopped"
        entry.instant = FHIRText.choiceInstant(resource, "performed", clock: clock)
        return entry
    }

    /// A Device's name: its first device name, else its type.
    func deviceName(_ device: TreeValue?) -> String? {
        FHIRResource.string(FHIRResource.array(device, "deviceName").first, "name") ?? FHIRText.concept(device?["type"], words: words)
    }

    /// The statuses of a plan, device, flag or consent that make it a past one.
    static let pastStatuses: Set<String> = [
        "completed", "cancelled", "revoked", "entered-in-error", "rejected", "inactive", "superseded", "achieved", "ended", "stopped",
        "not-done", "abandoned",
    ]

    /// A Device (of the patient) or a DeviceUseStatement.
    func device(_ resource: TreeValue, type: String) -> FHIRClinicalEntry {
        var name = deviceName(resource)
        var date: String?
        if type == "DeviceUseStatement" {
            let device = resolve(resource["device"], resource)
            name = deviceName(device) ?? FHIRText.display(resource["device"])
            date =
                FHIRText.choice(resource, "timing", clock: clock, words: words)
                ?? FHIRText.date(FHIRResource.string(resource, "recordedOn"), clock: clock)
        }
        let status = statusWords(resource)
        var entry = FHIRClinicalEntry(
            type: type, text: name, details: [status, date, noteText(resource)], date: date, status: status, words: words)
        entry.set("name", name)
        entry.set("noKnownDevice", .bool(FHIRClinicalReader.saysNothingKnown(resource["type"])))
        entry.set("note", notes(resource))
        entry.current = FHIRResource.string(resource, "status").map { !FHIRClinicalReader.pastStatuses.contains($0) } ?? true
        entry.instant =
            FHIRText.choiceInstant(resource, "timing", clock: clock)
            ?? FHIRText.instant(FHIRResource.string(resource, "recordedOn"), clock: clock)
        return entry
    }

    /// A CarePlan, ClinicalImpression, Goal, Flag, Consent or DocumentReference: what it is, its status and period.
    func other(_ resource: TreeValue, type: String) -> FHIRClinicalEntry {
        let text: String?
        var extra: [String?] = []
        switch type {
        case "CarePlan":
            text =
                FHIRResource.string(resource, "title") ?? FHIRResource.string(resource, "description")
                ?? FHIRText.categories(FHIRResource.array(resource, "category"), words: words)
            extra = FHIRResource.array(resource, "activity").compactMap {
                FHIRText.concept($0["detail"]?["code"], words: words) ?? FHIRResource.string($0["detail"], "description")
            }
            if FHIRResource.string(resource, "title") != nil { extra.insert(FHIRResource.string(resource, "description"), at: 0) }
        case "ClinicalImpression":
            text =
                FHIRResource.string(resource, "summary") ?? FHIRResource.string(resource, "description")
                ?? FHIRText.concept(resource["code"], words: words)
        case "Goal":
            text = FHIRText.concept(resource["description"], words: words)
        case "DocumentReference":
            let attachment = FHIRResource.array(resource, "content").first?["attachment"]
            text =
                FHIRResource.string(resource, "description") ?? FHIRText.concept(resource["type"], words: words)
                ?? FHIRResource.string(attachment, "title")
            extra = [FHIRText.categories(FHIRResource.array(resource, "category"), words: words)]
        case "Consent":
            text =
                FHIRText.categories(FHIRResource.array(resource, "category"), words: words)
                ?? FHIRText.concept(resource["scope"], words: words)
            extra = [FHIRText.concept(resource["provision"]?["code"], words: words)]
        default:
            text = FHIRText.concept(resource["code"], words: words)
            extra = [FHIRText.categories(FHIRResource.array(resource, "category"), words: words)]
        }
        let statusCode = FHIRResource.string(resource, "status") ?? FHIRResource.string(resource, "lifecycleStatus")
        let status = statusCode.map { words.code($0, of: "status") ?? FHIRClinicalEntry.words($0) }
        let date =
            FHIRText.period(resource["period"], clock: clock, words: words)
            ?? FHIRText.date(FHIRResource.string(resource, "date") ?? FHIRResource.string(resource, "dateTime"), clock: clock)
            ?? FHIRText.choice(resource, "effective", clock: clock, words: words)
        var entry = FHIRClinicalEntry(
            type: type, text: text, details: extra + [status, date, noteText(resource)], date: date, status: status, words: words)
        entry.set("note", notes(resource))
        entry.current = statusCode.map { !FHIRClinicalReader.pastStatuses.contains($0) } ?? true
        entry.instant =
            FHIRText.instant(
                FHIRResource.string(resource["period"], "start") ?? FHIRResource.string(resource, "date")
                    ?? FHIRResource.string(resource, "dateTime"), clock: clock)
            ?? FHIRText.choiceInstant(resource, "effective", clock: clock)
        return entry
    }

    /// A resource of any other type: what it is (its code, type, medication, name, description or
    /// title, whichever it has), its status and its date.
    func generic(_ resource: TreeValue, type: String) -> FHIRClinicalEntry {
        let text =
            FHIRText.concept(resource["code"], words: words) ?? medication(of: resource).name
            ?? FHIRText.concept(resource["vaccineCode"], words: words)
            ?? FHIRText.concepts(FHIRResource.array(resource, "type"), words: words) ?? FHIRText.concept(resource["type"], words: words)
            ?? FHIRText.name(of: resource) ?? FHIRResource.string(resource, "description") ?? FHIRResource.string(resource, "title")
        let status = statusWords(resource)
        var date: String?
        for prefix in ["effective", "occurrence", "performed", "onset"] where date == nil {
            date = FHIRText.choice(resource, prefix, clock: clock, words: words)
        }
        date =
            date ?? FHIRText.period(resource["period"], clock: clock, words: words)
            ?? FHIRText.date(
                FHIRResource.string(resource, "date") ?? FHIRResource.string(resource, "issued")
                    ?? FHIRResource.string(resource, "authoredOn") ?? FHIRResource.string(resource, "recorded"), clock: clock)
        var entry = FHIRClinicalEntry(
            type: type, text: text, details: [status, date, noteText(resource)], date: date, status: status, words: words)
        entry.set("note", notes(resource))
        entry.current = FHIRResource.string(resource, "status").map { !FHIRClinicalReader.pastStatuses.contains($0) } ?? true
        return entry
    }

    /// The texts of a resource's `note`s (and an Observation's `comment`), joined; nil without any.
    func notes(_ resource: TreeValue) -> String? {
        var texts = FHIRResource.array(resource, "note").compactMap { FHIRResource.string($0, "text") }
        if let comment = FHIRResource.string(resource, "comment") { texts.append(comment) }
        let kept = texts.map { String($0.prefix(2_000)).trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        return kept.isEmpty ? nil : kept.joined(separator: " ")
    }

    /// The notes as the last part of an entry's details: "Note: …".
    func noteText(_ resource: TreeValue) -> String? { notes(resource).map { words.format(.note, ["text": $0]) } }
}
