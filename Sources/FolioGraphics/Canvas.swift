import FolioModel

/// A line of text placed by layout: the canvas draws it where the measurer said it fits.
package struct TextItem: Sendable, Hashable {
    /// The text, as drawn.
    package var text: String
    /// Top-left corner of the line box.
    package var origin: Point
    /// The font it is drawn in.
    package var font: FontSpec
    /// Its colour.
    package var color: Color
    /// The measured size, so a canvas never measures again.
    package var metrics: TextMetrics
    /// Rotation in degrees about `origin`, counter-clockwise negative (screen convention).
    package var rotation: Double

    /// A text item whose line box starts at `origin` (top-left), measured as `metrics`, turned by `rotation` degrees.
    package init(text: String, origin: Point, font: FontSpec, color: Color, metrics: TextMetrics, rotation: Double = 0) {
        self.text = text
        self.origin = origin
        self.font = font
        self.color = color
        self.metrics = metrics
        self.rotation = rotation
    }

    /// Whether the text holds a letter: a name (a legend's series, an axis title, a band's label)
    /// rather than a number, date or time only (a tick, a value label), which a chart's text
    /// alternative and data table say and a tagged PDF keeps out of the reading order.
    package var holdsLetters: Bool { text.unicodeScalars.contains { $0.properties.isAlphabetic } }

    /// The box the text occupies, before rotation.
    package var frame: Rect { Rect(x: origin.x, y: origin.y, width: metrics.width, height: metrics.height) }
}

/// The vector-drawing protocol every backend implements: SVG for HTML, Cairo for PDF, and the
/// recording canvas that lays charts out once into a `Drawing` both replay.
///
/// Every method is required, so each backend draws each primitive natively: a bar is a
/// rectangle (`cairo_rectangle`; SVG `<rect>`), an axis or gridline a line (`cairo_line_to`;
/// `<line>`), a ring an arc (`cairo_arc`; a path's `A` command), and anything else a path.
package protocol Canvas: AnyObject {
    /// Fills `path` with `color`.
    func fill(_ path: Path, color: Color)
    /// Strokes `path` as `style` says.
    func stroke(_ path: Path, style: StrokeStyle)
    /// A straight line from `a` to `b`.
    func line(from a: Point, to b: Point, style: StrokeStyle)
    /// A filled rectangle: the primitive of bar charts.
    func rect(_ r: Rect, color: Color)
    /// A stroked circular arc, angles in radians from 3 o'clock, clockwise (`end < start` runs back).
    func arc(center: Point, radius: Double, start: Double, end: Double, style: StrokeStyle)
    /// Draws one line of text where layout placed it.
    func draw(text: TextItem)
    /// Draws a picture scaled into `rect`.
    func draw(image: ImageData, in rect: Rect)
    /// Starts a group of what follows (one series, one axis; SVG `<g>`; nothing in PDF, where a
    /// chart is one figure with its text alternative).
    func beginGroup()
    /// Ends the innermost group.
    func endGroup()
    /// Clips what is drawn until the matching `endClip` to `rect` (an axis with a hard range).
    func beginClip(_ rect: Rect)
    /// Ends the innermost clip.
    func endClip()
}
