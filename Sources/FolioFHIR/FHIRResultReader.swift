import FolioData
import FolioModel
import Foundation

/// Observations and DiagnosticReports as results, in the record's language: each value with its
/// unit and its components, its reference range, its interpretation in words (a symbol too when it
/// is not normal), its comments.
struct FHIRResultReader {
    let clock: ZoneClock
    let words: FHIRWords
    /// Resolves a reference made by `container`.
    let resolve: (TreeValue?, TreeValue) -> TreeValue?

    /// The value of an observation or a component in words, and its number and unit when it is a quantity.
    func value(of element: TreeValue) -> (text: String?, number: Double?, unit: String?) {
        if let quantity = element["valueQuantity"] {
            let number: Double? = if case .number(let n)? = quantity["value"], n.isFinite { n } else { nil }
            return (FHIRText.quantity(quantity), FHIRResource.string(quantity, "comparator") == nil ? number : nil, FHIRText.unit(quantity))
        }
        if case .number(let n)? = element["valueInteger"] { return (FHIRText.number(n), n, nil) }
        if let concept = element["valueCodeableConcept"] { return (FHIRText.concept(concept, words: words), nil, nil) }
        if let text = FHIRResource.string(element, "valueString") { return (String(text.prefix(2_000)), nil, nil) }
        if case .bool(let flag)? = element["valueBoolean"] { return (flag ? words[.yes] : words[.no], nil, nil) }
        if let range = element["valueRange"] { return (FHIRText.range(low: range["low"], high: range["high"]), nil, nil) }
        if let ratio = element["valueRatio"], let numerator = FHIRText.quantity(ratio["numerator"]) {
            return ("\(numerator) / \(FHIRText.quantity(ratio["denominator"]) ?? "1")", nil, nil)
        }
        if let text = FHIRResource.string(element, "valueDateTime") ?? FHIRResource.string(element, "valueTime") {
            return (FHIRText.date(text, clock: clock), nil, nil)
        }
        if let period = FHIRText.period(element["valuePeriod"], clock: clock, words: words) { return (period, nil, nil) }
        if let absent = FHIRText.concept(element["dataAbsentReason"], words: words) {
            return (words.format(.noValue, ["reason": absent.lowercased()]), nil, nil)
        }
        return (nil, nil, nil)
    }

    /// The reference range's low and high numbers and its words (its text, else "3.5–5.1 mmol/L").
    func range(of element: TreeValue) -> (low: Double?, high: Double?, text: String?) {
        guard let range = FHIRResource.list(element, "referenceRange").first else { return (nil, nil, nil) }
        let low: Double? = if case .number(let n)? = range["low"]?["value"], n.isFinite { n } else { nil }
        let high: Double? = if case .number(let n)? = range["high"]?["value"], n.isFinite { n } else { nil }
        return (low, high, FHIRText.range(low: range["low"], high: range["high"]) ?? FHIRResource.string(range, "text"))
    }

    /// An Observation as a result: its own value and each of its components with theirs (a smoker's
    /// pack-years beside the value, a blood pressure's two readings).
    func observation(_ resource: TreeValue) -> FHIRClinicalEntry {
        let name = FHIRText.concept(resource["code"], words: words)
        var value = value(of: resource)
        let components = FHIRResource.array(resource, "component").map { component -> FHIRClinicalEntry in
            result(component, name: FHIRText.concept(component["code"], words: words), date: nil, status: nil)
        }
        let componentTexts = components.compactMap { component -> String? in
            guard case .string(let text)? = component.value["value"] else { return nil }
            return words.format(.component, ["name": component.value["name"]?.textOrNil ?? "", "value": text])
        }
        if !componentTexts.isEmpty {
            let joined = componentTexts.joined(separator: words[.listSeparator])
            value.text = value.text.map { "\($0); \(joined)" } ?? joined
        }
        let date =
            FHIRText.choice(resource, "effective", clock: clock, words: words)
            ?? FHIRText.date(FHIRResource.string(resource, "issued"), clock: clock)
        let status = FHIRResource.string(resource, "status").map { words.code($0, of: "status") ?? FHIRClinicalEntry.words($0) }
        var entry = result(resource, name: name, date: date, status: status, value: value)
        entry.set("components", .array(components.map(\.value)))
        entry.set("category", FHIRText.categories(FHIRResource.array(resource, "category"), words: words))
        entry.set("code", FHIRResource.codings(resource["code"]).first.map { "\($0.system ?? "")|\($0.code)" })
        let note = FHIRClinicalReader(clock: clock, words: words, resolve: resolve).notes(resource)
        entry.set("note", note)
        entry.problems += components.flatMap(\.problems)
        entry.instant =
            FHIRText.choiceInstant(resource, "effective", clock: clock)
            ?? FHIRText.instant(FHIRResource.string(resource, "issued"), clock: clock)
        return entry
    }

