import Foundation

/// A page header or footer line: texts at its left, centre and right (mirrored in right-to-left
/// languages, as the rest of the page: `left` is where lines start). Each text may hold
/// `{page}` and `{pages}` (counted within the page's section; the whole document without
/// sections), `{sectionPage}` and `{sectionPages}` (the same, by name), `{documentPage}` and
/// `{documentPages}`, `{title}` and `{date}` (the creation date, else the day of rendering).
///
/// In documents, `header: "text"` is a left text and `footer: "text"` a right one beside the
/// title; `{left, center, right}` sets each place, and `false` leaves the line empty.
public struct RunningLine: Sendable, Hashable, Codable {
    /// The text at the start of the line.
    public var left: String?
    /// The text in the middle of the line.
    public var center: String?
    /// The text at the end of the line.
    public var right: String?
    /// Barcodes standing in places instead of texts (`right: {barcode: {symbology: datamatrix, data: …}}`):
    /// a patient label on every page, for scanning a printout back into the record.
    public var barcodes: [Slot: Barcode] = [:]

    /// A line with up to three texts.
    public init(left: String? = nil, center: String? = nil, right: String? = nil) {
        self.left = left
        self.center = center
        self.right = right
    }

    /// A line with nothing on it: no header, or no footer at all.
    public static let none = RunningLine()

    /// The footer a single text makes (as `footer: "…"` in documents): the title at the left and
    /// `text` at the right.
    public static func titleBeside(_ text: String) -> RunningLine { RunningLine(left: "{title}", right: text) }

    /// Whether the line shows nothing.
    public var isEmpty: Bool { [left, center, right].allSatisfy { ($0 ?? "").isEmpty } && barcodes.isEmpty }

    /// The places of a line, in reading order.
    public enum Slot: String, Sendable, Hashable, CaseIterable {
        case left, center, right
    }

    /// The text at `slot`.
    public subscript(slot: Slot) -> String? {
        switch slot {
        case .left: return left
        case .center: return center
        case .right: return right
        }
    }

    /// This line with each text cut to `InputLimits.runningTextScalars` characters (ending in
    /// "…"), and the places that were cut.
    package func cutToRunningLength() -> (line: RunningLine, cut: [Slot]) {
        var line = self
        var cut: [Slot] = []
        for slot in Slot.allCases {
            guard let text = self[slot], text.unicodeScalars.count > InputLimits.runningTextScalars else { continue }
            let kept = String(String.UnicodeScalarView(text.unicodeScalars.prefix(InputLimits.runningTextScalars))) + "…"
            switch slot {
            case .left: line.left = kept
            case .center: line.center = kept
            case .right: line.right = kept
            }
            cut.append(slot)
        }
        return (line, cut)
    }

    /// Placeholders that only have a meaning on a page (HTML leaves out a text that holds one).
    package static let pagePlaceholders: Set<String> = [
        "page", "pages", "sectionPage", "sectionPages", "documentPage", "documentPages",
    ]

    private enum CodingKeys: String, CodingKey { case left, center, right }
    private enum PlaceKeys: String, CodingKey { case barcode }

    /// Decodes `{left, center, right}`; a plain string is a left text, `false` an empty line.
    public init(from decoder: Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let text = try? single.decode(String.self) {
            self.init(left: text)
            return
        }
        if let shown = try? single.decode(Bool.self) {
            guard !shown else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "expected a text, {left, center, right} or false (no line); true has no meaning here"))
            }
            self = .none
            return
        }
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected a text, {left, center, right} or false (no line)"))
        }
        self.init()
        // A place is a text, or {barcode: {symbology, data, …}}.
        for (slot, key) in [(Slot.left, CodingKeys.left), (.center, .center), (.right, .right)] where container.contains(key) {
            if (try? container.decodeNil(forKey: key)) == true { continue }
            if let text = try? container.decode(String.self, forKey: key) {
                switch slot {
                case .left: left = text
                case .center: center = text
                case .right: right = text
                }
                continue
            }
            guard let place = try? container.nestedContainer(keyedBy: PlaceKeys.self, forKey: key) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "expected a text or {barcode: {symbology, data}}")
            }
            barcodes[slot] = try place.decode(Barcode.self, forKey: .barcode)
        }
    }

    /// Encodes the line as `{left, center, right}`, or `false` when it is empty.
    public func encode(to encoder: Encoder) throws {
        if isEmpty {
            var single = encoder.singleValueContainer()
            try single.encode(false)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(left, forKey: .left)
        try container.encodeIfPresent(center, forKey: .center)
        try container.encodeIfPresent(right, forKey: .right)
        for (slot, barcode) in barcodes {
            let key = CodingKeys(rawValue: slot.rawValue) ?? .left
            var place = container.nestedContainer(keyedBy: PlaceKeys.self, forKey: key)
            try place.encode(barcode, forKey: .barcode)
        }
    }

    /// Checks every text's length. A `{word}` that is not a placeholder stays as written: headers
    /// were free text before they had placeholders, and braces may be part of it. (A text longer
    /// than `InputLimits.runningTextScalars` is cut when drawn, with a layout warning.)
    package func validate(path: String) throws {
        for (slot, barcode) in barcodes { try barcode.validate(path: "\(path).\(slot.rawValue).barcode") }
        for slot in Slot.allCases {
            guard let text = self[slot], text.unicodeScalars.count > InputLimits.stringScalars else { continue }
            throw FolioError(path: "\(path).\(slot.rawValue)", "is longer than \(InputLimits.stringScalars) characters")
        }
    }
}
