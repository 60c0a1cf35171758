import Foundation

/// A file carried inside the PDF as an associated file (ISO 32000-2 14.13, PDF/A-3): the data a
/// report was made from (a FHIR Bundle, the record as JSON), its source, or a supplement, the way
/// e-invoices carry their XML. Written as an embedded file with its MIME type, size, dates and
/// checksum, listed in the catalog's /AF and /Names /EmbeddedFiles; the HTML and spreadsheets leave
/// it out.
public struct Attachment: Sendable, Hashable, Codable {
    /// Where the attachment's bytes come from.
    public enum Source: Sendable, Hashable {
        /// A file, relative to the input document's folder unless absolute (confined as images are).
        case file(String)
        /// The bytes themselves (base64 `data` in documents).
        case data(Data)
        /// The data record a template was rendered with, as JSON (`from: record`); set to its bytes
        /// when the template is bound.
        case record
    }

    /// How the attached file relates to the document (/AFRelationship, written as in PDF: `Data`).
    public enum Relationship: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        /// The data the document shows (the default).
        case data = "Data"
        /// What the document was made from.
        case source = "Source"
        /// Another form of the same content.
        case alternative = "Alternative"
        /// More than the document shows.
        case supplement = "Supplement"
        /// Not said.
        case unspecified = "Unspecified"
    }

    /// Where the bytes come from.
    public var source: Source
    /// The file's name in the PDF (/F and /UF); by default the file's own, `record.json` for the record.
    public var name: String?
    /// The MIME type (the embedded file's /Subtype); by default from the name's extension.
    public var mimeType: String?
    /// How the file relates to the document.
    public var relationship: Relationship
    /// What the file is (/Desc), shown by viewers' attachment lists; by default its name.
    public var description: String?

    /// An attachment from `source`.
    public init(
        source: Source, name: String? = nil, mimeType: String? = nil, relationship: Relationship = .data, description: String? = nil
    ) {
        self.source = source
        self.name = name
        self.mimeType = mimeType
        self.relationship = relationship
        self.description = description
    }

    private enum CodingKeys: String, CodingKey { case path, data, from, name, mimeType, relationship, description }

    /// What `from` may name.
    private enum Origin: String, Codable, CaseIterable, NamedOption { case record }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let given = [CodingKeys.path, .data, .from].filter { container.contains($0) }
        guard given.count == 1 else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath,
                    debugDescription: "an attachment needs exactly one of \"path\", base64 \"data\" or \"from: record\""))
        }
        switch given[0] {
        case .path: source = .file(try container.decode(String.self, forKey: .path))
        case .data:
            guard
                let bytes = Foundation.Data(
                    base64Encoded: try container.decode(String.self, forKey: .data), options: .ignoreUnknownCharacters)
            else {
                throw DecodingError.dataCorruptedError(forKey: .data, in: container, debugDescription: "not valid base64")
            }
            source = .data(bytes)
        default:
            _ = try container.decode(Origin.self, forKey: .from)
            source = .record
        }
        name = try container.decodeIfPresent(.name)
        mimeType = try container.decodeIfPresent(.mimeType)
        relationship = try container.decode(.relationship, default: .data)
        description = try container.decodeIfPresent(.description)
    }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch source {
        case .file(let path): try container.encode(path, forKey: .path)
        case .data(let bytes): try container.encode(bytes.base64EncodedString(), forKey: .data)
        case .record: try container.encode(Origin.record, forKey: .from)
        }
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(mimeType, forKey: .mimeType)
        try container.encode(relationship, forKey: .relationship)
        try container.encodeIfPresent(description, forKey: .description)
    }

    /// The name the file has in the PDF.
    public var shownName: String {
        if let name, !name.isEmpty { return name }
        switch source {
        case .file(let path): return path.split(separator: "/").last.map(String.init) ?? path
        case .data: return "attachment.bin"
        case .record: return "record.json"
        }
    }

    /// The MIME type written: `mimeType`, else one for the name's extension.
    public var shownMimeType: String {
        if let mimeType { return mimeType }
        let name = shownName.lowercased()
        let types: [(String, String)] = [
            (".fhir.json", "application/fhir+json"), (".json", "application/json"), (".xml", "application/xml"),
            (".csv", "text/csv"), (".txt", "text/plain"), (".pdf", "application/pdf"), (".png", "image/png"),
            (".jpg", "image/jpeg"), (".jpeg", "image/jpeg"), (".xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ]
        return types.first { name.hasSuffix($0.0) }?.1 ?? "application/octet-stream"
    }

    /// The most attachments a document may carry.
    public static let maximumCount = 100
    /// The most bytes an attachment may have.
    public static let maximumBytes = 64 * 1024 * 1024

    /// Checks the name (a file name, by the rules output names follow: no folders, no characters
    /// that show it as another name), the MIME type's form and the description.
    func validate(path: String) throws {
        let name = shownName
        let shown = name.escapingInvisibleControls
        guard !name.isEmpty, name.count <= 255, !name.unicodeScalars.contains(where: { "/\\:*?\"<>|".unicodeScalars.contains($0) }),
            name != ".", name != "..", !name.hasPrefix(" "), !name.hasSuffix(" "), !name.hasSuffix(".")
        else {
            throw FolioError(
                path: "\(path).name",
                "\"\(shown)\" is not a file name (no folders, none of : * ? \" < > |, not ending in a dot or space, at most 255 characters)"
            )
        }
        if let control = name.unicodeScalars.first(where: \.isInvisibleControl) {
            let hex = String(control.value, radix: 16, uppercase: true)
            throw FolioError(
                path: "\(path).name",
                "\"\(shown)\" is not a file name: it holds U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex), a control character that would show it as another name"
            )
        }
        let type = shownMimeType
        let token = #/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/#
        let parts = type.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, (try? token.wholeMatch(in: String(parts[0]))) != nil, (try? token.wholeMatch(in: String(parts[1]))) != nil
        else {
            throw FolioError(path: "\(path).mimeType", "\"\(type)\" is not a MIME type such as application/fhir+json")
        }
        if case .data(let bytes) = source, bytes.count > Attachment.maximumBytes {
            throw FolioError(path: "\(path).data", "has \(bytes.count) bytes; at most \(Attachment.maximumBytes) may be attached")
        }
        if let description, description.count > 1_000 {
            throw FolioError(path: "\(path).description", "is longer than 1,000 characters")
        }
    }
}
