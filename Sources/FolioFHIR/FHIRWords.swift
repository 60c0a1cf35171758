import FolioModel

/// The words a patient's record is written in: the fixed parts of a summary (its headings, the
/// columns of its tables, the words around values: "since", "for", "at most") and the codes the
/// International Patient Summary fixes (its sections' LOINC codes, list-empty-reason,
/// data-absent-reason, absent-unknown-uv-ips, v3-ObservationInterpretation, the allergy and
/// condition statuses, the medication and immunization statuses, event timings), in the
/// languages Folio has a table for: English, French, German, Spanish, Portuguese, Arabic and
/// Chinese. One place decides them; a language without a table is written in English.
package struct FHIRWords: Sendable {
    /// The language the words are in: a primary subtag Folio has a table for.
    package let language: String
    private let phrases: [Key: String]
    private let codes: [String: String]

    /// English.
    package static let english = FHIRWords(language: "en", phrases: FHIRWords.englishPhrases, codes: FHIRWords.englishCodes)

    /// The words of the language `tag` names (`fr-CA` is French), English when Folio has none.
    package static func forLanguage(_ tag: String?) -> FHIRWords {
        let primary = tag.map(Metadata.primaryLanguage(of:)) ?? "en"
        guard primary != "en", let table = FHIRWords.tables[primary] else { return .english }
        return FHIRWords(language: primary, phrases: table.phrases, codes: table.codes)
    }

    /// The languages with a table.
    package static var languages: [String] { ["en"] + FHIRWords.tables.keys.sorted() }

    /// The phrases and codes of English's tables that `language`'s own table lacks (each would be
    /// written in English): none for the languages Folio has.
    package static func missingWords(in language: String) -> [String] {
        guard let table = tables[language] else { return language == "en" ? [] : ["the whole table"] }
        return Key.allCases.filter { table.phrases[$0] == nil }.map(\.rawValue)
            + englishCodes.keys.filter { table.codes[$0] == nil }.sorted()
    }

    /// The text of `key`, English where this language's table lacks it.
    package subscript(_ key: Key) -> String { phrases[key] ?? FHIRWords.englishPhrases[key] ?? key.rawValue }

    /// `key`'s text with each `{name}` replaced by its value.
    package func format(_ key: Key, _ values: [String: String]) -> String {
        var text = self[key]
        for (name, value) in values { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }

    /// `key`'s text with `{n}` replaced by `number` (written as a person writes it).
    package func format(_ key: Key, number: Double) -> String { format(key, ["n": FHIRText.number(number)]) }

    /// Folio's words for `code` of the code system `system` (a URL, or a short name such as
    /// `status` for a resource's own status codes), when it is one the IPS fixes; nil otherwise.
    package func code(_ code: String, of system: String?) -> String? {
        guard let alias = FHIRWords.alias(of: system) else { return nil }
        let key = "\(alias)|\(code)"
        return codes[key] ?? FHIRWords.englishCodes[key]
    }

    /// The short name Folio's tables give a code system.
    private static func alias(of system: String?) -> String? {
        guard let system else { return nil }
        if let known = systemAliases[system] { return known }
        // Short names are written as they are; a URL of HL7's terminology server by its last part.
        if !system.contains("/") && !system.contains(":") { return system }
        return nil
    }

    /// The code systems Folio has words for, by their URLs.
    private static let systemAliases: [String: String] = [
        "http://loinc.org": "loinc",
        "http://terminology.hl7.org/CodeSystem/list-empty-reason": "list-empty-reason",
        "http://terminology.hl7.org/CodeSystem/data-absent-reason": "data-absent-reason",
        "http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips": "absent-unknown",
        "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation": "interpretation",
        "http://hl7.org/fhir/v3/ObservationInterpretation": "interpretation",
        "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical": "allergy-clinical",
        "http://terminology.hl7.org/CodeSystem/allergyintolerance-verification": "allergy-verification",
        "http://terminology.hl7.org/CodeSystem/condition-clinical": "condition-clinical",
        "http://terminology.hl7.org/CodeSystem/condition-ver-status": "condition-verification",
        "http://hl7.org/fhir/event-timing": "timing-event",
        "http://terminology.hl7.org/CodeSystem/v3-TimingEvent": "timing-event",
        "http://terminology.hl7.org/CodeSystem/v3-GTSAbbreviation": "timing-code",
    ]

    /// Each language's phrases and codes but English's.
    private static let tables: [String: (phrases: [Key: String], codes: [String: String])] = [
        "fr": (frenchPhrases, frenchCodes), "de": (germanPhrases, germanCodes), "es": (spanishPhrases, spanishCodes),
        "pt": (portuguesePhrases, portugueseCodes), "ar": (arabicPhrases, arabicCodes), "zh": (chinesePhrases, chineseCodes),
    ]
}
