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
    /// How much shaped text the document keeps at once (its paragraphs, headings and messages).
    let residency: TextResidency
    private(set) var warnings: [LayoutReport.Warning] = []
    /// The document's heading scheme where the builder is: whether it has a title, whether a section has begun.
    var headings = HeadingLevels(hasTitle: false)
    /// The anchor of each heading a table of contents links to, by the heading's path (none without one).
    let contentsAnchors: [String: String]
    /// The pages a table of contents shows, filled in once the document is paginated.
    let contentsPages: ContentsPages
    /// How footnote citations are drawn (the document's numbers).
    let footnoteMarks: FootnoteMarks

    /// A builder at `width`; a column's builder (`within`) shares its document's anchors, pages and
    /// footnote numbers with the builder of the page, which found them once.
    init(
        text: TextShaper, theme: Theme, strings: BuiltInStrings, width: Double, prepared: PreparedDocument, pictures: PictureSupport,
        residency: TextResidency = TextResidency(), within parent: FlowableBuilder? = nil
    ) {
        self.residency = residency
        self.text = text
        self.theme = theme
        self.strings = strings
        self.width = width
        self.prepared = prepared
        self.pictures = pictures
        contentsAnchors = parent?.contentsAnchors ?? prepared.document.contentsAnchors()
        contentsPages = parent?.contentsPages ?? ContentsPages()
        footnoteMarks = parent?.footnoteMarks ?? FootnoteMarks(numbers: prepared.document.footnoteNumbers)
    }

    /// The anchor of the heading block at `path`: its own `id`, else the one a table of contents links to.
    func headingAnchor(_ id: String?, path: String) -> String? { id ?? contentsAnchors[path] }

    /// Every item of `document`, laid out at once (`ItemSource` lays a long document out as it is paginated).
    func items(for document: Document) throws -> [Paginator.Item] {
        let source = ItemSource(document: document, builder: self)
        var items: [Paginator.Item] = []
        while let item = try source.item(at: items.count) { items.append(item) }
        return items
    }

    /// The flowables of the document's title, at its width, as its first block.
    func titleFlowables(_ title: String) throws -> [Flowable] {
        [try heading(title, size: theme.titleSize, level: HeadingLevels.title, anchor: nil, path: "title")]
    }

    /// Makes room for `count` sources at once (a long document's list is not copied as it grows).
    func reserveSources(_ count: Int) { sources.reserveCapacity(count) }

    /// Notes the block at `path` as the source of the flowables it laid out; its index in `sources`.
    func addSource(path: String, type: String) -> Int {
        sources.append(Source(path: path, type: type))
        return sources.count - 1
    }

    /// While true, what a block's layout notes (warnings) is not kept: the block is being laid out
    /// again, the same way, for a page drawn after its first layout was let go.
    var isLayingOutAgain = false

    /// `alt` trimmed, or nil (decoration, reported as a layout warning) when it is empty.
    func textAlternative(_ alt: String, of what: String, path: String) -> String? {
        let alternative = alt.trimmingCharacters(in: .whitespacesAndNewlines)
        guard alternative.isEmpty else { return alternative }
        warn(
            LayoutReport.Warning(
                kind: .missingAlt, path: "\(path).alt",
                message: "the \(what) has no text alternative, so it is treated as decoration"))
        return nil
    }

    /// Warns when `layout` holds characters no font can draw; `string` (its text) is asked for then only.
    func checkGlyphs(_ layout: ShapedText, _ text: @autoclosure () -> String, path: String) {
        guard layout.unknownGlyphCount > 0, let warning = Self.missingGlyphs(in: layout, text(), path: path) else { return }
        warn(warning)
    }

    /// The warning for characters of `layout` (whose text is `string`) no font can draw, if it has any:
    /// body text and a page's header and footer say it in the same words.
    static func missingGlyphs(in layout: ShapedText, _ string: String, path: String) -> LayoutReport.Warning? {
        let missing = layout.unknownGlyphCount
        guard missing > 0 else { return nil }
        let sample = string.count > 60 ? String(string.prefix(57)) + "…" : string
        let scripts = ScriptNames.names(of: layout.unknownCharacters)
        let of = scripts.isEmpty ? "" : " of \(scripts)"
        return LayoutReport.Warning(
            kind: .missingGlyphs, path: path,
            message:
                "\(missing) character\(missing == 1 ? "" : "s")\(of) no installed font can draw (drawn as boxes), in \"\(sample)\": install a font for \(scripts.isEmpty ? "them" : "it") (on Debian, fonts-noto-core and fonts-noto-cjk)"
        )
    }

    /// A heading at `level` of the document's scheme (its tag, and its bookmark at the matching depth).
    func heading(
        _ string: String, size: Double, level: Int, anchor: String?, path: String, spaceBefore: Double = 0
    ) throws -> TextFlowable {
        // One layout (never cut into pieces), kept as the document's residency allows; a heading of
        // several lines is balanced: set at the narrowest width that keeps its number of lines, so
        // its last line is not one word under a full one.
        let runs = Typography.set([TextRun(string)], language: strings.language)
        func layout(_ width: Double) throws -> TextBlock {
            try TextBlock(
                runs, engine: text, font: theme.font(size, bold: true), width: width, alignment: .left, linkColor: nil,
                lineSpacing: 1.1, chunked: false, direction: direction(of: string), residency: residency)
        }
        var block = try layout(width)
        let lines = block.lines.count
        if lines >= 2, lines <= 6 {
            var wide = width
            var narrow = width * 0.5
            for _ in 0..<7 {
                let middle = (wide + narrow) / 2
                if try layout(middle).lines.count == lines { wide = middle } else { narrow = middle }
            }
            if wide < width { block = try layout(wide) }
        }
        for piece in block.pieces { checkGlyphs(piece, string, path: path) }
        return TextFlowable(
            block: block, color: theme.text, spaceBefore: spaceBefore, keepWithNext: true,
            role: .heading(level: level), outlineLevel: headings.outlineDepth(ofHeading: level), outlineText: string, anchor: anchor,
            language: PassageLanguage.of(string, documentLanguage: strings.language))
    }

    func body(
        _ runs: [TextRun], width: Double, size: Double? = nil, bold: Bool = false, path: String,
        alignment: Paragraph.Alignment = .left
    ) -> ShapedText {
        let plain = runs.map(\.text).joined()
        let layout = text.paragraph(
            Typography.set(runs, language: strings.language), font: theme.font(size ?? theme.bodySize, bold: bold), width: width,
            alignment: alignment, linkColor: theme.accent, direction: direction(of: plain))
        checkGlyphs(layout, plain, path: path)
        return layout
    }

    /// The direction text is set in: its `language`'s (else the one its script leaves no doubt
    /// about), else the document's, whatever letter it starts with (`TextDirection.ofPassage`).
    func direction(of text: String, language: String? = nil) -> TextDirection {
        TextDirection.ofPassage(text, language: language, documentLanguage: strings.language, documentRightToLeft: strings.isRightToLeft)
    }

    /// Body text of any length (paragraphs, message text) as a block of stacked layouts; justified
    /// text is hyphenated in its `language` (the document's `metadata.language` when nil), so its
    /// lines need not stretch their spaces, and set ragged in a measure under 30 ems (a column),
    /// where too few spaces share a line's slack (as the HTML does on narrow screens).
    /// `linkColor`: the links' colour where the text stands on a tint (a message), else the theme's accent.
    /// Set in `direction`, else in its language's or the document's (`direction(of:language:)`).
    func textBlock(
        _ runs: [TextRun], width: Double, path: String, alignment: Paragraph.Alignment = .left, linkColor: Color? = nil,
        language: String? = nil, direction: TextDirection? = nil
    ) throws -> TextBlock {
        let alignment = alignment == .justify && width < 30 * theme.bodySize ? .left : alignment
        // Set as the HTML sets it (the document's built-in language); hyphenated by the whole tag,
        // which chooses the patterns (en-GB's, pt-PT's), also of languages with no built-in words.
        let set = Typography.set(footnoteMarks.resolved(runs), language: strings.language)
        let hyphenation = language ?? prepared.document.metadata.language
        let runs = alignment == .justify ? text.hyphenated(set, language: hyphenation) : set
        let block = try TextBlock(
            runs, engine: text, font: theme.font(theme.bodySize), width: width, alignment: alignment,
            linkColor: linkColor ?? theme.accent, direction: direction ?? self.direction(of: set.map(\.text).joined(), language: language),
            residency: residency)
        for piece in block.pieces { checkGlyphs(piece, runs.map(\.text).joined(), path: path) }
        return block
    }

    /// The flowables of `block` at `path`: its kind's layout (a `LaidOutBlock`), or a page break.
    func flowables(for block: Block, path: String) throws -> [Flowable] {
        guard let laidOut = block.laidOut else { return [PageBreakFlowable()] }
        return try laidOut.flowables(in: self, path: path)
    }

    /// Notes what rule bent, for the layout report.
    func warn(_ warning: LayoutReport.Warning) {
        if !isLayingOutAgain { warnings.append(warning) }
    }

    /// Each cited footnote as set at the foot of a page, in number order: its number (a link back to
    /// its first citation) hanging beside its text, a point larger than captions.
    func footnoteFlowables() throws -> [FootnoteFlowable] {
        let document = prepared.document
        let font = theme.font(theme.smallSize + 1)
        let byNumber = footnoteMarks.numbers.sorted { $0.value < $1.value }
        let indent = text.lineWidth(String(repeating: "8", count: String(byNumber.count).count), font: font) + 6
        let continued = strings[.continued]
        let shaper = text
        return try byNumber.compactMap { id, number -> FootnoteFlowable? in
            guard let note = document.footnotes[id] else { return nil }
            let label = text.wrapped(
                [TextRun(String(number), link: .anchor(FootnoteMarks.referenceAnchor(number)))], font: font, width: indent,
                alignment: .left,
                linkColor: theme.accent, lineSpacing: 1.25, direction: nil)
            let block = try TextBlock(
                Typography.set(note.runs, language: strings.language), engine: text, font: font, width: width - indent, alignment: .left,
                linkColor: theme.accent, direction: direction(of: note.plainText), residency: residency)
            for piece in block.pieces { checkGlyphs(piece, note.plainText, path: "footnotes.\(id)") }
            return FootnoteFlowable(
                number: number, label: label, text: TextFlowable(block: block, color: theme.text, spaceBefore: 2, role: .span),
                indent: indent,
                width: width, color: theme.text, rightToLeft: strings.isRightToLeft,
                continuedLabel: { shaper.singleLine("\(number) (\(continued))", font: font) })
        }
    }

    /// A figure's caption, small and italic, at the builder's width.
    func caption(_ string: String?) -> ShapedText? {
        string.map {
            text.paragraph([TextRun($0)], font: theme.font(theme.smallSize + 1, italic: true), width: width, direction: direction(of: $0))
        }
    }
}
