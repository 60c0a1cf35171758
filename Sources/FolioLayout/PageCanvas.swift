import FolioGraphics
import FolioInput
import FolioModel

/// What a page is drawn on: the vector `Canvas` plus shaped text, SVG pictures, the document's
/// structure (tags, figures, tables), its navigation (link destinations, bookmarks) and nested
/// transforms and clips. Layout draws each page onto a `FrameRecorder`; the PDF replays the
/// recorded `PageFrame` onto Cairo.
package protocol PageCanvas: Canvas {
    /// Draws shaped text with its top-left corner at `origin`; with `visible` (text coordinates),
    /// only the lines whose middle lies within it, and their links.
    func draw(_ text: ShapedText, at origin: Point, color: Color, visible: ClosedRange<Double>?)
    /// Draws a sanitised SVG picture's markup scaled into `rect` (its user units are CSS pixels).
    func draw(svgMarkup: String, in rect: Rect)
    /// Draws a page of an appended PDF scaled into `rect` (its content copied as it is into the PDF).
    func draw(appendedPage: AppendedPage, in rect: Rect)
    /// Runs `body` inside a structure element such as `P`, `H1`, `TD`; with `nil`, what `body`
    /// draws is decoration (an artifact).
    func tagged(_ tag: StructureTag?, _ body: () -> Void)
    /// Runs `body` inside a structure element whose text is in `language` (a BCP 47 tag; nil: the document's).
    func tagged(_ tag: StructureTag?, language: String?, _ body: () -> Void)
    /// Runs `body` inside a `Figure` with its text alternative; without one it is decoration.
    func figure(alternative: String?, _ body: () -> Void)
    /// Runs `body` inside a `Table`; `continues` when it is a later page's part of a table begun before.
    func table(continues: Bool, _ body: () -> Void)
    /// Runs `body` inside a list (`L`): `continues` when it is a later page's part of a list begun
    /// before (joined into one element), nil for a list nested in another's item (never split apart).
    func list(continues: Bool?, _ body: () -> Void)
    /// Runs `body` inside a table of contents (`TOC`); `continues` when it is a later page's part of
    /// one begun before (joined into one element).
    func tableOfContents(continues: Bool, _ body: () -> Void)
    /// Runs `body` inside a table cell (`TH` or `TD`) covering `columnSpan` columns; with `nil`,
    /// what `body` draws is decoration (a header repeated on a later page).
    func tableCell(_ tag: StructureTag?, columnSpan: Int, _ body: () -> Void)
    /// Runs `body` inside a table cell whose text is in `language` (nil: the document's); a `TH` that
    /// `headsRow` heads its row (a group's header, a total's label), not its column.
    func tableCell(_ tag: StructureTag?, columnSpan: Int, language: String?, headsRow: Bool, _ body: () -> Void)
    /// A link to `url` over `rect` with no text of its own (an appended page's), described as `description`.
    func link(_ target: LinkTarget, in rect: Rect, description: String)
    /// Marks `point` as the destination of internal links to `anchor`.
    func destination(_ anchor: String, at point: Point)
    /// Adds a bookmark at `level` (0 for the title) to `y` on this page.
    func outline(_ title: String, level: Int, y: Double)
    /// Runs `body` with the origin moved to `translate` and lengths scaled by `scale`.
    func transformed(translate: Point, scale: Double, _ body: () -> Void)
    /// Runs `body`, a chart's drawing in its `Figure`: its shapes and names are the figure's
    /// content, its numbers (ticks, value labels) decoration: the figure's text alternative and
    /// data table say them, and a tick's number at a page's top is not read as a page number.
    func chartPicture(_ body: () -> Void)
}

extension PageCanvas {
    package func tagged(_ tag: StructureTag?, _ body: () -> Void) { tagged(tag, language: nil, body) }
    package func tableCell(_ tag: StructureTag?, columnSpan: Int, _ body: () -> Void) {
        tableCell(tag, columnSpan: columnSpan, language: nil, headsRow: false, body)
    }
    package func tableCell(_ tag: StructureTag?, columnSpan: Int, language: String?, _ body: () -> Void) {
        tableCell(tag, columnSpan: columnSpan, language: language, headsRow: false, body)
    }

    /// Draws shaped text whole with its top-left corner at `origin`.
    package func draw(_ text: ShapedText, at origin: Point, color: Color) {
        draw(text, at: origin, color: color, visible: nil)
    }

    /// Runs `body` clipped to `rect`.
    package func clipped(to rect: Rect, _ body: () -> Void) {
        beginClip(rect)
        body()
        endClip()
    }
}
