import CCairoPango
import CRSVG
import FolioGraphics
import FolioInput
import FolioLayout
import FolioModel
import FolioPango
import Foundation

/// The page canvas drawn with Cairo into the current PDF page: page frames are replayed onto it.
final class CairoCanvas: PageCanvas {
    let cr: OpaquePointer
    let text: PangoTextEngine
    let images: ImageSurfaceCache
    /// Bookmarks and page labels; nil when drawing outside a PDF document.
    var navigation: Navigation?
    /// Whether drawing builds the PDF structure tree (tagged PDF).
    var tagsStructure = true
    /// Figures, tables and links drawn so far, for the finishing step.
    private(set) var structure = StructureRecord()
    /// How many decoration (`tagged(nil)`) bodies are being drawn: their text is an artifact,
    /// so it opens no element and makes no link (a table header repeated on a later page).
    private var decorationDepth = 0
    /// How many chart pictures (`chartPicture`) are being drawn in a tagged figure's Span.
    private var chartPictureDepth = 0
    /// Whether a chart picture's Span is closed while its words are drawn (as artifacts).
    private var chartSpanSuspended = false

    init(cr: OpaquePointer, text: PangoTextEngine, images: ImageSurfaceCache) {
        self.cr = cr
        self.text = text
        self.images = images
    }

    /// Runs `body` inside a PDF structure element such as `P`, `H1`, `TD` (for figures and
    /// tables, use `figure` and `table`). With `nil`, `body` is decoration: what is drawn outside
    /// every element becomes an Artifact in the finished PDF.
    func tagged(_ tag: StructureTag?, language: String?, _ body: () -> Void) {
        guard tagsStructure, let tag else {
            decorationDepth += 1
            body()
            decorationDepth -= 1
            return
        }
        if tag.holdsText { structure.textLanguages.append(language) }
        cairo_tag_begin(cr, tag.rawValue, nil)
        body()
        cairo_tag_end(cr, tag.rawValue)
    }

    /// Runs `body` inside a `Figure` element whose text alternative is `alternative`; without
    /// one, the picture is decoration.
    func figure(alternative: String?, _ body: () -> Void) {
        guard let alternative else { return tagged(nil, body) }
        if tagsStructure { structure.figureAlternatives.append(alternative) }
        tagged(.figure, body)
    }

    /// Runs `body` inside a `Table` element; `continues` when it is a later page's part of
    /// a table already begun, so that the parts become one element.
    func table(continues: Bool, _ body: () -> Void) {
        if tagsStructure { structure.splitElements.append(continues ? .continues : .starts) }
        tagged(.table, body)
    }

    /// Runs `body` inside an `L` element; `continues` as for tables, nil for a nested list (never joined).
    func list(continues: Bool?, _ body: () -> Void) {
        if tagsStructure { structure.splitElements.append(continues.map { $0 ? .continues : .starts } ?? .whole) }
        tagged(.list, body)
    }

    /// Runs `body` inside a `TOC` element; `continues` as for tables.
    func tableOfContents(continues: Bool, _ body: () -> Void) {
        if tagsStructure { structure.splitElements.append(continues ? .continues : .starts) }
        tagged(.tableOfContents, body)
    }

    /// Runs `body` inside a `TH` or `TD`; a cell across columns is recorded for its /ColSpan.
    func tableCell(_ tag: StructureTag?, columnSpan: Int, language: String?, headsRow: Bool, _ body: () -> Void) {
        if tagsStructure, tag != nil {
            if columnSpan > 1 { structure.spanningCells.append((cell: structure.cellCount, columns: columnSpan)) }
            if headsRow, tag == .headerCell { structure.rowHeaderCells.append(structure.cellCount) }
            structure.cellCount += 1
            structure.cellLanguages.append(language)
        }
        tagged(tag, body)
    }

    /// Runs `body`, a chart's drawing inside its figure's Span: the Span is closed while its
    /// numbers (ticks, value labels) are drawn, so they are artifacts (the figure's text
    /// alternative and data table say them, and a tick at a page's top is not read as a page
    /// number), and opened again for its next shapes and names.
    func chartPicture(_ body: () -> Void) {
        guard tagsStructure, decorationDepth == 0 else { return body() }
        chartPictureDepth += 1
        body()
        chartPictureDepth -= 1
        if chartPictureDepth == 0 { resumeChartSpan() }
    }

    /// Before a chart's numbers: its Span closes.
    private func suspendChartSpan() {
        guard chartPictureDepth > 0, !chartSpanSuspended else { return }
        cairo_tag_end(cr, StructureTag.span.rawValue)
        chartSpanSuspended = true
    }

