/// A barcode a scanner reads back: a patient label, a record number, a link. Encoded by libzint and
/// drawn as rectangles through the same `Canvas` as the charts (vectors, not a bitmap), with the
/// symbology's quiet zones, so the PDF and the HTML show the same symbol.
public struct Barcode: BlockContent, BlockConvertible {
    /// The kinds of symbol.
    public enum Symbology: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        /// QR Code (ISO/IEC 18004), any text.
        case qr
        /// Data Matrix ECC 200 (ISO/IEC 16022), any text.
        case datamatrix
        /// Code 128 (ISO/IEC 15417), a line of text: a record or specimen number.
        case code128
        /// PDF417 (ISO/IEC 15438), stacked rows of any text.
        case pdf417
        /// EAN-13: 12 digits (the check digit is added) or 13 with a correct check digit.
        case ean13

        /// Its name, in a text alternative.
        public var displayName: String {
            switch self {
            case .qr: return "QR code"
            case .datamatrix: return "Data Matrix code"
            case .code128: return "Code 128 barcode"
            case .pdf417: return "PDF417 code"
            case .ean13: return "EAN-13 barcode"
            }
        }

        /// "a" or "an", before `displayName`.
        public var article: String { self == .ean13 ? "an" : "a" }

        /// Whether the symbol is a square matrix (its width sets its height) rather than bars.
        public var isMatrix: Bool { self == .qr || self == .datamatrix }
    }

    /// The symbology.
    public var symbology: Symbology
    /// What the symbol holds (UTF-8 text).
    public var data: String
    /// The symbol's width with its quiet zones; 3 cm for matrix codes and 6 cm for others by default
    /// (`shownWidth`), at most the column's.
    public var width: Length?
    /// The text alternative; by default what it is and what it holds ("QR code: …").
    public var alt: String?
    /// Text under the symbol.
    public var caption: String?

    /// A barcode of `symbology` holding `data`.
    public init(symbology: Symbology, data: String, width: Length? = nil, alt: String? = nil, caption: String? = nil) {
        self.symbology = symbology
        self.data = data
        self.width = width
        self.alt = alt
        self.caption = caption
    }

    private enum CodingKeys: String, CodingKey { case symbology, data, width, alt, caption }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        symbology = try container.decode(Symbology.self, forKey: .symbology)
        data = try container.decode(LenientText.self, forKey: .data).value
        width = try container.decodeIfPresent(.width)
        alt = try container.decodeIfPresent(.alt)
        caption = try container.decodeIfPresent(.caption)
    }

    /// Encodes the value as it is written in documents.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(symbology, forKey: .symbology)
        try container.encode(data, forKey: .data)
        try container.encodeIfPresent(width, forKey: .width)
        try container.encodeIfPresent(alt, forKey: .alt)
        try container.encodeIfPresent(caption, forKey: .caption)
    }

    /// The most bytes a barcode may hold (more than any of the symbologies can).
    public static let maximumDataBytes = 4_096

    package static let kind = Block.Kind.barcode

    /// The data must be there and not too long; whether the symbology can hold it is checked when it is
    /// encoded (an error naming `data`).
    package func validate(path: String) throws {
        guard !data.isEmpty else { throw FolioError(path: "\(path).data", "a barcode needs data") }
        guard data.utf8.count <= Barcode.maximumDataBytes else {
            throw FolioError(path: "\(path).data", "a barcode may hold at most \(Barcode.maximumDataBytes) bytes")
        }
        if symbology == .ean13 {
            // zint's EAN symbology draws 1–5 digits as an EAN-5 add-on and 6–8 as an EAN-8: an EAN-13 is
            // 12 digits (zint adds the check digit) or 13 (the last is the check digit, which zint checks).
            let digits = data.utf8.allSatisfy { (0x30...0x39).contains($0) }
            guard digits, data.utf8.count == 12 || data.utf8.count == 13 else {
                throw FolioError(
                    path: "\(path).data",
                    "the data cannot be encoded in an EAN-13 barcode: it holds 12 digits, or 13 with the check digit (found \(data.count) characters)"
                )
            }
        }
        if let width { try width.validate(path: "\(path).width", allowZero: false) }
    }

    /// The width the symbol is drawn at, in points, before a narrower column limits it: `width`, else
    /// 3 cm (85 pt) for QR and Data Matrix codes and 6 cm (170 pt) for the others.
    public var shownWidth: Double { width?.points ?? (symbology.isMatrix ? 85 : 170) }

    /// The text alternative: the author's, else what the symbol is and what it holds
    /// ("QR code holding the text “https://…”", "EAN-13 barcode holding the number 4006381333931").
    public var textAlternative: String {
        if let alt, !alt.trimmingWhitespace().isEmpty { return alt }
        let number = data.allSatisfy { $0.isASCII && $0.isNumber }
        return number ? "\(symbology.displayName) holding the number \(data)" : "\(symbology.displayName) holding the text “\(data)”"
    }

    package var textContent: [String] { [caption].compactMap { $0 } }

    /// The barcode as a block.
    public var block: Block { .barcode(self) }
}
