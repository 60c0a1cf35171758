import FolioData
import FolioModel

/// A FHIR R4 `Dosage` said completely, in the record's language: the dose or dose range and its
/// rate; the timing (a timing code, frequency with or without a period, period ranges, the days of
/// the week, times of day, events such as "before breakfast" with their offset, the bounds — "for 14
/// days", a period —, a count, each dose's duration, dates); "as needed" with its reason; route,
/// method and site; the most per period, per administration and in a lifetime; additional
/// instructions and the patient's instruction. The dosage's own `text` is shown as written, with the
/// structured form beside it when that says something else.
struct FHIRDosage {
    let words: FHIRWords
    let clock: ZoneClock

    /// The dosage in one line, or nil when it says nothing.
    func text(_ dosage: TreeValue) -> String? {
        let structured = parts(of: dosage).joined(separator: words[.clauseSeparator])
        guard let written = FHIRResource.string(dosage, "text")?.trimmingCharacters(in: .whitespacesAndNewlines), !written.isEmpty
        else { return structured.isEmpty ? nil : structured }
        guard !structured.isEmpty, FHIRDosage.folded(structured) != FHIRDosage.folded(written) else { return written }
        return words.format(.codedAs, ["text": written, "coded": structured])
    }

    /// The structured parts, in the order a prescription reads.
    func parts(of dosage: TreeValue) -> [String] {
        var parts: [String] = []
        for doseAndRate in FHIRResource.array(dosage, "doseAndRate") {
            if let dose = FHIRText.quantity(doseAndRate["doseQuantity"]) {
                parts.append(dose)
            } else if let range = doseAndRate["doseRange"], let text = FHIRText.range(low: range["low"], high: range["high"]) {
                parts.append(text)
            }
            if let rate = rate(doseAndRate) { parts.append(words.format(.atRate, ["rate": rate])) }
        }
        parts += timing(dosage["timing"])
        if case .bool(true)? = dosage["asNeededBoolean"] { parts.append(words[.asNeeded]) }
        if let reason = FHIRText.concept(dosage["asNeededCodeableConcept"], words: words) {
            parts.append(words.format(.asNeededFor, ["reason": reason]))
        }
        for key in ["route", "method", "site"] {
            if let concept = FHIRText.concept(dosage[key], words: words) { parts.append(concept) }
        }
        if let most = ratio(dosage["maxDosePerPeriod"]) { parts.append(words.format(.atMost, ["dose": most])) }
        if let most = FHIRText.quantity(dosage["maxDosePerAdministration"]) { parts.append(words.format(.atMostPerDose, ["dose": most])) }
        if let most = FHIRText.quantity(dosage["maxDosePerLifetime"]) { parts.append(words.format(.atMostInALifetime, ["dose": most])) }
        if let additional = FHIRText.concepts(FHIRResource.array(dosage, "additionalInstruction"), words: words) {
            parts.append(additional)
        }
        if let instruction = FHIRResource.string(dosage, "patientInstruction") {
            parts.append(words.format(.patientInstruction, ["text": String(instruction.prefix(1_000))]))
        }
        return parts
    }

    /// A dose's rate: a quantity (`100 mL/h`), a range, or a ratio (`5 mL a minute`).
    private func rate(_ doseAndRate: TreeValue) -> String? {
        if let quantity = FHIRText.quantity(doseAndRate["rateQuantity"]) { return quantity }
        if let range = doseAndRate["rateRange"], let text = FHIRText.range(low: range["low"], high: range["high"]) { return text }
        return ratio(doseAndRate["rateRatio"])
    }

    /// A Ratio as an amount per period where the denominator is a time (`4 g a day`, `4 g per 2
    /// days`), else `numerator per denominator`.
    private func ratio(_ ratio: TreeValue?) -> String? {
        guard let amount = FHIRText.quantity(ratio?["numerator"]) else { return nil }
        let denominator = ratio?["denominator"]
        let value: Double = if case .number(let n)? = denominator?["value"], n.isFinite, n > 0 { n } else { 1 }
        if let unit = FHIRDosage.timeUnit(denominator) {
            if value == 1 { return words.format(.ratePerPeriod, ["amount": amount, "per": per(unit)]) }
            return words.format(.ratio, ["amount": amount, "per": duration(unit, FHIRText.number(value), count: value)])
        }
        guard let per = FHIRText.quantity(denominator) else { return amount }
        return words.format(.ratio, ["amount": amount, "per": per])
    }

    // MARK: timing