    /// Before a chart's shapes and names (and at its end, for the Span's own close): its Span opens again.
    private func resumeChartSpan() {
        guard chartSpanSuspended else { return }
        cairo_tag_begin(cr, StructureTag.span.rawValue, nil)
        chartSpanSuspended = false
    }

    /// Adds a bookmark at `level` pointing at `y` on the current page.
    func outline(_ title: String, level: Int, y: Double) {
        navigation?.addOutline(title, level: level, y: y)
    }

    /// Marks `point` as the destination of internal links to `anchor`.
    func destination(_ anchor: String, at point: Point) {
        let attributes =
            "name='\(Navigation.destinationName(anchor))' x=\(point.x.clampedInt(.down)) y=\(max(point.y - 6, 0).clampedInt(.down))"
        cairo_tag_begin(cr, CAIRO_TAG_DEST, attributes)
        cairo_tag_end(cr, CAIRO_TAG_DEST)
    }

    func setColor(_ color: Color) {
        if color.alpha >= 1 {
            cairo_set_source_rgb(cr, color.red, color.green, color.blue)
        } else {
            cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        }
    }

    private func addPath(_ path: Path) {
        cairo_new_path(cr)
        for element in path.elements {
            switch element {
            case .move(let p): cairo_move_to(cr, p.x, p.y)
            case .line(let p): cairo_line_to(cr, p.x, p.y)
            case .curve(let c1, let c2, let p): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .arc(let center, let radius, let start, let end):
                if end >= start {
                    cairo_arc(cr, center.x, center.y, radius, start, end)
                } else {
                    cairo_arc_negative(cr, center.x, center.y, radius, start, end)
                }
            case .close: cairo_close_path(cr)
            }
        }
    }

    func fill(_ path: Path, color: Color) {
        resumeChartSpan()
        addPath(path)
        setColor(color)
        cairo_fill(cr)
    }

    func rect(_ r: Rect, color: Color) {
        resumeChartSpan()
        cairo_new_path(cr)
        cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        setColor(color)
        cairo_fill(cr)
    }

    func stroke(_ path: Path, style: StrokeStyle) {
        resumeChartSpan()
        addPath(path)
        strokeCurrentPath(style)
    }

    func line(from a: Point, to b: Point, style: StrokeStyle) {
        resumeChartSpan()
        cairo_new_path(cr)
        cairo_move_to(cr, a.x, a.y)
        cairo_line_to(cr, b.x, b.y)
        strokeCurrentPath(style)
    }

    func arc(center: Point, radius: Double, start: Double, end: Double, style: StrokeStyle) {
        resumeChartSpan()
        cairo_new_path(cr)
        if end >= start {
            cairo_arc(cr, center.x, center.y, radius, start, end)
        } else {
            cairo_arc_negative(cr, center.x, center.y, radius, start, end)
        }
        strokeCurrentPath(style)
    }

    /// A chart's groups are one figure in the PDF: nothing to mark.
    func beginGroup() {}
    func endGroup() {}