    /// A result's entry: its value, unit, range, flag in words and symbol, note.
    private func result(
        _ element: TreeValue, name: String?, date: String?, status: String?,
        value given: (text: String?, number: Double?, unit: String?)? = nil
    ) -> FHIRClinicalEntry {
        let value = given ?? value(of: element)
        let range = range(of: element)
        let interpretations = FHIRResource.list(element, "interpretation")
        let (flag, badRange) = FHIRResultFlag.of(
            interpretations: interpretations, value: value.number, low: range.low, high: range.high, words: words)
        let note = FHIRClinicalReader(clock: clock, words: words, resolve: resolve).noteText(element)
        var entry = FHIRClinicalEntry(
            type: "Observation", text: name,
            details: [value.text, range.text.map { words.format(.range, ["range": $0]) }, flag?.text, date, note], date: date,
            status: status, words: words)
        entry.set("name", entry.value["text"]?.textOrNil)
        entry.set("value", value.text)
        entry.set("number", number: value.number)
        entry.set("unit", value.unit)
        entry.set("range", range.text)
        entry.set("low", number: range.low)
        entry.set("high", number: range.high)
        entry.set("flag", flag?.word)
        entry.set("flagSymbol", flag?.symbol)
        entry.set("flagText", flag?.text)
        entry.set("abnormal", .bool(flag?.abnormal == true))
        entry.set("interpretation", FHIRText.concepts(interpretations, words: words))
        if badRange { entry.problems.append("a result whose reference range's low is above its high (no flag is computed from it)") }
        return entry
    }

    /// A DiagnosticReport: its name, date, status, conclusion and comments, and the results it holds.
    func report(_ resource: TreeValue, results: [FHIRClinicalEntry]) -> FHIRClinicalEntry {
        let name = FHIRText.concept(resource["code"], words: words)
        let date =
            FHIRText.choice(resource, "effective", clock: clock, words: words)
            ?? FHIRText.date(FHIRResource.string(resource, "issued"), clock: clock)
        let status = FHIRResource.string(resource, "status").map { words.code($0, of: "status") ?? FHIRClinicalEntry.words($0) }
        let conclusion =
            FHIRResource.string(resource, "conclusion") ?? FHIRText.concepts(FHIRResource.array(resource, "conclusionCode"), words: words)
        let flagged = results.filter { $0.value["abnormal"] == .bool(true) }.count
        let count = results.count == 1 ? words[.oneResult] : words.format(.results, number: Double(results.count))
        var entry = FHIRClinicalEntry(
            type: "DiagnosticReport", text: name,
            details: [
                date, status, count, flagged > 0 ? words.format(.flagged, number: Double(flagged)) : nil, conclusion,
                FHIRClinicalReader(clock: clock, words: words, resolve: resolve).noteText(resource),
            ],
            date: date, status: status, words: words)
        entry.set("name", entry.value["text"]?.textOrNil)
        entry.set("conclusion", conclusion)
        entry.set("category", FHIRText.categories(FHIRResource.array(resource, "category"), words: words))
        entry.set("results", .array(results.map(\.value)))
        entry.set("flagged", number: Double(flagged))
        entry.instant =
            FHIRText.choiceInstant(resource, "effective", clock: clock)
            ?? FHIRText.instant(FHIRResource.string(resource, "issued"), clock: clock)
        return entry
    }
}
