import FolioData
import FolioModel
import Foundation

/// Reads each kind of clinical resource into its entry.
struct FHIRClinicalReader {
    let clock: ZoneClock
    /// Resolves a reference made by `container` (contained, in the Bundle, or in the export).
    let resolve: (TreeValue?, TreeValue) -> TreeValue?

    /// SNOMED CT and IPS codes that say there is nothing to list ("No known allergy").
    static let nothingKnown: Set<String> = [
        "716186003", "409137002", "429625007", "428607008", "428197003", "160245001", "787481004", "182849000",
        "no-known-allergies", "no-allergy-info", "no-known-medications", "no-medication-info", "no-known-problems",
        "no-problem-info", "no-known-procedures", "no-procedure-info", "no-known-immunizations", "no-immunization-info",
        "no-known-devices", "no-device-info",
    ]

    /// Whether a concept says there is nothing to list.
    static func saysNothingKnown(_ concept: TreeValue?) -> Bool {
        FHIRResource.codings(concept).contains { nothingKnown.contains($0.code) }
    }

    // MARK: problems

    /// A Condition.
    func condition(_ resource: TreeValue) -> FHIRClinicalEntry {
        let clinical = FHIRClinicalEntry.status(resource["clinicalStatus"])
        let verification = FHIRClinicalEntry.status(resource["verificationStatus"])
        let onset = FHIRText.choice(resource, "onset", clock: clock)
        let abatement = FHIRText.choice(resource, "abatement", clock: clock)
        let severity = FHIRText.concept(resource["severity"])
        let shownVerification = FHIRText.code(resource["verificationStatus"]).map { $0 == "confirmed" } == true ? nil : verification
        var entry = FHIRClinicalEntry(
            type: "Condition", text: FHIRText.concept(resource["code"]),
            details: [
                clinical, shownVerification, severity, onset.map { "since \($0)" }, abatement.map { "resolved \($0)" },
                FHIRText.concepts(FHIRResource.array(resource, "bodySite")),
            ],
            date: onset ?? FHIRText.date(FHIRResource.string(resource, "recordedDate"), clock: clock), status: clinical)
        entry.set("name", FHIRText.concept(resource["code"]))
        entry.set("clinicalStatus", clinical)
        entry.set("verificationStatus", verification)
        entry.set("onset", onset)
        entry.set("abatement", abatement)
        entry.set("severity", severity)
        entry.set("category", FHIRText.categories(FHIRResource.array(resource, "category")))
        entry.set("note", notes(resource))
        entry.set("active", .bool(FHIRClinicalReader.isActive(resource)))
        entry.instant = FHIRText.choiceInstant(resource, "onset", clock: clock)
        return entry
    }

    /// Whether a Condition is current: not resolved, inactive or in remission, and not abated.
    static func isActive(_ condition: TreeValue) -> Bool {
        if let code = FHIRText.code(condition["clinicalStatus"]) { return ["active", "recurrence", "relapse"].contains(code) }
        return !(condition.objectKeys.contains { $0.hasPrefix("abatement") })
    }

    // MARK: allergies

    /// An AllergyIntolerance.
    func allergy(_ resource: TreeValue) -> FHIRClinicalEntry {
        let substance = FHIRText.concept(resource["code"])
        let criticality = FHIRResource.string(resource, "criticality").map { "\(FHIRClinicalEntry.words($0)) criticality" }
        let clinical = FHIRClinicalEntry.status(resource["clinicalStatus"])
        let verification = FHIRClinicalEntry.status(resource["verificationStatus"])
        let shownVerification = FHIRText.code(resource["verificationStatus"]).map { $0 == "confirmed" } == true ? nil : verification
        let categories = FHIRResource.array(resource, "category").compactMap { value -> String? in
            if case .string(let code) = value { return code }
            return nil
        }
        let reactions: [TreeValue] = FHIRResource.array(resource, "reaction").map { reaction in
            .object([
                ("substance", FHIRText.concept(reaction["substance"]).map(TreeValue.string) ?? .null),
                ("manifestation", FHIRText.concepts(FHIRResource.array(reaction, "manifestation")).map(TreeValue.string) ?? .null),
                ("severity", FHIRResource.string(reaction, "severity").map(TreeValue.string) ?? .null),
                ("description", FHIRResource.string(reaction, "description").map(TreeValue.string) ?? .null),
            ])
        }
        let reactionText = reactions.compactMap { reaction -> String? in
            guard case .string(let manifestation)? = reaction["manifestation"] else { return reaction["description"]?.textOrNil }
            if case .string(let severity)? = reaction["severity"] { return "\(manifestation) (\(severity))" }
            return manifestation
        }.joined(separator: ", ")
        let type = FHIRResource.string(resource, "type")
        let onset = FHIRText.choice(resource, "onset", clock: clock)
        var entry = FHIRClinicalEntry(
            type: "AllergyIntolerance", text: substance,
            details: [
                type.map(FHIRClinicalEntry.words), categories.isEmpty ? nil : categories.joined(separator: ", "), criticality,
                clinical, shownVerification, reactionText.isEmpty ? nil : "reaction: \(reactionText)", onset.map { "since \($0)" },
            ],
            date: onset ?? FHIRText.date(FHIRResource.string(resource, "recordedDate"), clock: clock), status: clinical)
        entry.set("substance", substance)
        entry.set("allergyType", type)
        entry.set("category", categories.isEmpty ? nil : categories.joined(separator: ", "))
        entry.set("criticality", FHIRResource.string(resource, "criticality"))
        entry.set("clinicalStatus", clinical)
        entry.set("verificationStatus", verification)
        entry.set("reactions", .array(reactions))
        entry.set("reaction", reactionText.isEmpty ? nil : reactionText)
        entry.set("noKnownAllergy", .bool(FHIRClinicalReader.saysNothingKnown(resource["code"])))
        entry.set("note", notes(resource))
        return entry
    }

