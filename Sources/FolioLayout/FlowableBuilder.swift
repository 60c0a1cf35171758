import FolioCharts
import FolioGraphics
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
    fileprivate(set) var inSection = false

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
    private func textAlternative(_ alt: String, of what: String, path: String) -> String? {
        let alternative = alt.trimmingCharacters(in: .whitespacesAndNewlines)
        guard alternative.isEmpty else { return alternative }
        warnings.append(
            LayoutReport.Warning(
                kind: .missingAlt, path: "\(path).alt",
                message: "the \(what) has no text alternative, so it is treated as decoration"))
        return nil
    }

    private func checkGlyphs(_ layout: ShapedText, _ string: String, path: String) {
        let missing = layout.unknownGlyphCount
        guard missing > 0 else { return }
        let sample = string.count > 60 ? String(string.prefix(57)) + "…" : string
        warnings.append(
            LayoutReport.Warning(
                kind: .missingGlyphs, path: path,
                message: "\(missing) character\(missing == 1 ? "" : "s") no installed font can draw, in \"\(sample)\""))
    }

    private func heading(
        _ string: String, size: Double, role: TextFlowable.Role, level: Int, anchor: String?, path: String,
        spaceBefore: Double = 0
    ) -> TextFlowable {
        let layout = text.paragraph([TextRun(string)], font: theme.font(size, bold: true), width: width, lineSpacing: 1.1)
        checkGlyphs(layout, string, path: path)
        return TextFlowable(
            layout: layout, text: string, color: theme.text, spaceBefore: spaceBefore, keepWithNext: true,
            role: role, outlineLevel: level, anchor: anchor)
    }

    private func body(
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
    private func textBlock(_ runs: [TextRun], width: Double, path: String, alignment: Paragraph.Alignment = .left) throws -> TextBlock {
        let block = try TextBlock(
            runs, engine: text, font: theme.font(theme.bodySize), width: width, alignment: alignment,
            linkColor: theme.accent)
        let plain = runs.map(\.text).joined()
        for piece in block.pieces { checkGlyphs(piece, plain, path: path) }
        return block
    }

    func flowables(for block: Block, path: String) throws -> [Flowable] {
        switch block {
        case .columns(let columns):
            let gap = 14.0
            let usable = width - gap * Double(columns.items.count - 1)
            var x = 0.0
            var placed: [(x: Double, flowable: Flowable)] = []
            for (index, (item, fraction)) in zip(columns.items, columns.fractions).enumerated() {
                let columnWidth = usable * fraction
                let builder = FlowableBuilder(
                    text: text, theme: theme, strings: strings, width: columnWidth, prepared: prepared, pictures: pictures)
                builder.inSection = inSection
                for flowable in try builder.flowables(for: item, path: "\(path).items[\(index)]") {
                    placed.append((x, flowable))
                }
                warnings += builder.warnings
                x += columnWidth + gap
            }
            return [ColumnsFlowable(columns: placed)]
        case .section(let section):
            inSection = true
            return [
                SectionFlowable(section),
                heading(
                    section.title, size: theme.subtitleSize + 4, role: .section, level: 1, anchor: section.id, path: path,
                    spaceBefore: 18),
            ]
        case .subtitle(let subtitle):
            return [
                heading(
                    subtitle.text, size: theme.subtitleSize, role: .subtitle, level: inSection ? 2 : 1,
                    anchor: subtitle.id, path: path, spaceBefore: 16)
            ]
        case .paragraph(let paragraph):
            return [
                TextFlowable(
                    block: try textBlock(paragraph.text.runs, width: width, path: path, alignment: paragraph.align),
                    text: paragraph.text.plainText, color: theme.text, spaceBefore: 6)
            ]
        case .image(let image):
            let data = try prepared.image(at: path)
            guard pictures.decodes(data) else {
                let field: String
                if case .file = image.source { field = "\(path).path" } else { field = "\(path).data" }
                throw FolioError(path: field, "the image data is corrupt and cannot be decoded")
            }
            let alternative = textAlternative(image.alt, of: "image", path: path)
            let natural = Double(data.pixelWidth) * 0.75
            let shownWidth = min(image.width?.points ?? natural, width)
            let size = Size(shownWidth, shownWidth * Double(data.pixelHeight) / Double(data.pixelWidth))
            return [
                FigureFlowable(
                    content: .image(data, size), title: nil, caption: caption(image.caption),
                    frameWidth: width, textColor: theme.text, captionColor: theme.muted,
                    alternative: alternative)
            ]
        case .table(let table):
            let layout = try TableLayout(table: table, width: width, text: text, theme: theme, strings: strings)
            if let header = layout.header { zip(header, layout.headerSlots).forEach { checkGlyphs($0, $1.text, path: path) } }
            return [TableFlowable(layout: layout, range: 0..<table.rows.count, isFirstPart: true)]
        case .custom(let custom):
            let drawing = ElementRecorder.drawing(of: custom.element, width: width, measurer: text, theme: theme)
            guard drawing.size.height > 0 else { return [] }
            return [
                FigureFlowable(
                    content: .drawing(drawing), title: nil, caption: nil, frameWidth: width, textColor: theme.text,
                    captionColor: theme.muted, alternative: custom.element.alternativeText)
            ]
        case .svg(let svg):
            let picture = try prepared.picture(at: path)
            guard pictures.drawsSVG else {
                throw FolioError(path: path, "drawing SVG in a PDF needs librsvg, which is not installed (Debian: apt install librsvg2-2)")
            }
            let alternative = textAlternative(svg.alt, of: "picture", path: path)
            let shownWidth = min(svg.width?.points ?? picture.size.width, width)
            let size = Size(shownWidth, shownWidth * picture.size.height / picture.size.width)
            return [
                FigureFlowable(
                    content: .svg(markup: picture.markup(idPrefix: "s", fontFamily: theme.fontFamily), size), title: nil,
                    caption: caption(svg.caption),
                    frameWidth: width, textColor: theme.text, captionColor: theme.muted,
                    alternative: alternative)
            ]
        case .chart(let chart):
            let renderer = ChartRenderer(measurer: text, theme: theme, strings: strings)
            let drawing = renderer.drawing(for: chart, width: width)
            if let alt = chart.alt, alt.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                warnings.append(
                    LayoutReport.Warning(
                        kind: .missingAlt, path: "\(path).alt",
                        message: "the chart's alt is blank, so its text alternative is described from its data"))
            }
            if renderer.repeatsColors(chart) {
                warnings.append(
                    LayoutReport.Warning(
                        kind: .colorsRepeat, path: path,
                        message:
                            "more series than the \(theme.distinguishableColors) colours the palette gives in its shades, so some share a colour; give them tints"
                    ))
            }
            let title = chart.title.map { body([TextRun($0)], width: width, size: theme.bodySize + 1, bold: true, path: path) }
            return [
                FigureFlowable(
                    content: .drawing(drawing), title: title, caption: caption(chart.caption),
                    frameWidth: width, textColor: theme.text, captionColor: theme.muted, alternative: drawing.description)
            ]
        case .message(let message):
            let textWidth = MessageFlowable.textWidth(frame: width)
            var titleRuns: [TextRun] = []
            if let label = message.kind.label(in: strings) { titleRuns.append(TextRun(label + ": ", bold: true)) }
            titleRuns.append(TextRun(message.title, bold: true))
            let bodyText = message.text.runs.isEmpty ? nil : try textBlock(message.text.runs, width: textWidth, path: path)
            return [
                MessageFlowable(
                    title: body(titleRuns, width: textWidth, path: path), body: bodyText,
                    tint: theme.tint(of: message), width: width, textColor: theme.text,
                    rightToLeft: strings.isRightToLeft)
            ]
        case .widgets(let widgets):
            let textWidth = WidgetsFlowable.textWidth(frame: width, count: widgets.items.count)
            let tiles = widgets.items.enumerated().map { index, item in
                WidgetsFlowable.Tile(
                    title: body([TextRun(item.title)], width: textWidth, size: theme.smallSize + 0.5, path: path),
                    value: body([TextRun(item.value)], width: textWidth, size: theme.widgetValueSize, bold: true, path: path),
                    detail: item.detail.map { body([TextRun($0)], width: textWidth, size: theme.smallSize, path: path) },
                    tint: item.tint ?? theme.seriesColor(index + 1))
            }
            return [WidgetsFlowable(tiles: tiles, width: width, theme: theme, rightToLeft: strings.isRightToLeft)]
        case .pageBreak:
            return [PageBreakFlowable()]
        }
    }

    private func caption(_ string: String?) -> ShapedText? {
        string.map { text.paragraph([TextRun($0)], font: theme.font(theme.smallSize + 1, italic: true), width: width) }
    }
}
