import FolioGraphics
import FolioInput
import FolioModel
import Foundation

/// The running header and the footer, drawn on every page when the page count is known. Each
/// line has up to three places (left, centre, right; mirrored in right-to-left languages, where
/// the logo is on the right too); a text wraps within its place, so nothing is cut or overlaps,
/// and a header or footer that does not fit in its margin is a layout-report warning.
struct PageDecorations {
    let document: Document
    let strings: BuiltInStrings
    let theme: Theme
    let text: TextShaper
    let content: Rect
    let pageSize: Size
    private let font: FontSpec
    private let header: RunningLine
    private let footer: RunningLine
    private let date: String
    private let logoSize: Size?
    /// The barcodes standing in places of the header and footer, drawn once.
    private let headerLabels: [RunningLine.Slot: Drawing]
    private let footerLabels: [RunningLine.Slot: Drawing]
    /// The watermark, laid out once.
    private let watermark: TextItem?
    /// Every text laid out in this render, by text and place: most are the same on every page,
    /// so each is shaped once.
    private let layouts = LayoutCache()

    /// The laid-out header and footer texts of one render.
    private final class LayoutCache {
        struct Key: Hashable {
            let text: String
            let width: Double
            let alignment: Table.Alignment
        }
        var layouts: [Key: (layout: ShapedText, boxWidth: Double)] = [:]
        /// Paths of the places whose text was cut to `InputLimits.runningTextLines` lines.
        var cut: Set<String> = []
        /// The places whose text holds characters no font can draw (a patient's name in boxes), by path.
        var missingGlyphs: [String: LayoutReport.Warning] = [:]
    }

    /// Room between the content and the header's rule.
    private static let gap = 10.0
    /// Room between the content and the footer's text.
    private static let footerGap = 14.0
    /// Room between two places of a line.
    private static let placeGap = 8.0
    /// How far from the paper's edge page furniture keeps: office printers do not print the outer 4–5 mm.
    static let printableBand = 6 / 25.4 * 72

    init(
        document: Document, date: Date, strings: BuiltInStrings, theme: Theme, text: TextShaper, content: Rect, pageSize: Size
    ) throws {
        self.document = document
        self.strings = strings
        self.theme = theme
        self.text = text
        self.content = content
        self.pageSize = pageSize
        font = theme.font(theme.smallSize + 0.5)
        logoSize = theme.logo.map { logo in Size(16 * Double(logo.pixelWidth) / Double(logo.pixelHeight), 16) }
        // A place's text is cut to InputLimits.runningTextScalars before anything else, so neither
        // filling nor shaping it on every page costs more than that.
        let (header, headerCut) = (document.header ?? .none).cutToRunningLength()
        let (footer, footerCut) = document.footerLine(strings: strings).cutToRunningLength()
        self.header = header
        self.footer = footer
        for slot in headerCut { layouts.cut.insert("header.\(slot.rawValue)") }
        for slot in footerCut { layouts.cut.insert("footer.\(slot.rawValue)") }
        self.date = document.runningDate(strings: strings, date: date)
        func labels(_ line: RunningLine, _ path: String) throws -> [RunningLine.Slot: Drawing] {
            try line.barcodes.reduce(into: [:]) { labels, entry in
                labels[entry.key] = try BarcodeSymbol(entry.value, path: "\(path).\(entry.key.rawValue).barcode")
                    .label(for: entry.value.symbology)
            }
        }
        watermark = document.watermark.map {
            PageDecorations.watermarkItem($0, text: text, theme: theme, pageSize: pageSize)
        }
        headerLabels = try labels(header, "header")
        footerLabels = try labels(footer, "footer")
    }

    /// The scale at which furniture `height` high, standing on `y` (hanging from it when not `above`),
    /// stays inside the printable band: 1 when it fits, down to a half (the layout report warns).
    private func bandScale(height: Double, y: Double, above: Bool) -> Double {
        guard height > 0 else { return 1 }
        let room = above ? y - PageDecorations.printableBand : pageSize.height - PageDecorations.printableBand - y
        return min(1, max(0.5, room / height))
    }

