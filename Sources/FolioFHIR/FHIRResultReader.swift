import FolioData
import FolioModel
import Foundation

/// Observations and DiagnosticReports as results: each value with its unit, its reference range,
/// and a flag in words and a symbol when it is outside the range or interpreted as abnormal.
struct FHIRResultReader {
    let clock: ZoneClock
    /// Resolves a reference made by `container`.
    let resolve: (TreeValue?, TreeValue) -> TreeValue?

    /// The value of an observation or a component in words, and its number and unit when it is a quantity.
    func value(of element: TreeValue) -> (text: String?, number: Double?, unit: String?) {
        if let quantity = element["valueQuantity"] {
            let number: Double? = if case .number(let n)? = quantity["value"], n.isFinite { n } else { nil }
            return (FHIRText.quantity(quantity), FHIRResource.string(quantity, "comparator") == nil ? number : nil, FHIRText.unit(quantity))
        }
        if case .number(let n)? = element["valueInteger"] { return (FHIRText.number(n), n, nil) }
        if let concept = element["valueCodeableConcept"] { return (FHIRText.concept(concept), nil, nil) }
        if let text = FHIRResource.string(element, "valueString") { return (String(text.prefix(2_000)), nil, nil) }
        if case .bool(let flag)? = element["valueBoolean"] { return (flag ? "Yes" : "No", nil, nil) }
        if let range = element["valueRange"] { return (FHIRText.range(low: range["low"], high: range["high"]), nil, nil) }
        if let ratio = element["valueRatio"], let numerator = FHIRText.quantity(ratio["numerator"]) {
            return ("\(numerator) / \(FHIRText.quantity(ratio["denominator"]) ?? "1")", nil, nil)
        }
        if let text = FHIRResource.string(element, "valueDateTime") ?? FHIRResource.string(element, "valueTime") {
            return (FHIRText.date(text, clock: clock), nil, nil)
        }
        if let period = FHIRText.period(element["valuePeriod"], clock: clock) { return (period, nil, nil) }
        if let absent = FHIRText.concept(element["dataAbsentReason"]) { return ("No value (\(absent.lowercased()))", nil, nil) }
        return (nil, nil, nil)
    }

    /// The reference range's low and high numbers and its words (its text, else "3.5–5.1 mmol/L").
    func range(of element: TreeValue) -> (low: Double?, high: Double?, text: String?) {
        guard let range = FHIRResource.array(element, "referenceRange").first else { return (nil, nil, nil) }
        let low: Double? = if case .number(let n)? = range["low"]?["value"], n.isFinite { n } else { nil }
        let high: Double? = if case .number(let n)? = range["high"]?["value"], n.isFinite { n } else { nil }
        return (low, high, FHIRText.range(low: range["low"], high: range["high"]) ?? FHIRResource.string(range, "text"))
    }

    /// An Observation as a result; its components (a panel's parts) as results of their own.
    func observation(_ resource: TreeValue) -> FHIRClinicalEntry {
        let name = FHIRText.concept(resource["code"])
        var value = value(of: resource)
        let components = FHIRResource.array(resource, "component").map { component -> TreeValue in
            result(component, name: FHIRText.concept(component["code"]), date: nil, status: nil).value
        }
        if value.text == nil, !components.isEmpty {
            value.text = components.compactMap { component -> String? in
                guard case .string(let text)? = component["value"] else { return nil }
                return "\(component["name"]?.textOrNil ?? ""): \(text)"
            }.joined(separator: ", ")
        }
        let date =
            FHIRText.choice(resource, "effective", clock: clock) ?? FHIRText.date(FHIRResource.string(resource, "issued"), clock: clock)
        let status = FHIRResource.string(resource, "status").map(FHIRClinicalEntry.words)
        var entry = result(resource, name: name, date: date, status: status, value: value)
        entry.set("components", .array(components))
        entry.set("category", FHIRText.categories(FHIRResource.array(resource, "category")))
        entry.set("code", FHIRResource.codings(resource["code"]).first.map { "\($0.system ?? "")|\($0.code)" })
        entry.set("note", FHIRResource.array(resource, "note").compactMap { FHIRResource.string($0, "text") }.first)
        entry.instant =
            FHIRText.choiceInstant(resource, "effective", clock: clock)
            ?? FHIRText.instant(FHIRResource.string(resource, "issued"), clock: clock)
        return entry
    }

    /// A result's entry: its value, unit, range, flag in words and symbol.
    private func result(
        _ element: TreeValue, name: String?, date: String?, status: String?,
        value given: (text: String?, number: Double?, unit: String?)? = nil
    ) -> FHIRClinicalEntry {
        let value = given ?? value(of: element)
        let range = range(of: element)
        let flag = FHIRResultFlag.of(
            interpretation: FHIRResource.array(element, "interpretation"), value: value.number, low: range.low, high: range.high)
        let flagText = flag.map { "\($0.symbol) \($0.word)" }
        var entry = FHIRClinicalEntry(
            type: "Observation", text: name,
            details: [value.text, range.text.map { "range \($0)" }, flagText, date], date: date, status: status)
        entry.set("name", name)
        entry.set("value", value.text)
        entry.set("number", number: value.number)
        entry.set("unit", value.unit)
        entry.set("range", range.text)
        entry.set("low", number: range.low)
        entry.set("high", number: range.high)
        entry.set("flag", flag?.word)
        entry.set("flagSymbol", flag?.symbol)
        entry.set("flagText", flagText)
        entry.set("abnormal", .bool(flag != nil))
        entry.set("interpretation", FHIRText.concepts(FHIRResource.array(element, "interpretation")))
        return entry
    }

    /// A DiagnosticReport: its name, date, status and conclusion, and the results it holds.
    func report(_ resource: TreeValue, results: [FHIRClinicalEntry]) -> FHIRClinicalEntry {
        let name = FHIRText.concept(resource["code"])
        let date =
            FHIRText.choice(resource, "effective", clock: clock) ?? FHIRText.date(FHIRResource.string(resource, "issued"), clock: clock)
        let status = FHIRResource.string(resource, "status").map(FHIRClinicalEntry.words)
        let conclusion =
            FHIRResource.string(resource, "conclusion") ?? FHIRText.concepts(FHIRResource.array(resource, "conclusionCode"))
        let flagged = results.filter { $0.value["abnormal"] == .bool(true) }.count
        var entry = FHIRClinicalEntry(
            type: "DiagnosticReport", text: name,
            details: [date, status, "\(results.count) result\(results.count == 1 ? "" : "s")", flagged > 0 ? "\(flagged) flagged" : nil],
            date: date, status: status)
        entry.set("name", name)
        entry.set("conclusion", conclusion)
        entry.set("category", FHIRText.categories(FHIRResource.array(resource, "category")))
        entry.set("results", .array(results.map(\.value)))
        entry.set("flagged", number: Double(flagged))
        entry.instant =
            FHIRText.choiceInstant(resource, "effective", clock: clock)
            ?? FHIRText.instant(FHIRResource.string(resource, "issued"), clock: clock)
        return entry
    }
}
