import FolioCharts
import FolioGraphics
import FolioInput
import FolioModel
import Foundation

/// Turns a document's title and blocks into flowables at the content width, and
/// notes what a reader might miss (glyphs no font has, images without alt text).
final class FlowableBuilder {
    /// A flowable and the block it comes from.
    struct Source {
        let path: String
        let type: String
    }

    let text: TextShaper
    let theme: Theme
    /// The document's built-in words and number format.
    let strings: BuiltInStrings
    let width: Double
    let prepared: PreparedDocument
    /// What the backend can draw of pictures: a corrupt image is an error here, at layout.
    let pictures: PictureSupport
    private(set) var sources: [Source] = []
    private(set) var warnings: [LayoutReport.Warning] = []
    /// Whether a section has begun: subtitles are then one level below it.
    var inSection = false
    /// Whether the document has a title (its H1).
    var hasTitle = false
    /// Whether the title or a section heading (H1) comes before: subtitles are then H2, else H1,
    /// so that a document's first heading is H1 whatever it starts with.
    var belowTopHeading: Bool { hasTitle || inSection }

    init(text: TextShaper, theme: Theme, strings: BuiltInStrings, width: Double, prepared: PreparedDocument, pictures: PictureSupport) {
        self.text = text
        self.theme = theme
        self.strings = strings
        self.width = width
        self.prepared = prepared
        self.pictures = pictures
    }

    func items(for document: Document) throws -> [Paginator.Item] {
        var items: [Paginator.Item] = []
        func add(_ flowable: Flowable, path: String, type: String) {
            if sources.last?.path != path { sources.append(Source(path: path, type: type)) }
            items.append(Paginator.Item(flowable: flowable, source: sources.count - 1))
        }
        if !document.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            hasTitle = true
            add(
                heading(document.title, size: theme.titleSize, role: .title, level: 0, anchor: nil, path: "title"), path: "title",
                type: "title")
        }
        for (index, block) in document.elements.enumerated() {
            let path = "elements[\(index)]"
            try RenderDeadline.check(at: "laying out \(path)")
            for flowable in try flowables(for: block, path: path) { add(flowable, path: path, type: block.typeName) }
        }
        return items
    }

    /// `alt` trimmed, or nil (decoration, reported as a layout warning) when it is empty.
    func textAlternative(_ alt: String, of what: String, path: String) -> String? {
        let alternative = alt.trimmingCharacters(in: .whitespacesAndNewlines)
        guard alternative.isEmpty else { return alternative }
        warnings.append(
            LayoutReport.Warning(
                kind: .missingAlt, path: "\(path).alt",
                message: "the \(what) has no text alternative, so it is treated as decoration"))
        return nil
    }

    func checkGlyphs(_ layout: ShapedText, _ string: String, path: String) {
        let missing = layout.unknownGlyphCount
        guard missing > 0 else { return }
        let sample = string.count > 60 ? String(string.prefix(57)) + "…" : string
        warnings.append(
            LayoutReport.Warning(
                kind: .missingGlyphs, path: path,
                message: "\(missing) character\(missing == 1 ? "" : "s") no installed font can draw, in \"\(sample)\""))
    }

    func heading(
        _ string: String, size: Double, role: TextFlowable.Role, level: Int, anchor: String?, path: String,
        spaceBefore: Double = 0
    ) -> TextFlowable {
        let layout = text.paragraph([TextRun(string)], font: theme.font(size, bold: true), width: width, lineSpacing: 1.1)
        checkGlyphs(layout, string, path: path)
        return TextFlowable(
            layout: layout, text: string, color: theme.text, spaceBefore: spaceBefore, keepWithNext: true,
            role: role, outlineLevel: level, anchor: anchor)
    }

    func body(
        _ runs: [TextRun], width: Double, size: Double? = nil, bold: Bool = false, path: String,
        alignment: Paragraph.Alignment = .left
    ) -> ShapedText {
        let layout = text.paragraph(
            runs, font: theme.font(size ?? theme.bodySize, bold: bold), width: width,
            alignment: alignment, linkColor: theme.accent)
        checkGlyphs(layout, runs.map(\.text).joined(), path: path)
        return layout
    }

    /// Body text of any length (paragraphs, message text) as a block of stacked layouts.
    func textBlock(_ runs: [TextRun], width: Double, path: String, alignment: Paragraph.Alignment = .left) throws -> TextBlock {
        let block = try TextBlock(
            runs, engine: text, font: theme.font(theme.bodySize), width: width, alignment: alignment,
            linkColor: theme.accent)
        let plain = runs.map(\.text).joined()
        for piece in block.pieces { checkGlyphs(piece, plain, path: path) }
        return block
    }

    /// The flowables of `block` at `path`: its kind's layout (a `LaidOutBlock`), or a page break.
    func flowables(for block: Block, path: String) throws -> [Flowable] {
        guard let laidOut = block.laidOut else { return [PageBreakFlowable()] }
        return try laidOut.flowables(in: self, path: path)
    }

    /// Notes what rule bent, for the layout report.
    func warn(_ warning: LayoutReport.Warning) { warnings.append(warning) }

    /// A figure's caption, small and italic, at the builder's width.
    func caption(_ string: String?) -> ShapedText? {
        string.map { text.paragraph([TextRun($0)], font: theme.font(theme.smallSize + 1, italic: true), width: width) }
    }
}
