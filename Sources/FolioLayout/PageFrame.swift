import FolioGraphics
import FolioInput
import FolioModel

/// Everything one page shows, in drawing order: positioned shaped text, vector drawing, images
/// and pictures, with the page's structure tags, figures, tables, link destinations and
/// bookmarks nested as drawn. Layout records it (`FrameRecorder`); the PDF replays it onto Cairo,
/// and tests read it without any.
package struct PageFrame {
    /// One recorded page-canvas call; a `begin…` is closed by the `end` that follows its content.
    package enum Item {
        case drawing(Drawing.Command)
        case text(ShapedText, at: Point, color: Color, visible: ClosedRange<Double>?)
        case svg(markup: String, in: Rect)
        case appendedPage(AppendedPage, in: Rect)
        case beginTag(StructureTag?, language: String?)
        case beginFigure(alternative: String?)
        case beginTable(continues: Bool)
        case beginList(continues: Bool?)
        case beginContents(continues: Bool)
        case beginCell(StructureTag?, columnSpan: Int, language: String?, headsRow: Bool)
        case beginTransform(translate: Point, scale: Double)
        case beginChartPicture
        case end
        case destination(String, at: Point)
        case link(LinkTarget, in: Rect, description: String)
        case outline(String, level: Int, y: Double)
    }

    /// The page's items, in drawing order.
    package private(set) var items: [Item] = []
    /// The page's size when it is not the document's: a whole page of an appended PDF.
    package var size: Size?

    /// An empty page.
    package init() {}

    mutating func append(_ item: Item) { items.append(item) }

    /// The page without the destinations `drops` names, and with one of each name at most (the first).
    mutating func removeDestinations(where drops: (String) -> Bool) {
        var seen: Set<String> = []
        items.removeAll { item in
            guard case .destination(let name, _) = item else { return false }
            return drops(name) || !seen.insert(name).inserted
        }
    }

    /// Draws the page onto `canvas`, nesting as it was recorded.
    package func replay(on canvas: PageCanvas) {
        var index = 0
        replay(on: canvas, from: &index)
    }

    /// Replays items from `index` until the `end` that closes the enclosing `begin…` (or the last item).
    private func replay(on canvas: PageCanvas, from index: inout Int) {
        while index < items.count {
            let item = items[index]
            index += 1
            switch item {
            case .end: return
            case .drawing(let command): command.replay(on: canvas)
            case .text(let text, let origin, let color, let visible): canvas.draw(text, at: origin, color: color, visible: visible)
            case .svg(let markup, let rect): canvas.draw(svgMarkup: markup, in: rect)
            case .appendedPage(let page, let rect): canvas.draw(appendedPage: page, in: rect)
            case .beginTag(let tag, let language): canvas.tagged(tag, language: language) { replay(on: canvas, from: &index) }
            case .beginFigure(let alternative): canvas.figure(alternative: alternative) { replay(on: canvas, from: &index) }
            case .beginTable(let continues): canvas.table(continues: continues) { replay(on: canvas, from: &index) }
            case .beginList(let continues): canvas.list(continues: continues) { replay(on: canvas, from: &index) }
            case .beginContents(let continues): canvas.tableOfContents(continues: continues) { replay(on: canvas, from: &index) }
            case .beginCell(let tag, let span, let language, let headsRow):
                canvas.tableCell(tag, columnSpan: span, language: language, headsRow: headsRow) { replay(on: canvas, from: &index) }
            case .beginTransform(let translate, let scale):
                canvas.transformed(translate: translate, scale: scale) { replay(on: canvas, from: &index) }
            case .beginChartPicture: canvas.chartPicture { replay(on: canvas, from: &index) }
            case .destination(let anchor, let point): canvas.destination(anchor, at: point)
            case .link(let target, let rect, let description): canvas.link(target, in: rect, description: description)
            case .outline(let title, let level, let y): canvas.outline(title, level: level, y: y)
            }
        }
    }

    /// The page's text as a reader meets it, for a picture of the page: each text drawn (the lines
    /// of it this page shows), and in a figure's place its text alternative, in brackets, instead
    /// of its words (a chart's title; its caption is kept).
    package var readingText: [String] {
        var lines: [String] = []
        /// The running header's and footer's texts (decoration), with where they stand.
        var furniture: [(text: String, y: Double)] = []
        /// For each open `begin…`: whether the text drawn in it is hidden (a figure's, said by its
        /// alternative). Text outside every element is the running header and footer.
        var open: [Bool] = []
        var top = Double.infinity
        for item in items {
            let hidden = open.last ?? false
            switch item {
            case .beginFigure(let alternative):
                if let alternative, !alternative.isEmpty { lines.append("[\(alternative)]") }
                open.append(alternative != nil || hidden)
            case .beginTag(let tag, _), .beginCell(let tag, _, _, _):
                open.append(tag == .caption ? false : hidden)
            case .beginTable, .beginList, .beginContents, .beginTransform, .beginChartPicture:
                open.append(hidden)
            case .end:
                if !open.isEmpty { open.removeLast() }
            case .text(let text, let origin, _, let visible):
                let shown = PageFrame.lines(of: text, within: visible)
                guard !hidden, !shown.isEmpty else { continue }
                if open.isEmpty {
                    furniture.append((shown, origin.y))
                } else {
                    lines.append(shown)
                    top = min(top, origin.y)
                }
            case .drawing, .svg, .appendedPage, .destination, .link, .outline:
                continue
            }
        }
        // The running header before the page's text, the footer after it.
        return furniture.filter { $0.y < top }.map(\.text) + lines + furniture.filter { $0.y >= top }.map(\.text)
    }

    /// The text of `text`'s lines whose middle is within `visible` (all without one), soft hyphens
    /// dropped and lines joined as the text runs.
    private static func lines(of text: ShapedText, within visible: ClosedRange<Double>?) -> String {
        let extents = text.lineExtents
        guard !extents.isEmpty else { return "" }
        let shown = extents.indices.filter { visible?.contains(extents[$0].midY) ?? true }
        guard let first = shown.first, let last = shown.last else { return "" }
        let through = text.text(throughLine: last)
        let before = first > 0 ? text.text(throughLine: first - 1) : ""
        let part = through.hasPrefix(before) ? String(through.dropFirst(before.count)) : through
        return part.replacingOccurrences(of: "\u{AD}", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The shaped texts of the page with where they are drawn, in drawing order (transforms not applied).
    package var texts: [(text: ShapedText, origin: Point)] {
        items.compactMap { if case .text(let text, let origin, _, _) = $0 { return (text, origin) } else { return nil } }
    }

    /// The structure tags the page opens, in order (`nil` for decoration), table cells included.
    package var tags: [StructureTag?] {
        items.compactMap {
            switch $0 {
            case .beginTag(let tag, _), .beginCell(let tag, _, _, _): return .some(tag)
            default: return nil
            }
        }
    }
}

/// A page canvas that records a `PageFrame`.
package final class FrameRecorder: PageCanvas {
    /// What was recorded so far.
    package private(set) var frame = PageFrame()

    /// An empty recording.
    package init() {}

    package func fill(_ path: Path, color: Color) { frame.append(.drawing(.fill(path, color))) }
    package func stroke(_ path: Path, style: StrokeStyle) { frame.append(.drawing(.stroke(path, style))) }
    package func line(from a: Point, to b: Point, style: StrokeStyle) { frame.append(.drawing(.line(a, b, style))) }
    package func rect(_ r: Rect, color: Color) { frame.append(.drawing(.rect(r, color))) }
    package func arc(center: Point, radius: Double, start: Double, end: Double, style: StrokeStyle) {
        frame.append(.drawing(.arc(center: center, radius: radius, start: start, end: end, style)))
    }
    package func draw(text: TextItem) { frame.append(.drawing(.text(text))) }
    package func draw(image: ImageData, in rect: Rect) { frame.append(.drawing(.image(image, rect))) }
    package func beginGroup() { frame.append(.drawing(.beginGroup)) }
    package func endGroup() { frame.append(.drawing(.endGroup)) }
    package func beginClip(_ rect: Rect) { frame.append(.drawing(.beginClip(rect))) }
    package func endClip() { frame.append(.drawing(.endClip)) }

    package func draw(_ text: ShapedText, at origin: Point, color: Color, visible: ClosedRange<Double>?) {
        frame.append(.text(text, at: origin, color: color, visible: visible))
    }
    package func draw(svgMarkup: String, in rect: Rect) { frame.append(.svg(markup: svgMarkup, in: rect)) }
    package func draw(appendedPage: AppendedPage, in rect: Rect) { frame.append(.appendedPage(appendedPage, in: rect)) }
    package func tagged(_ tag: StructureTag?, language: String?, _ body: () -> Void) {
        nested(.beginTag(tag, language: language), body)
    }
    package func figure(alternative: String?, _ body: () -> Void) { nested(.beginFigure(alternative: alternative), body) }
    package func table(continues: Bool, _ body: () -> Void) { nested(.beginTable(continues: continues), body) }
    package func list(continues: Bool?, _ body: () -> Void) { nested(.beginList(continues: continues), body) }
    package func tableOfContents(continues: Bool, _ body: () -> Void) { nested(.beginContents(continues: continues), body) }
    package func tableCell(_ tag: StructureTag?, columnSpan: Int, language: String?, headsRow: Bool, _ body: () -> Void) {
        nested(.beginCell(tag, columnSpan: columnSpan, language: language, headsRow: headsRow), body)
    }
    package func destination(_ anchor: String, at point: Point) { frame.append(.destination(anchor, at: point)) }
    package func link(_ target: LinkTarget, in rect: Rect, description: String) {
        frame.append(.link(target, in: rect, description: description))
    }
    package func outline(_ title: String, level: Int, y: Double) { frame.append(.outline(title, level: level, y: y)) }
    package func transformed(translate: Point, scale: Double, _ body: () -> Void) {
        nested(.beginTransform(translate: translate, scale: scale), body)
    }

    package func chartPicture(_ body: () -> Void) { nested(.beginChartPicture, body) }

    private func nested(_ begin: PageFrame.Item, _ body: () -> Void) {
        frame.append(begin)
        body()
        frame.append(.end)
    }
}