    /// A Timing's parts: its code's words, then its repeat's, then its events' dates.
    func timing(_ timing: TreeValue?) -> [String] {
        guard let timing else { return [] }
        var parts: [String] = []
        let repeating = timing["repeat"]
        let frequency = repeating.flatMap(self.frequency)
        if let code = timing["code"], frequency == nil, let words = FHIRText.concept(code, words: words) { parts.append(words) }
        if let repeating {
            if let frequency { parts.append(frequency) }
            parts += details(of: repeating)
        }
        let events = FHIRResource.array(timing, "event").compactMap { value -> String? in
            guard case .string(let text) = value else { return nil }
            return FHIRText.date(text, clock: clock)
        }
        if !events.isEmpty { parts.append(words.format(.on, ["dates": list(events.prefix(12).map { $0 })])) }
        return parts
    }

    /// How often: "twice a day", "once every 2 days", "every 4 to 6 hours", "1 to 3 times a day", or a
    /// frequency alone ("3 times").
    private func frequency(_ repeating: TreeValue) -> String? {
        let frequency = FHIRDosage.positiveNumber(repeating["frequency"])
        let frequencyMax = FHIRDosage.positiveNumber(repeating["frequencyMax"])
        let period = FHIRDosage.positiveNumber(repeating["period"])
        let periodMax = FHIRDosage.positiveNumber(repeating["periodMax"])
        let unit = FHIRResource.string(repeating, "periodUnit").flatMap { FHIRDosage.units.contains($0) ? $0 : nil }
        let times = times(frequency ?? 1, frequencyMax)
        guard let period, let unit else { return frequency.map { _ in times } }
        if period == 1, periodMax == nil { return words.format(.frequency, ["times": times, "per": per(unit)]) }
        let count = periodMax.map { FHIRText.number(period) == FHIRText.number($0) ? period : 2 } ?? period
        let n =
            periodMax.map { words.format(.everyRange, ["low": FHIRText.number(period), "high": FHIRText.number($0)]) }
            ?? FHIRText.number(period)
        let every = self.every(unit, n, count: count)
        // Once every 4 hours reads as every 4 hours.
        if (frequency ?? 1) == 1, frequencyMax == nil { return every }
        return words.format(.everyFrequency, ["times": times, "every": every])
    }

    /// The repeat's other parts: each dose's duration, the days, times and events, the bounds, the count.
    private func details(of repeating: TreeValue) -> [String] {
        var parts: [String] = []
        if let each = FHIRDosage.positiveNumber(repeating["duration"]), let unit = FHIRResource.string(repeating, "durationUnit"),
            FHIRDosage.units.contains(unit)
        {
            let most = FHIRDosage.positiveNumber(repeating["durationMax"])
            let n =
                most.map { words.format(.everyRange, ["low": FHIRText.number(each), "high": FHIRText.number($0)]) } ?? FHIRText.number(each)
            parts.append(words.format(.eachDoseOver, ["duration": duration(unit, n, count: most ?? each)]))
        }
        let days = FHIRResource.array(repeating, "dayOfWeek").compactMap { value -> String? in
            guard case .string(let code) = value else { return nil }
            return words.code(code, of: "weekday")
        }
        if !days.isEmpty { parts.append(words.format(.onDays, ["days": list(days)])) }
        let times = FHIRResource.array(repeating, "timeOfDay").compactMap { value -> String? in
            guard case .string(let text) = value, text.utf8.count >= 5 else { return nil }
            return String(text.prefix(5))
        }
        if !times.isEmpty { parts.append(words.format(.atTimes, ["times": list(times)])) }
        let offset = FHIRDosage.positiveNumber(repeating["offset"])
        for value in FHIRResource.array(repeating, "when") {
            guard case .string(let code) = value else { continue }
            let event = words.code(code, of: "timing-event") ?? FHIRClinicalEntry.words(code)
            guard let offset else {
                parts.append(event)
                continue
            }
            let directional = code.hasPrefix("AC") || code.hasPrefix("PC")
            parts.append(words.format(directional ? .minutesBefore : .minutesAfter, ["n": FHIRText.number(offset), "event": event]))
        }
        if let bounds = bounds(repeating) { parts.append(bounds) }
        if let count = FHIRDosage.positiveNumber(repeating["count"]) {
            if let most = FHIRDosage.positiveNumber(repeating["countMax"]), most != count {
                parts.append(words.format(.doseCountRange, ["low": FHIRText.number(count), "high": FHIRText.number(most)]))
            } else {
                parts.append(words.format(.doseCount, ["n": FHIRText.number(count)]))
            }
        }
        return parts
    }