    // MARK: medications

    /// The medication a statement, request, dispense or administration names: its concept, or
    /// the Medication it refers to (contained, in the Bundle or in the export), with that
    /// Medication's form.
    func medication(of resource: TreeValue) -> (name: String?, form: String?) {
        if let concept = resource["medicationCodeableConcept"] { return (FHIRText.concept(concept), nil) }
        guard let reference = resource["medicationReference"] else { return (nil, nil) }
        if let medication = resolve(reference, resource) {
            return (FHIRText.concept(medication["code"]) ?? FHIRText.display(reference), FHIRText.concept(medication["form"]))
        }
        return (FHIRText.display(reference), nil)
    }

    /// A MedicationStatement, MedicationRequest or MedicationDispense.
    func medicationEntry(_ resource: TreeValue, type: String) -> FHIRClinicalEntry {
        let (name, form) = medication(of: resource)
        let dosages = FHIRResource.array(resource, type == "MedicationStatement" ? "dosage" : "dosageInstruction")
        let dosage = dosages.compactMap(dosageText).joined(separator: "; ")
        let status = FHIRResource.string(resource, "status").map(FHIRClinicalEntry.words)
        let when: String?
        switch type {
        case "MedicationRequest":
            when =
                FHIRText.date(FHIRResource.string(resource, "authoredOn"), clock: clock)
                ?? FHIRText.period(resource["dispenseRequest"]?["validityPeriod"], clock: clock)
        case "MedicationDispense":
            when = FHIRText.date(
                FHIRResource.string(resource, "whenHandedOver") ?? FHIRResource.string(resource, "whenPrepared"), clock: clock)
        default:
            when =
                FHIRText.choice(resource, "effective", clock: clock)
                ?? FHIRText.date(FHIRResource.string(resource, "dateAsserted"), clock: clock)
        }
        let reason = FHIRText.concepts(FHIRResource.array(resource, "reasonCode"))
        var entry = FHIRClinicalEntry(
            type: type, text: name,
            details: [form, dosage.isEmpty ? nil : dosage, status, when, reason.map { "for \($0)" }],
            date: when, status: status)
        entry.set("name", name)
        entry.set("form", form)
        entry.set("dosage", dosage.isEmpty ? nil : dosage)
        entry.set("route", dosages.lazy.compactMap { FHIRText.concept($0["route"]) }.first)
        entry.set("reason", reason)
        entry.set("period", when)
        entry.set("intent", FHIRResource.string(resource, "intent"))
        entry.set("noKnownMedication", .bool(FHIRClinicalReader.saysNothingKnown(resource["medicationCodeableConcept"])))
        entry.set("note", notes(resource))
        entry.instant =
            FHIRText.instant(FHIRResource.string(resource, "authoredOn"), clock: clock)
            ?? FHIRText.choiceInstant(resource, "effective", clock: clock)
        return entry
    }