    private func strokeCurrentPath(_ style: StrokeStyle) {
        setColor(style.color)
        cairo_set_line_width(cr, style.width)
        switch style.cap {
        case .butt: cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE)
        }
        style.dash.withUnsafeBufferPointer { dashes in
            cairo_set_dash(cr, dashes.baseAddress, Int32(dashes.count), 0)
        }
        cairo_stroke(cr)
    }

    /// Draws a sanitised SVG picture's markup (`SanitizedSVG.markup`: no external references,
    /// so nothing is loaded) scaled into `rect` with librsvg. Its user units are CSS pixels.
    func draw(svgMarkup markup: String, in rect: Rect) {
        cairo_save(cr)
        _ = markup.withCString { folio_svg_render(UnsafeMutableRawPointer(cr), $0, strlen($0), rect.x, rect.y, rect.width, rect.height) }
        cairo_restore(cr)
    }

    func beginClip(_ rect: Rect) {
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(cr)
    }

    func endClip() { cairo_restore(cr) }

    func draw(text item: TextItem) {
        if chartPictureDepth > 0 {
            if item.holdsLetters { resumeChartSpan() } else { suspendChartSpan() }
        }
        let layout = text.cachedLine(item.text, font: item.font)
        setColor(item.color)
        if item.rotation == 0 {
            cairo_move_to(cr, item.origin.x, item.origin.y)
            pango_cairo_show_layout(cr, layout.pointer)
        } else {
            cairo_save(cr)
            cairo_translate(cr, item.origin.x, item.origin.y)
            cairo_rotate(cr, item.rotation * .pi / 180)
            cairo_move_to(cr, 0, 0)
            pango_cairo_show_layout(cr, layout.pointer)
            cairo_restore(cr)
        }
    }

    /// Draws text shaped by Pango (`TextLayout`, which is what this renderer's layout gives it)
    /// with its top-left corner at `origin`. With `visible` (layout coordinates), only the lines
    /// whose middle lies within it are drawn and made clickable, so a paragraph split over many
    /// pages costs each page only its own lines.
    ///
    /// Text with links is drawn inside a `Span`, its links after it as `Link` elements: Cairo
    /// marks content only for elements without children, so the element the text belongs to
    /// (`P`, `TD`, …) holds the `Span` and the `Link`s, each described by its text (`/Alt`, set
    /// in the finishing step) — never text left outside every element, which would be an Artifact.
    func draw(_ text: ShapedText, at origin: Point, color: Color, visible: ClosedRange<Double>?) {
        guard let layout = text as? TextLayout else { return }
        setColor(color)
        if !layout.passages.isEmpty, tagsStructure, decorationDepth == 0 {
            drawPassages(of: layout, at: origin, visible: visible)
        } else if layout.links.isEmpty {
            drawLines(of: layout, at: origin, visible: visible)
        } else if !tagsStructure {
            let links = drawLines(of: layout, at: origin, visible: visible)
            for (url, rect, description) in links { addLink(url, rect, origin, description: description) }
        } else if decorationDepth > 0 {
            // Decoration: the same words are content where they first appear, with their links.
            drawLines(of: layout, at: origin, visible: visible)
        } else {
            cairo_tag_begin(cr, StructureTag.span.rawValue, nil)
            let links = drawLines(of: layout, at: origin, visible: visible)
            cairo_tag_end(cr, StructureTag.span.rawValue)
            for (url, rect, description) in links { addLink(url, rect, origin, description: description) }
        }
    }

    /// Text holding passages its author marked as in another language: each passage is an element
    /// of its own (a `Quote`), which the finishing step makes a `Span` with its `/Lang`; the text around
    /// it is in `Span`s too (Cairo marks content only in elements without children); links after.
    private func drawPassages(of layout: TextLayout, at origin: Point, visible: ClosedRange<Double>?) {
        var segments: [(bytes: Range<Int>, language: String?)] = []
        var position = 0
        for passage in layout.passages where passage.startByte >= position && passage.endByte > passage.startByte {
            if passage.startByte > position { segments.append((position..<passage.startByte, nil)) }
            segments.append((passage.startByte..<passage.endByte, passage.language))
            position = passage.endByte
        }
        segments.append((position..<Int(Int32.max), nil))
        var links: [(LinkTarget, Rect, String)]?
        for segment in segments {
            var name = StructureTag.span.rawValue
            if let language = segment.language {
                // Cairo names only standard types: a Quote, which Folio draws for nothing else.
                name = StructureTag.passage.rawValue
                structure.passageLanguages.append(language)
            }
            cairo_tag_begin(cr, name, nil)
            let found = drawLines(of: layout, at: origin, visible: visible ?? -Double.infinity...Double.infinity, bytes: segment.bytes)
            cairo_tag_end(cr, name)
            if links == nil { links = found }
        }
        for (url, rect, description) in links ?? [] { addLink(url, rect, origin, description: description) }
    }

    /// Draws `layout`'s lines (those whose middle is within `visible`, or all) and answers the
    /// links on them: URL, rectangle and description. With `bytes`, only the runs of those bytes
    /// are drawn (a passage tagged on its own), each where its line places it.
    @discardableResult
    private func drawLines(
        of layout: TextLayout, at origin: Point, visible: ClosedRange<Double>?, bytes: Range<Int>? = nil
    ) -> [(LinkTarget, Rect, String)] {
        var links: [(LinkTarget, Rect, String)] = []
        guard let visible else {
            cairo_move_to(cr, origin.x, origin.y)
            // Line by line: those holding right-to-left text run by run in logical order (as they
            // read), those whose text Pango would give otherwise than as the words with it mended.
            folio_show_layout(cr, layout.pointer)
            for link in layout.links {
                let description = layout.description(of: link)
                for r in layout.rects(startByte: link.startByte, endByte: link.endByte) {
                    links.append((link.url, r, description))
                }
            }
            return links
        }
        let lines = layout.lines
        // The first line at or below the visible range's top (lines are in order).
        var low = 0
        var high = lines.count
        while low < high {
            let mid = (low + high) / 2
            if lines[mid].extents.midY < visible.lowerBound { low = mid + 1 } else { high = mid }
        }
        var linkIndex = 0
        for line in lines[low...] {
            guard visible.contains(line.extents.midY) else { break }
            cairo_move_to(cr, origin.x + line.extents.x, origin.y + line.baseline)
            if let bytes {
                if bytes.lowerBound < line.endByte, bytes.upperBound > line.startByte {
                    folio_show_layout_line_bytes(
                        cr, line.pointer, Int32(clamping: bytes.lowerBound), Int32(clamping: bytes.upperBound))
                }
            } else {
                folio_show_layout_line(cr, line.pointer)
            }
            // Links are in text order: skip those that end before this line, then add those on it.
            while linkIndex < layout.links.count, layout.links[linkIndex].endByte <= line.startByte { linkIndex += 1 }
            var index = linkIndex
            while index < layout.links.count, layout.links[index].startByte < line.endByte {
                let link = layout.links[index]
                for rect in layout.rects(of: line, startByte: link.startByte, endByte: link.endByte) {
                    links.append((link.url, rect, layout.description(of: link)))
                }
                index += 1
            }
        }
        return links
    }

    /// A link over `rect` with no text of its own: an annotation and its `Link` element, described as `description`.
    func link(_ target: LinkTarget, in rect: Rect, description: String) {
        addLink(target, rect, Point(0, 0), description: description)
    }

    /// A link annotation over `rect` (layout coordinates, drawn at `origin`) described as `description`.
    private func addLink(_ link: LinkTarget, _ rect: Rect, _ origin: Point, description: String) {
        structure.linkDescriptions.append(description)
        let target: String
        if let anchor = link.anchor {
            target = "dest='\(Navigation.destinationName(anchor))'"
        } else {
            target = "uri='\(CairoCanvas.percentEncoded(link.url))'"
        }
        // Cairo takes the rectangle on the page, whatever transform the text is drawn under (a
        // column's move and scale): its corners are taken there from the current user space.
        var x0 = origin.x + rect.x
        var y0 = origin.y + rect.y
        var x1 = x0 + rect.width
        var y1 = y0 + rect.height
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        let attributes = String(
            format: "%@ rect=[%.2f %.2f %.2f %.2f]", target, min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))
        cairo_tag_begin(cr, CAIRO_TAG_LINK, attributes)
        cairo_tag_end(cr, CAIRO_TAG_LINK)
    }

    /// `url` with every byte outside RFC 3986's unreserved and reserved characters (less
    /// `'`, `(`, `)`) percent-encoded: Cairo 1.16 writes link URIs into the PDF unescaped.
    static func percentEncoded(_ url: String) -> String {
        let keep = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&*+,;=%".utf8)
        var result = ""
        for byte in url.utf8 {
            if keep.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }

    func draw(image: ImageData, in rect: Rect) {
        resumeChartSpan()
        // A picture drawn from its image object is a one-pixel placeholder, scaled to the rectangle.
        let placeholder = images.placeholder(for: image)
        guard let surface = placeholder ?? images.surface(for: image) else { return }
        cairo_save(cr)
        cairo_translate(cr, rect.x, rect.y)
        if placeholder != nil {
            cairo_scale(cr, rect.width, rect.height)
        } else {
            cairo_scale(cr, rect.width / Double(image.pixelWidth), rect.height / Double(image.pixelHeight))
        }
        cairo_set_source_surface(cr, surface.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Draws a page of an appended PDF as a placeholder the finishing step replaces with the page's
    /// Form XObject (its content as it is); where no placeholders are drawn (a picture of the page),
    /// a pale panel with a frame stands for it.
    func draw(appendedPage: AppendedPage, in rect: Rect) {
        resumeChartSpan()
        cairo_save(cr)
        if let placeholder = images.placeholder(for: appendedPage) {
            cairo_translate(cr, rect.x, rect.y)
            cairo_scale(cr, rect.width, rect.height)
            cairo_set_source_surface(cr, placeholder.pointer, 0, 0)
            cairo_paint(cr)
        } else {
            cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
            cairo_set_source_rgb(cr, 0.95, 0.95, 0.95)
            cairo_fill_preserve(cr)
            cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            // Which file and page the PDF shows here, centred: "lab-report.pdf · 1/2".
            let label = text.singleLine(
                "\(appendedPage.document.name) · \(appendedPage.index + 1)/\(appendedPage.document.pageSizes.count)",
                font: FontSpec(size: max(min(rect.width / 30, 18), 6)))
            let size = label.metrics
            draw(
                label, at: Point(rect.x + (rect.width - size.width) / 2, rect.y + (rect.height - size.height) / 2),
                color: Color(red: 0.35, green: 0.35, blue: 0.35), visible: nil)
        }
        cairo_restore(cr)
    }

    /// Runs `body` with the origin moved and the scale changed.
    func transformed(translate: Point, scale: Double, _ body: () -> Void) {
        cairo_save(cr)
        cairo_translate(cr, translate.x, translate.y)
        if scale != 1 { cairo_scale(cr, scale, scale) }
        body()
        cairo_restore(cr)
    }
}
