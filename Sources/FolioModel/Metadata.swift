import Foundation

/// Descriptive information written into the PDF's info dictionary and the HTML head.
public struct Metadata: Sendable, Hashable, Codable {
    /// The PDF's author.
    public var author: String?
    /// The PDF's subject.
    public var subject: String?
    /// The PDF's keywords.
    public var keywords: [String]
    /// BCP 47 language tag, such as `en` or `fr-CA`.
    public var language: String
    /// The IANA time zone (`America/New_York`) the `date` filter and a report table's dates show times
    /// in, when a filter names none: the reader's clocks; nil keeps each time at its own offset.
    public var timeZone: String?
    /// When the document was made; fixed dates give byte-identical output.
    public var creationDate: Date?
    /// Write a tagged PDF: a structure tree of headings, paragraphs, tables and figures for
    /// assistive technology. On by default; a 100,000-row table's tree is most of its file.
    public var tagged: Bool
    /// The PDF standards the file claims: PDF/UA-1 when tagged, and PDF/A-2u or PDF/A-3u as well when archival.
    public var conformance: Conformance

    /// Which PDF standards a document's PDF is written to.
    public enum Conformance: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        /// PDF/UA-1 (when tagged): accessible, the default.
        case accessible = "pdfua-1"
        /// PDF/A-2u as well: for archiving, with an sRGB output intent and every glyph mapped to Unicode.
        case archival = "pdfa-2u"
        /// PDF/A-3u as well: PDF/A-2u that may carry files of any kind (`attachments`), such as the
        /// FHIR Bundle a summary was made from.
        case archivalWithData = "pdfa-3u"

        /// The part of ISO 19005 (PDF/A) claimed, or nil for none.
        public var archivalPart: Int? {
            switch self {
            case .accessible: return nil
            case .archival: return 2
            case .archivalWithData: return 3
            }
        }
    }

    /// Metadata with the given fields.
    public init(
        author: String? = nil, subject: String? = nil, keywords: [String] = [],
        language: String = "en", creationDate: Date? = nil, tagged: Bool = true, conformance: Conformance = .accessible
    ) {
        self.conformance = conformance
        self.author = author
        self.subject = subject
        self.keywords = keywords
        self.language = language
        self.creationDate = creationDate
        self.tagged = tagged
    }

    private enum CodingKeys: String, CodingKey { case author, subject, keywords, language, timeZone, creationDate, tagged, conformance }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        author = try container.decodeIfPresent(.author)
        subject = try container.decodeIfPresent(.subject)
        keywords = try container.decode(.keywords, default: [])
        language = try container.decode(.language, default: "en")
        timeZone = try container.decodeIfPresent(.timeZone)
        if let timeZone, Metadata.zone(timeZone) == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .timeZone, in: container,
                debugDescription: "\"\(timeZone.prefix(64))\" is not an IANA time zone such as Europe/Paris")
        }
        tagged = try container.decode(.tagged, default: true)
        conformance = try container.decode(.conformance, default: .accessible)
        if let text = try container.decodeIfPresent(String.self, forKey: .creationDate) {
            guard let date = Metadata.parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .creationDate, in: container,
                    debugDescription: "\"\(text)\" is not an ISO 8601 date such as 2026-11-15 or 2026-11-15T09:30:00Z")
            }
            creationDate = date
        } else {
            creationDate = nil
        }
    }

    /// The IANA zone named `identifier` (ASCII, at most 64 characters), or nil.
    package static func zone(_ identifier: String) -> TimeZone? {
        guard !identifier.isEmpty, identifier.count <= 64, identifier.allSatisfy(\.isASCII) else { return nil }
        return TimeZone(identifier: identifier)
    }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(author, forKey: .author)
        try container.encodeIfPresent(subject, forKey: .subject)
        try container.encode(keywords, forKey: .keywords)
        try container.encode(language, forKey: .language)
        try container.encodeIfPresent(timeZone, forKey: .timeZone)
        try container.encode(tagged, forKey: .tagged)
        try container.encode(conformance, forKey: .conformance)
        if let creationDate {
            try container.encode(ISO8601DateFormatter().string(from: creationDate), forKey: .creationDate)
        }
    }

    /// Parses an ISO 8601 date-time (fractional seconds, `Z` or an offset, `T` or a space), or a
    /// plain `YYYY-MM-DD` date at midnight UTC; nil for anything else.
    public static func parseDate(_ text: String) -> Date? {
        ISODate.parse(text).map { Date(timeIntervalSince1970: $0) }
    }
}