    /// A Dosage in words: its text, else its dose, timing and route.
    func dosageText(_ dosage: TreeValue) -> String? {
        if let text = FHIRResource.string(dosage, "text") { return text }
        var parts: [String] = []
        for doseAndRate in FHIRResource.array(dosage, "doseAndRate") {
            if let dose = FHIRText.quantity(doseAndRate["doseQuantity"]) {
                parts.append(dose)
            } else if let range = doseAndRate["doseRange"], let text = FHIRText.range(low: range["low"], high: range["high"]) {
                parts.append(text)
            }
        }
        if let timing = timingText(dosage["timing"]) { parts.append(timing) }
        if let route = FHIRText.concept(dosage["route"]) { parts.append(route) }
        if case .bool(true)? = dosage["asNeededBoolean"] { parts.append("as needed") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// A Timing in words: its code, else "2 times every 1 day".
    func timingText(_ timing: TreeValue?) -> String? {
        if let code = FHIRText.concept(timing?["code"]) { return code }
        guard let repeating = timing?["repeat"] else { return nil }
        let units = ["s": "second", "min": "minute", "h": "hour", "d": "day", "wk": "week", "mo": "month", "a": "year"]
        guard case .number(let period)? = repeating["period"], let unitCode = FHIRResource.string(repeating, "periodUnit"),
            let unit = units[unitCode]
        else { return nil }
        var frequency = 1.0
        if case .number(let count)? = repeating["frequency"] { frequency = count }
        let every = period == 1 ? "a \(unit)" : "every \(FHIRText.number(period)) \(unit)s"
        let times = frequency == 1 ? "once" : frequency == 2 ? "twice" : "\(FHIRText.number(frequency)) times"
        return "\(times) \(every)"
    }

    // MARK: immunizations, procedures, devices, plans

    /// An Immunization.
    func immunization(_ resource: TreeValue) -> FHIRClinicalEntry {
        let vaccine = FHIRText.concept(resource["vaccineCode"])
        let date = FHIRText.choice(resource, "occurrence", clock: clock)
        let status = FHIRResource.string(resource, "status").map(FHIRClinicalEntry.words)
        let dose = FHIRResource.array(resource, "protocolApplied").first.flatMap { applied -> String? in
            if case .number(let n)? = applied["doseNumberPositiveInt"] { return "dose \(FHIRText.number(n))" }
            return FHIRResource.string(applied, "doseNumberString").map { "dose \($0)" }
        }
        let targets = FHIRText.concepts(
            FHIRResource.array(resource, "protocolApplied").flatMap { FHIRResource.array($0, "targetDisease") })
        var entry = FHIRClinicalEntry(
            type: "Immunization", text: vaccine,
            details: [date, status, dose, targets.map { "against \($0)" }, FHIRResource.string(resource, "lotNumber").map { "lot \($0)" }],
            date: date, status: status)
        entry.set("vaccine", vaccine)
        entry.set("dose", dose)
        entry.set("targetDisease", targets)
        entry.set("lotNumber", FHIRResource.string(resource, "lotNumber"))
        entry.set("route", FHIRText.concept(resource["route"]))
        entry.set("site", FHIRText.concept(resource["site"]))
        entry.set("note", notes(resource))
        entry.instant = FHIRText.choiceInstant(resource, "occurrence", clock: clock)
        return entry
    }

    /// A Procedure.
    func procedure(_ resource: TreeValue) -> FHIRClinicalEntry {
        let name = FHIRText.concept(resource["code"])
        let date = FHIRText.choice(resource, "performed", clock: clock)
        let status = FHIRResource.string(resource, "status").map(FHIRClinicalEntry.words)
        let sites = FHIRText.concepts(FHIRResource.array(resource, "bodySite"))
        var entry = FHIRClinicalEntry(type: "Procedure", text: name, details: [date, status, sites], date: date, status: status)
        entry.set("name", name)
        entry.set("bodySite", sites)
        entry.set("outcome", FHIRText.concept(resource["outcome"]))
        entry.set("note", notes(resource))
        entry.instant = FHIRText.choiceInstant(resource, "performed", clock: clock)
        return entry
    }

    /// A Device's name: its first device name, else its type.
    static func deviceName(_ device: TreeValue?) -> String? {
        FHIRResource.string(FHIRResource.array(device, "deviceName").first, "name") ?? FHIRText.concept(device?["type"])
    }

    /// A Device (of the patient) or a DeviceUseStatement.
    func device(_ resource: TreeValue, type: String) -> FHIRClinicalEntry {
        var name = FHIRClinicalReader.deviceName(resource)
        var date: String?
        if type == "DeviceUseStatement" {
            let device = resolve(resource["device"], resource)
            name = FHIRClinicalReader.deviceName(device) ?? FHIRText.display(resource["device"])
            date =
                FHIRText.choice(resource, "timing", clock: clock)
                ?? FHIRText.date(FHIRResource.string(resource, "recordedOn"), clock: clock)
        }
        let status = FHIRResource.string(resource, "status").map(FHIRClinicalEntry.words)
        var entry = FHIRClinicalEntry(type: type, text: name, details: [status, date], date: date, status: status)
        entry.set("name", name)
        entry.set("noKnownDevice", .bool(FHIRClinicalReader.saysNothingKnown(resource["type"])))
        return entry
    }

    /// A CarePlan, ClinicalImpression, Goal, Flag or Consent: what it is, its status and period.
    func other(_ resource: TreeValue, type: String) -> FHIRClinicalEntry {
        let text: String?
        var extra: [String?] = []
        switch type {
        case "CarePlan":
            text =
                FHIRResource.string(resource, "title") ?? FHIRResource.string(resource, "description")
                ?? FHIRText.categories(FHIRResource.array(resource, "category"))
            extra = FHIRResource.array(resource, "activity").compactMap {
                FHIRText.concept($0["detail"]?["code"]) ?? FHIRResource.string($0["detail"], "description")
            }
            if FHIRResource.string(resource, "title") != nil { extra.insert(FHIRResource.string(resource, "description"), at: 0) }
        case "ClinicalImpression":
            text =
                FHIRResource.string(resource, "summary") ?? FHIRResource.string(resource, "description")
                ?? FHIRText.concept(resource["code"])
        case "Goal":
            text = FHIRText.concept(resource["description"])
        case "DocumentReference":
            let attachment = FHIRResource.array(resource, "content").first?["attachment"]
            text =
                FHIRResource.string(resource, "description") ?? FHIRText.concept(resource["type"])
                ?? FHIRResource.string(attachment, "title")
            extra = [FHIRText.categories(FHIRResource.array(resource, "category"))]
        case "Consent":
            text = FHIRText.categories(FHIRResource.array(resource, "category")) ?? FHIRText.concept(resource["scope"])
            extra = [FHIRText.concept(resource["provision"]?["code"])]
        default:
            text = FHIRText.concept(resource["code"])
            extra = [FHIRText.categories(FHIRResource.array(resource, "category"))]
        }
        let status = (FHIRResource.string(resource, "status") ?? FHIRResource.string(resource, "lifecycleStatus")).map(
            FHIRClinicalEntry.words)
        let date =
            FHIRText.period(resource["period"], clock: clock)
            ?? FHIRText.date(FHIRResource.string(resource, "date") ?? FHIRResource.string(resource, "dateTime"), clock: clock)
            ?? FHIRText.choice(resource, "effective", clock: clock)
        var entry = FHIRClinicalEntry(type: type, text: text, details: extra + [status, date], date: date, status: status)
        entry.set("note", notes(resource))
        return entry
    }

    /// A resource of any other type: what it is (its code, type, medication, name, description or
    /// title, whichever it has), its status and its date.
    func generic(_ resource: TreeValue, type: String) -> FHIRClinicalEntry {
        let text =
            FHIRText.concept(resource["code"]) ?? medication(of: resource).name ?? FHIRText.concept(resource["vaccineCode"])
            ?? FHIRText.concepts(FHIRResource.array(resource, "type")) ?? FHIRText.concept(resource["type"]) ?? FHIRText.name(of: resource)
            ?? FHIRResource.string(resource, "description") ?? FHIRResource.string(resource, "title")
        let status = FHIRResource.string(resource, "status").map(FHIRClinicalEntry.words)
        var date: String?
        for prefix in ["effective", "occurrence", "performed", "onset"] where date == nil {
            date = FHIRText.choice(resource, prefix, clock: clock)
        }
        date =
            date ?? FHIRText.period(resource["period"], clock: clock)
            ?? FHIRText.date(
                FHIRResource.string(resource, "date") ?? FHIRResource.string(resource, "issued")
                    ?? FHIRResource.string(resource, "authoredOn") ?? FHIRResource.string(resource, "recorded"), clock: clock)
        var entry = FHIRClinicalEntry(type: type, text: text, details: [status, date], date: date, status: status)
        entry.set("note", notes(resource))
        return entry
    }

    /// The texts of a resource's `note`s, joined.
    func notes(_ resource: TreeValue) -> String? {
        let texts = FHIRResource.array(resource, "note").compactMap { FHIRResource.string($0, "text") }
        return texts.isEmpty ? nil : texts.joined(separator: " ")
    }
}