    /// How long the timing lasts: `boundsDuration` ("for 14 days"), `boundsRange` ("for 5 to 7 days")
    /// or `boundsPeriod` ("2026-11-02 to 2026-11-16").
    private func bounds(_ repeating: TreeValue) -> String? {
        if let lasting = repeating["boundsDuration"], let value = FHIRDosage.positiveNumber(lasting["value"]),
            let unit = FHIRDosage.timeUnit(lasting)
        {
            return words.format(.forDuration, ["duration": duration(unit, FHIRText.number(value), count: value)])
        }
        if let range = repeating["boundsRange"], let low = FHIRDosage.positiveNumber(range["low"]?["value"]),
            let high = FHIRDosage.positiveNumber(range["high"]?["value"]), let unit = FHIRDosage.timeUnit(range["high"])
        {
            let n = words.format(.everyRange, ["low": FHIRText.number(low), "high": FHIRText.number(high)])
            return words.format(.forDuration, ["duration": duration(unit, n, count: high)])
        }
        return FHIRText.period(repeating["boundsPeriod"], clock: clock, words: words)
    }

    // MARK: words

    private func times(_ low: Double, _ high: Double?) -> String {
        if let high, high != low {
            return words.format(.timesRange, ["low": FHIRText.number(low), "high": FHIRText.number(high)])
        }
        switch low {
        case 1: return words[.timesOne]
        case 2: return words[.timesTwo]
        default: return words.format(.timesN, number: low)
        }
    }

    /// "a day", "an hour": once per `unit`.
    private func per(_ unit: String) -> String {
        let keys: [String: FHIRWords.Key] = [
            "s": .perSecond, "min": .perMinute, "h": .perHour, "d": .perDay, "wk": .perWeek, "mo": .perMonth, "a": .perYear,
        ]
        return words[keys[unit] ?? .perDay]
    }

    /// "every 2 days", "every 4 to 6 hours".
    private func every(_ unit: String, _ n: String, count: Double) -> String {
        let keys: [String: FHIRWords.Key] = [
            "s": .everySeconds, "min": .everyMinutes, "h": .everyHours, "d": .everyDays, "wk": .everyWeeks, "mo": .everyMonths,
            "a": .everyYears,
        ]
        return words.format(keys[unit] ?? .everyDays, ["n": n])
    }

    /// "14 days", "1 hour", "5 to 7 days".
    private func duration(_ unit: String, _ n: String, count: Double) -> String {
        if count == 1, n == "1" {
            let one: [String: FHIRWords.Key] = [
                "s": .oneSecond, "min": .oneMinute, "h": .oneHour, "d": .oneDay, "wk": .oneWeek, "mo": .oneMonth, "a": .oneYear,
            ]
            return words[one[unit] ?? .oneDay]
        }
        let keys: [String: FHIRWords.Key] = [
            "s": .seconds, "min": .minutes, "h": .hours, "d": .days, "wk": .weeks, "mo": .months, "a": .years,
        ]
        return words.format(keys[unit] ?? .days, ["n": n])
    }

    /// Items joined as a sentence lists them: "Mondays and Thursdays", "a, b and c".
    private func list(_ items: [String]) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: words[.listSeparator]) + words[.listAnd] + last
    }

    /// The UCUM units of time a timing uses.
    static let units: Set<String> = ["s", "min", "h", "d", "wk", "mo", "a"]

    /// A Duration's (or Quantity's) unit of time as UCUM writes it, from its code or its unit text.
    static func timeUnit(_ quantity: TreeValue?) -> String? {
        if let code = FHIRResource.string(quantity, "code"), units.contains(code) { return code }
        let names: [String: String] = [
            "second": "s", "seconds": "s", "minute": "min", "minutes": "min", "hour": "h", "hours": "h", "day": "d", "days": "d",
            "week": "wk", "weeks": "wk", "month": "mo", "months": "mo", "year": "a", "years": "a",
        ]
        guard let unit = FHIRResource.string(quantity, "unit")?.lowercased() else { return nil }
        return units.contains(unit) ? unit : names[unit]
    }

    private static func positiveNumber(_ value: TreeValue?) -> Double? {
        guard case .number(let number)? = value, number.isFinite, number > 0, number < 1e9 else { return nil }
        return number
    }

    /// Text compared without case, spaces or punctuation.
    private static func folded(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
    }
}
