/// A block of your own, as CareKit let apps define their own document elements: a signature
/// line, a body map, a medication calendar. It lays itself out (its height for a width) and
/// draws through `ElementCanvas`, so one drawing reaches the PDF and the HTML; it may also write
/// its own HTML through `ElementMarkup` instead of the drawing. Put it in a document as any block:
/// `Document { CustomBlock(SignatureLine(name: "Dr Okafor")) }`.
///
/// Custom elements exist in Swift only: a JSON or YAML document cannot name one (use an `svg`
/// block there), and encoding one writes its `typeName` and text alternative.
public protocol CustomElement: Sendable, Hashable {
    /// A short name for the kind of element, as in error messages and the layout report.
    var typeName: String { get }
    /// What a screen reader says for the drawing; nil makes it decoration.
    var alternativeText: String? { get }
    /// The text the element shows, for search and checks; empty by default.
    var textContent: [String] { get }
    /// The height the element needs at `width` points.
    func height(forWidth width: Double, style: ElementStyle) -> Double
    /// Draws the element in the box from (0, 0) to (`width`, `height`).
    func draw(on canvas: ElementCanvas, width: Double, height: Double)
    /// Its own HTML, or nil (the default) for its drawing as inline SVG.
    func html() -> ElementMarkup?
    /// Throws a `FolioError` naming the bad field under `path`; nothing by default.
    func validate(path: String) throws
}

extension CustomElement {
    /// No text beyond the drawing.
    public var textContent: [String] { [] }
    /// The drawing, as inline SVG.
    public func html() -> ElementMarkup? { nil }
    /// Nothing to check.
    public func validate(path: String) throws {}
}

/// A custom element as a block of a document.
public struct CustomBlock: Sendable, Hashable, Codable {
    /// The element.
    public let element: any CustomElement

    /// `element` as a block.
    public init(_ element: some CustomElement) { self.element = element }

    /// Equal when both hold equal elements of one type.
    public static func == (lhs: CustomBlock, rhs: CustomBlock) -> Bool {
        func equal<T: CustomElement>(_ left: T) -> Bool { (rhs.element as? T) == left }
        return equal(lhs.element)
    }

    /// Hashes the element.
    public func hash(into hasher: inout Hasher) { hasher.combine(element) }

    private enum CodingKeys: String, CodingKey { case name, alt }

    /// Custom elements cannot be read from documents.
    public init(from decoder: Decoder) throws {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "custom elements are built in Swift; use an svg block in documents"))
    }

    /// Writes the element's type name and text alternative.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(element.typeName, forKey: .name)
        try container.encodeIfPresent(element.alternativeText, forKey: .alt)
    }
}

extension CustomBlock: BlockContent {
    /// `custom`.
    package static let kind = Block.Kind.custom
    /// The element's own checks.
    package func validate(path: String) throws { try element.validate(path: path) }
    /// The element's text.
    package var textContent: [String] { element.textContent }
}

extension CustomBlock: BlockConvertible {
    /// The custom element as a block.
    public var block: Block { .custom(self) }
}
