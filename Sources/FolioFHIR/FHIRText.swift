import FolioData
import FolioModel
import Foundation

/// How FHIR data types read in a report: a coded concept as its words, dates kept as precise as
/// they were written, quantities with their units, ranges, periods and people's names.
enum FHIRText {
    /// Code systems named in words where a concept has no display text.
    static let systemNames: [String: String] = [
        "http://snomed.info/sct": "SNOMED CT", "http://loinc.org": "LOINC",
        "http://www.nlm.nih.gov/research/umls/rxnorm": "RxNorm", "http://www.whocc.no/atc": "ATC",
        "http://hl7.org/fhir/sid/icd-10": "ICD-10", "http://hl7.org/fhir/sid/icd-10-cm": "ICD-10-CM",
        "http://hl7.org/fhir/sid/cvx": "CVX", "http://hl7.org/fhir/sid/ndc": "NDC", "http://unitsofmeasure.org": "UCUM",
        "http://terminology.hl7.org/CodeSystem/data-absent-reason": "data absent reason",
    ]

    /// A concept's words, decided here for every coded value Folio shows: its `text`; else the
    /// first coding's `display`, whatever else that coding lacks (a coding of a display alone is a
    /// name); else Folio's own words for a code of a system the IPS fixes (in `words`' language);
    /// else the code with its system named in words (`SNOMED CT 109228008`, `code 1234 of local
    /// codes`). Never a system's URL or a `SYSTEM|CODE` pair; nil only when the concept holds no
    /// words and no code at all.
    static func concept(_ concept: TreeValue?, words: FHIRWords = .english, codeFallback: Bool = true) -> String? {
        if let text = FHIRResource.string(concept, "text"), !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return text
        }
        let codings = FHIRResource.array(concept, "coding")
        for coding in codings {
            if let display = FHIRResource.string(coding, "display"), !display.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                return display
            }
        }
        for coding in codings {
            guard let code = FHIRResource.string(coding, "code") else { continue }
            if let known = words.code(code, of: FHIRResource.string(coding, "system")) { return known }
        }
        guard codeFallback else { return nil }
        for coding in codings {
            guard let code = FHIRResource.string(coding, "code") else { continue }
            return codeInWords(code, system: FHIRResource.string(coding, "system"))
        }
        return nil
    }

    /// A code Folio has no words for, with its system named in words: `SNOMED CT 109228008`, `OID
    /// 1.2.3 code 7`, `code 12 of local codes` (a URL's last part), or the code alone.
    static func codeInWords(_ code: String, system: String?) -> String {
        guard let system, !system.isEmpty else { return code }
        if let name = systemNames[system] { return "\(name) \(code)" }
        if system.lowercased().hasPrefix("urn:oid:") { return "OID \(system.dropFirst(8)) code \(code)" }
        // A URL (or any other text): its last part read as words, never the URL itself.
        let parts = system.split(whereSeparator: { "/:#".contains($0) }).map(String.init)
        let last = parts.last(where: { !$0.isEmpty && $0.lowercased() != "codesystem" && $0.lowercased() != "fhir" }) ?? ""
        let name = last.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        let readable = name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || $0 == " " || ("0"..."9").contains($0))
        }
        guard readable, !name.isEmpty, name.count <= 60 else { return "code \(code)" }
        return "code \(code) of \(name)"
    }

    /// A coded status as words in `words`' language: Folio's words for the code in `system` (a
    /// status of the IPS's code systems, or a resource's own status code), else the concept's.
    static func status(_ value: TreeValue?, system: String, words: FHIRWords) -> String? {
        if case .string(let code)? = value { return words.code(code, of: system) ?? FHIRClinicalEntry.words(code) }
        for coding in FHIRResource.codings(value) {
            if let known = words.code(coding.code, of: coding.system ?? system) ?? words.code(coding.code, of: system) { return known }
        }
        return concept(value, words: words)
    }

    /// HL7 v2 table 0203's common identifier types in words.
    static let identifierTypes: [String: String] = [
        "MR": "Medical record number", "SS": "Social Security number", "NI": "National identifier", "NH": "National health number",
        "PPN": "Passport number", "DL": "Driver's license number", "PI": "Patient internal identifier", "PT": "Patient external identifier",
        "SB": "Social beneficiary identifier", "JHN": "Jurisdictional health number", "AN": "Account number", "MC": "Medicare number",
        "MA": "Medicaid number", "TAX": "Tax identifier", "PRN": "Provider number", "NIIP": "National insurance payor identifier",
    ]

    /// An identifier's type in words: its text or display, else the v2 code's meaning, else the concept's words.
    static func identifierType(_ concept: TreeValue?) -> String? {
        if let text = FHIRResource.string(concept, "text") { return text }
        let codings = FHIRResource.codings(concept)
        if let display = codings.first(where: { $0.display != nil })?.display { return display }
        if let known = codings.lazy.compactMap({ identifierTypes[$0.code] }).first { return known }
        return self.concept(concept)
    }

    /// The words of a list of categories: each one's text or display, else its code in words.
    static func categories(_ list: [TreeValue], words: FHIRWords = .english) -> String? {
        let texts = list.compactMap { category -> String? in
            if let text = FHIRResource.string(category, "text") { return text }
            let codings = FHIRResource.array(category, "coding")
            if let display = codings.lazy.compactMap({ FHIRResource.string($0, "display") }).first { return display }
            return FHIRResource.codings(category).first.map { FHIRClinicalEntry.words($0.code) }
        }
        return texts.isEmpty ? nil : texts.joined(separator: words[.listSeparator])
    }

    /// The words of every concept in a list, joined.
    static func concepts(_ list: [TreeValue], words: FHIRWords = .english) -> String? {
        let texts = list.compactMap { concept($0, words: words) }
        return texts.isEmpty ? nil : texts.joined(separator: words[.listSeparator])
    }

    /// The code of a concept's coding in `system` (any system when nil).
    static func code(_ concept: TreeValue?, system: String? = nil) -> String? {
        FHIRResource.codings(concept).first { system == nil || $0.system == system }?.code
    }

    /// A FHIR `date` or `dateTime` as precise as it was written: `2019`, `2019-04`, `2019-04-12`;
    /// a time of day is shown with its date, hour and minute (`2019-04-12 14:30`) in the report's zone,
    /// or as written when no zone was chosen; a time of exactly midnight as its date alone. Text
    /// that is none of these is shown as it is, at most 40 characters.
    static func date(_ text: String?, clock: ZoneClock) -> String? {
        guard let text, !text.isEmpty else { return nil }
        if let time = FHIRTime.parse(text, zone: clock) {
            if time.dateOnly { return CivilDate.text(time.milliseconds / 86_400_000) }
            let local = clock.showsTimesAsWritten ? text : clock.text(of: time)
            let day = String(local.prefix(10))
            let hour = String(local.dropFirst(11).prefix(5))
            let rest = local.dropFirst(16)
            let midnight = hour == "00:00" && (rest.isEmpty || !rest.hasPrefix(":") || rest.dropFirst().prefix(2) == "00")
            return midnight ? day : day + " " + hour
        }
        if isPartialDate(text) { return text }
        return String(text.prefix(40))
    }

    /// The sortable instant of a date (milliseconds), partial dates at their start; nil when none.
    static func instant(_ text: String?, clock: ZoneClock) -> Int64? {
        guard let text else { return nil }
        if let time = FHIRTime.parse(text, zone: clock) { return time.milliseconds }
        guard isPartialDate(text), let year = Int(text.prefix(4)) else { return nil }
        let month = text.count == 7 ? Int(text.suffix(2)) ?? 1 : 1
        return CivilDate.days(year: year, month: month, day: 1) * 86_400_000
    }

    /// Whether `text` is a year (`2019`) or a year and month (`2019-04`).
    static func isPartialDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool { bytes[range].allSatisfy { (0x30...0x39).contains($0) } }
        if bytes.count == 4 { return digits(0..<4) }
        guard bytes.count == 7, digits(0..<4), bytes[4] == 0x2D, digits(5..<7), let month = Int(text.suffix(2)) else { return false }
        return (1...12).contains(month)
    }

    /// A number as a person writes it: no trailing ".0", at most six significant decimals.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        var text = String(format: "%.6g", value)
        if text.contains("e") { return text }
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    /// A unit as a reader sees it: the quantity's `unit` text, else its code with UCUM's
    /// annotations and brackets dropped (`{beats}/min` → `/min`, `mm[Hg]` → `mmHg`).
    static func unit(_ quantity: TreeValue?) -> String? {
        if let unit = FHIRResource.string(quantity, "unit"), !unit.isEmpty { return unit }
        guard let code = FHIRResource.string(quantity, "code"), !code.isEmpty else { return nil }
        return readableUnit(code)
    }

    /// A UCUM code read by a person: annotations dropped, brackets removed, `Cel` as °C.
    static func readableUnit(_ code: String) -> String? {
        var text = ""
        var depth = 0
        for character in code {
            if character == "{" {
                depth += 1
            } else if character == "}" {
                depth = max(0, depth - 1)
            } else if depth == 0 {
                text.append(character)
            }
        }
        text = text.replacingOccurrences(of: "[", with: "").replacingOccurrences(of: "]", with: "")
        switch text {
        case "Cel": return "°C"
        case "degF": return "°F"
        case "", "1": return nil
        default: return text
        }
    }

    /// A Quantity: `5.5 mmol/L`, with its comparator (`< 0.1 ng/mL`).
    static func quantity(_ quantity: TreeValue?) -> String? {
        guard case .number(let value)? = quantity?["value"], value.isFinite else { return nil }
        var text = number(value)
        if let comparator = FHIRResource.string(quantity, "comparator") { text = "\(comparator) \(text)" }
        if let unit = unit(quantity) { text += unit.hasPrefix("%") ? unit : " \(unit)" }
        return text
    }

    /// A Range: `3.5–5.1 mmol/L`, `≥ 60 mL/min`, `≤ 200 mg/dL`.
    static func range(low: TreeValue?, high: TreeValue?) -> String? {
        let lowValue: Double? = if case .number(let n)? = low?["value"] { n } else { nil }
        let highValue: Double? = if case .number(let n)? = high?["value"] { n } else { nil }
        let unitText = unit(high) ?? unit(low)
        let suffix = unitText.map { $0.hasPrefix("%") ? $0 : " \($0)" } ?? ""
        switch (lowValue, highValue) {
        case (let l?, let h?): return "\(number(l))–\(number(h))\(suffix)"
        case (let l?, nil): return "≥ \(number(l))\(suffix)"
        case (nil, let h?): return "≤ \(number(h))\(suffix)"
        default: return nil
        }
    }

    /// A Period: `2019-04-12 to 2020-01-03`, `from 2019-04-12`, `until 2020`.
    static func period(_ period: TreeValue?, clock: ZoneClock, words: FHIRWords = .english) -> String? {
        let start = date(FHIRResource.string(period, "start"), clock: clock)
        let end = date(FHIRResource.string(period, "end"), clock: clock)
        switch (start, end) {
        case (let s?, let e?): return s == e ? s : words.format(.dateRange, ["start": s, "end": e])
        case (let s?, nil): return words.format(.fromDate, ["date": s])
        case (nil, let e?): return words.format(.untilDate, ["date": e])
        default: return nil
        }
    }

    /// A choice of a time (`onset[x]`, `abatement[x]`, `occurrence[x]`, `effective[x]`,
    /// `performed[x]`): a date, an age, a period, a range or a string, as words.
    static func choice(_ resource: TreeValue, _ prefix: String, clock: ZoneClock, words: FHIRWords = .english) -> String? {
        if let text = FHIRResource.string(resource, "\(prefix)DateTime") ?? FHIRResource.string(resource, "\(prefix)Instant") {
            return date(text, clock: clock)
        }
        if let age = resource["\(prefix)Age"], let text = quantity(age) { return words.format(.age, ["age": text]) }
        if let period = period(resource["\(prefix)Period"], clock: clock, words: words) { return period }
        if let range = resource["\(prefix)Range"], let text = self.range(low: range["low"], high: range["high"]) {
            return words.format(.age, ["age": text])
        }
        if let text = FHIRResource.string(resource, "\(prefix)String") { return String(text.prefix(200)) }
        if case .bool(let flag)? = resource["\(prefix)Boolean"] { return flag ? words[.yes] : words[.no] }
        return nil
    }

    /// The sortable instant of a time choice (its date or its period's start).
    static func choiceInstant(_ resource: TreeValue, _ prefix: String, clock: ZoneClock) -> Int64? {
        instant(
            FHIRResource.string(resource, "\(prefix)DateTime") ?? FHIRResource.string(resource, "\(prefix)Instant")
                ?? FHIRResource.string(resource["\(prefix)Period"], "start") ?? FHIRResource.string(resource["\(prefix)Period"], "end"),
            clock: clock)
    }

    /// A reference's `display`, when it has one.
    static func display(_ reference: TreeValue?) -> String? {
        guard let text = FHIRResource.string(reference, "display"), !text.isEmpty else { return nil }
        return text
    }

    /// A person's or organisation's name: a HumanName list's official (else first) name, or `name` as a string.
    static func name(of resource: TreeValue?) -> String? {
        guard let resource else { return nil }
        if case .string(let text)? = resource["name"] { return text }
        return FHIRIndex.personName(resource)
    }
}