    /// Draws a line's barcodes with their tops at `y` (bottoms at `y`, `above`): each in its place,
    /// mirrored in right-to-left languages as the texts are; `indent` keeps the logo's room free.
    /// A barcode that would reach into the outer 6 mm of the paper is drawn smaller, to stay printable.
    private func drawLabels(_ labels: [RunningLine.Slot: Drawing], y: Double, above: Bool, indent: Double, on canvas: PageCanvas) {
        for (slot, drawing) in labels.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let side: RunningLine.Slot = strings.isRightToLeft && slot != .center ? (slot == .left ? .right : .left) : slot
            let scale = bandScale(height: drawing.size.height, y: y, above: above)
            let size = Size(drawing.size.width * scale, drawing.size.height * scale)
            let x: Double
            switch side {
            case .left: x = content.x + (strings.isRightToLeft ? 0 : indent)
            case .center: x = content.x + (content.width - size.width) / 2
            case .right: x = content.maxX - size.width - (strings.isRightToLeft ? indent : 0)
            }
            canvas.transformed(translate: Point(x, above ? y - size.height : y), scale: scale) { drawing.replay(on: canvas) }
        }
    }

    /// The watermark across the page, from its lower-left to its upper-right corner, centred, as
    /// large as fits 60 % of the diagonal (12 to 120 pt; the corners stay clear). Laid out once per
    /// render; drawn first on every page so the content covers it, outside any structure element
    /// (the PDF marks it an artifact).
    private static func watermarkItem(_ watermark: Watermark, text: TextShaper, theme: Theme, pageSize: Size) -> TextItem {
        let words = watermark.shownText
        let diagonal = (pageSize.width * pageSize.width + pageSize.height * pageSize.height).squareRoot()
        let measured = text.lineWidth(words, font: theme.font(100, bold: true))
        let size = measured > 0 ? min(120, max(12, 100 * diagonal * 0.6 / measured)) : 72
        let font = theme.font(size, bold: true)
        let shaped = text.singleLine(words, font: font)
        let angle = -atan2(pageSize.height, pageSize.width)
        // The text's centre on the page's centre: its top-left corner, turned with it about that corner.
        let (half, halfHeight) = (shaped.metrics.width / 2, shaped.metrics.height / 2)
        let origin = Point(
            pageSize.width / 2 - (half * cos(angle) - halfHeight * sin(angle)),
            pageSize.height / 2 - (half * sin(angle) + halfHeight * cos(angle)))
        return TextItem(
            text: words, origin: origin, font: font, color: theme.muted.withAlpha(watermark.opacity), metrics: shaped.metrics,
            rotation: angle * 180 / .pi)
    }

    /// Whether the header line is drawn (text or a logo).
    private var hasHeader: Bool { !header.isEmpty || logoSize != nil || !headerLabels.isEmpty }

    /// The laid-out texts of `line` on a page, each with its left edge; `indent` keeps the start of
    /// the line free (for the logo). The left place is at the start of the line: on the right in a
    /// right-to-left language, and the right place on the left.
    private func placed(
        _ line: RunningLine, _ numbering: PageNumbering, indent: Double = 0, path: String
    ) -> [(layout: ShapedText, x: Double)] {
        let values = document.runningValues(numbering, date: date)
        let slots = RunningLine.Slot.allCases.filter { !(line[$0] ?? "").isEmpty }
        guard !slots.isEmpty else { return [] }
        let usable = content.width - indent
        // One place alone takes the line; with a centre text every place gets a third, so the
        // centre stays on the page's axis; otherwise left and right share the line.
        // A barcode's place is taken: the texts share the line with it.
        let taken = Set(slots).union(line.barcodes.keys)
        let share = taken.count == 1 ? usable : (taken.contains(.center) ? content.width / 3 : usable / 2)
        let width = max(share - (taken.count == 1 ? 0 : PageDecorations.placeGap), 24)
        let startIndent = strings.isRightToLeft ? 0 : indent
        let endIndent = strings.isRightToLeft ? indent : 0
        return slots.map { slot in
            let filled = (line[slot] ?? "").fillingPlaceholders(values)
            // The side of the page the text keeps to.
            let side: RunningLine.Slot = strings.isRightToLeft && slot != .center ? (slot == .left ? .right : .left) : slot
            let alignment: Table.Alignment = side == .center ? .center : (side == .right) != strings.isRightToLeft ? .right : .left
            let (layout, boxWidth) = laidOut(filled, width: width, alignment: alignment, path: "\(path).\(slot.rawValue)")
            switch side {
            case .left: return (layout, content.x + startIndent)
            case .center: return (layout, content.x + (content.width - boxWidth) / 2)
            case .right: return (layout, content.maxX - endIndent - boxWidth)
            }
        }
    }

    /// `filled` laid out in a place `width` wide, shaped once per render for each distinct text
    /// (most are the same on every page): on one line when it fits, else wrapped within the place
    /// in at most `InputLimits.runningTextLines` lines.
    private func laidOut(_ filled: String, width: Double, alignment: Table.Alignment, path: String) -> (ShapedText, Double) {
        let key = LayoutCache.Key(text: filled, width: width, alignment: alignment)
        if let cached = layouts.layouts[key] { return cached }
        let result: (layout: ShapedText, boxWidth: Double)
        let clean = filled.replacingDisallowedCharacters
        let single = clean.utf8.contains(UInt8(ascii: "\n")) ? nil : text.singleLine(clean, font: font)
        if let single, single.metrics.width <= width {
            result = (single, single.metrics.width)
        } else {
            let maxLines = InputLimits.runningTextLines
            func layout(_ shown: String) -> ShapedText {
                text.paragraph([TextRun(shown)], font: font, width: width, alignment: alignment.paragraphAlignment)
            }
            let paragraphs = clean.split(separator: "\n", maxSplits: maxLines, omittingEmptySubsequences: false)
            var cut = paragraphs.count > maxLines
            var wrapped = layout(cut ? paragraphs.prefix(maxLines).joined(separator: "\n") + "…" : clean)
            if wrapped.lineExtents.count > maxLines {
                var shown = wrapped.text(throughLine: maxLines - 1)
                if shown.hasSuffix("…") { shown.removeLast() }
                // The ellipsis must end the last line shown: take back words (or characters) until it does.
                repeat {
                    while shown.last?.isWhitespace == true { shown.removeLast() }
                    wrapped = layout(shown + "…")
                    if let space = shown.lastIndex(where: \.isWhitespace), shown.distance(from: space, to: shown.endIndex) < 40 {
                        shown.removeSubrange(space...)
                    } else if !shown.isEmpty {
                        shown.removeLast()
                    }
                } while wrapped.lineExtents.count > maxLines && !shown.isEmpty
                cut = true
            }
            if cut { layouts.cut.insert(path) }
            result = (wrapped, width)
        }
        if layouts.missingGlyphs[path] == nil, let warning = FlowableBuilder.missingGlyphs(in: result.layout, clean, path: path) {
            layouts.missingGlyphs[path] = warning
        }
        layouts.layouts[key] = result
        return result
    }

    /// Warnings for a header or footer that does not fit between its content edge and the page edge.
    func warnings(lastPage numbering: PageNumbering) -> [LayoutReport.Warning] {
        var warnings: [LayoutReport.Warning] = []
        if hasHeader {
            let tallest = placed(header, numbering, indent: logoIndent, path: "header").map(\.layout.metrics.height).max() ?? 0
            let needed = PageDecorations.gap + 4 + max(tallest, logoSize?.height ?? 0)
            if needed > content.y {
                warnings.append(
                    LayoutReport.Warning(
                        kind: .overflow, path: "header", page: nil,
                        message:
                            "the page header needs \(needed.clampedInt(.up)) pt above the content but the top margin is \(content.y.clampedInt(.down)) pt: part of it is off the page"
                    ))
            }
        }
        let footerHeight = placed(footer, numbering, path: "footer").map(\.layout.metrics.height).max() ?? 0
        let below = pageSize.height - content.maxY
        let needed = PageDecorations.footerGap + footerHeight
        if footerHeight > 0, needed > below {
            warnings.append(
                LayoutReport.Warning(
                    kind: .overflow, path: "footer", page: nil,
                    message:
                        "the footer needs \(needed.clampedInt(.up)) pt below the content but the bottom margin is \(below.clampedInt(.down)) pt: part of it is off the page"
                ))
        }
        // Furniture reaching into the outer 6 mm of the paper, where office printers do not print.
        let band = PageDecorations.printableBand
        let headerFurniture = (headerLabels.values.map(\.size.height) + [hasHeader ? (logoSize?.height ?? 0) : 0]).max() ?? 0
        if hasHeader, headerFurniture > 0, content.y - PageDecorations.gap - 4 - headerFurniture < band {
            let margin = (band + headerFurniture + 4 + PageDecorations.gap) / 72 * 25.4
            warnings.append(
                LayoutReport.Warning(
                    kind: .scaledToFit, path: "header", page: nil,
                    message:
                        "the header's barcode or logo would reach within 6 mm of the paper's edge, where office printers do not print, so it is drawn smaller; a top margin of \((margin.rounded(.up)).clampedInt()) mm keeps it whole"
                ))
        }
        let footerFurniture = footerLabels.values.map(\.size.height).max() ?? 0
        if footerFurniture > 0, content.maxY + PageDecorations.footerGap + footerFurniture > pageSize.height - band {
            let margin = (band + footerFurniture + PageDecorations.footerGap) / 72 * 25.4
            warnings.append(
                LayoutReport.Warning(
                    kind: .scaledToFit, path: "footer", page: nil,
                    message:
                        "the footer's barcode would reach within 6 mm of the paper's edge, where office printers do not print, so it is drawn smaller; a bottom margin of \((margin.rounded(.up)).clampedInt()) mm keeps it whole"
                ))
        }
        warnings += layouts.missingGlyphs.keys.sorted().compactMap { layouts.missingGlyphs[$0] }
        for path in layouts.cut.sorted() {
            warnings.append(
                LayoutReport.Warning(
                    kind: .overflow, path: path, page: nil,
                    message:
                        "the text is longer than \(InputLimits.runningTextScalars) characters or takes more than \(InputLimits.runningTextLines) lines in its place, so it is cut with an ellipsis"
                ))
        }
        return warnings
    }

    /// Room kept for the logo at the start of the header line.
    private var logoIndent: Double { logoSize.map { $0.width + 8 } ?? 0 }

    func draw(on canvas: PageCanvas, numbering: PageNumbering) {
        if let watermark { canvas.draw(text: watermark) }
        if hasHeader {
            let lineY = content.y - PageDecorations.gap
            if let logo = theme.logo, let natural = logoSize {
                // The theme's logo, 16 pt high, at the start of the header line (the right end in right-to-left),
                // smaller where the margin leaves it too little room inside the printable band.
                let scale = bandScale(height: natural.height, y: lineY - 4, above: true)
                let size = Size(natural.width * scale, natural.height * scale)
                let logoX = strings.isRightToLeft ? content.maxX - size.width : content.x
                canvas.draw(image: logo, in: Rect(x: logoX, y: lineY - 4 - size.height, width: size.width, height: size.height))
            }
            for (layout, x) in placed(header, numbering, indent: logoIndent, path: "header") {
                canvas.draw(layout, at: Point(x, lineY - 4 - layout.metrics.height), color: theme.muted)
            }
            drawLabels(headerLabels, y: lineY - 4, above: true, indent: logoIndent, on: canvas)
            canvas.line(
                from: Point(content.x, lineY), to: Point(content.x + content.width, lineY),
                style: StrokeStyle(color: theme.rule, width: 0.5))
        }
        let footerY = content.maxY + PageDecorations.footerGap
        for (layout, x) in placed(footer, numbering, path: "footer") {
            canvas.draw(layout, at: Point(x, footerY), color: theme.muted)
        }
        drawLabels(footerLabels, y: footerY, above: false, indent: 0, on: canvas)
    }
}
