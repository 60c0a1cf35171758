/// What every kind of block's model provides, in the kind's own file: its `type` name, its
/// validation, the text a reader reads in it, the anchor internal links may name, the rich texts
/// whose links must name one, the blocks nested in it, whether it may stand in a column, and the
/// heading it shows. Code over all blocks (validation, preparation, an untitled document's name)
/// asks these, never switches over kinds.
///
/// Adding a kind of block is one model type conforming to this protocol (and to
/// `BlockConvertible`), one case in `Block` (in Block.swift: its `Kind`, its decoding and its
/// `content`, each a `switch` the compiler checks), its layout (a `LaidOutBlock` in FolioLayout) and
/// its HTML (an `HTMLBlock` in FolioHTML), which a test asks of every kind; see CONTRIBUTING.md.
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
    /// Rich texts whose internal links must name an anchor of the document, with their field (`text`).
    var linkedTexts: [(text: RichText, field: String)] { get }
    /// Rich texts that may cite footnotes (`[^id]`), in reading order, with their field.
    var notedTexts: [(text: RichText, field: String)] { get }
    /// Blocks inside this one, with their field (`items[0]`): validated, prepared and searched like the others.
    var nestedBlocks: [(block: Block, field: String)] { get }
    /// Whether a block of this kind may stand in a column of `columns`.
    static var standsInColumns: Bool { get }
    /// The heading the block shows (a subtitle's, a section's), which names an untitled document.
    var heading: String? { get }
    /// Whether the block moves whole to the next page rather than split where it does not fit
    /// (`keepTogether: true`); a block taller than a page still splits.
    var keepsTogether: Bool { get }
}

extension BlockContent {
    /// Most blocks define no anchor.
    package var anchor: String? { nil }
    /// Most blocks have no links to check.
    package var linkedTexts: [(text: RichText, field: String)] { [] }
    /// The rich texts that may cite footnotes are those whose links are checked.
    package var notedTexts: [(text: RichText, field: String)] { linkedTexts }
    /// Most blocks hold no others.
    package var nestedBlocks: [(block: Block, field: String)] { [] }
    /// Most blocks may stand in a column.
    package static var standsInColumns: Bool { true }
    /// Most blocks are no heading.
    package var heading: String? { nil }
    /// Blocks that never split (images, charts without a data table, barcodes) are kept together
    /// without being asked; the others split unless their `keepTogether` says not to.
    package var keepsTogether: Bool { false }
}
