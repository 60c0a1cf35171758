/// Anything that stands as one block of a document: every block type, a chart family's data
/// (an untitled chart), `PageBreak` and `Block` itself. The document builder takes them as they are:
/// `Subtitle("Pain")`, not `.subtitle(Subtitle("Pain"))`.
public protocol BlockConvertible {
    /// The block this value is.
    var block: Block { get }
}

/// A forced page break, for the document builder (`.pageBreak` in a block list).
public struct PageBreak: Sendable, Hashable, BlockConvertible {
    /// A page break.
    public init() {}
    /// `Block.pageBreak`.
    public var block: Block { .pageBreak }
}

extension Block: BlockConvertible {
    /// The block itself.
    public var block: Block { self }
}

extension Subtitle: BlockConvertible {
    /// The subtitle as a block.
    public var block: Block { .subtitle(self) }
}

extension Paragraph: BlockConvertible {
    /// The paragraph as a block.
    public var block: Block { .paragraph(self) }
}

extension ImageBlock: BlockConvertible {
    /// The image as a block.
    public var block: Block { .image(self) }
}

extension Table: BlockConvertible {
    /// The table as a block.
    public var block: Block { .table(self) }
}

extension Chart: BlockConvertible {
    /// The chart as a block.
    public var block: Block { .chart(self) }
}

extension Message: BlockConvertible {
    /// The message as a block.
    public var block: Block { .message(self) }
}

extension Widgets: BlockConvertible {
    /// The tiles as a block.
    public var block: Block { .widgets(self) }
}

extension Section: BlockConvertible {
    /// The section start as a block.
    public var block: Block { .section(self) }
}

extension Columns: BlockConvertible {
    /// The columns as a block.
    public var block: Block { .columns(self) }

    /// The blocks the builder gives, side by side, in `widths` proportions (equal when nil).
    public init(widths: [Double]? = nil, @DocumentBuilder _ items: () throws -> [Block]) rethrows {
        self.init(try items(), widths: widths)
    }
}
