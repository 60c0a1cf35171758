/// What every kind of block's model provides, in the kind's own file: its `type` name, its
/// validation, the text a reader reads in it, and the anchor internal links may name.
///
/// Adding a kind of block is one model type conforming to this protocol, one case in `Block`
/// (its `Kind`, its decoding and its `content`: each a `switch` the compiler checks), one
/// flowable (FolioPDF) and one HTML writer case (FolioHTML); see CONTRIBUTING.md.
package protocol BlockContent: Sendable, Hashable, Codable {
    /// The kind, whose raw value is the `type` name in documents.
    static var kind: Block.Kind { get }
    /// Throws a `FolioError` naming the first invalid field under `path` (such as `elements[3]`).
    func validate(path: String) throws
    /// The text the block prints, plain (no markup), in reading order; text alternatives
    /// (an image's or a chart's `alt`) are not part of it.
    var textContent: [String] { get }
    /// The anchor internal links (`[see](#id)`) may name, if the block defines one.
    var anchor: String? { get }
}

extension BlockContent {
    /// Most blocks define no anchor.
    package var anchor: String? { nil }
}

extension Block {
    /// The kinds of block, by their `type` name in documents.
    public enum Kind: String, Sendable, CaseIterable {
        case subtitle, paragraph, image, svg, table, chart, message, widgets, pageBreak, section, columns, custom

        /// The kind a document's `type` names; `page-break` and `pagebreak` are accepted for `pageBreak`.
        public init?(typeName: String) {
            if typeName == "page-break" || typeName == "pagebreak" {
                self = .pageBreak
            } else {
                self.init(rawValue: typeName)
            }
        }
    }

    /// The block's model, or nil for a page break (which has none).
    package var content: (any BlockContent)? {
        switch self {
        case .subtitle(let value): return value
        case .paragraph(let value): return value
        case .image(let value): return value
        case .svg(let value): return value
        case .table(let value): return value
        case .chart(let value): return value
        case .message(let value): return value
        case .widgets(let value): return value
        case .pageBreak: return nil
        case .section(let value): return value
        case .columns(let value): return value
        case .custom(let value): return value
        }
    }

    /// The text the block prints, plain, in reading order.
    package var textContent: [String] { content?.textContent ?? [] }
}
