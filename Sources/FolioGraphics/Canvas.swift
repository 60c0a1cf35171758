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

    /// The box the text occupies, before rotation.
    package var frame: Rect { Rect(x: origin.x, y: origin.y, width: metrics.width, height: metrics.height) }
}

/// The vector-drawing protocol every backend implements: SVG for HTML, Cairo for PDF.
///
/// Only `fill`, `stroke` and `draw(text:)` are required; `line`, `rect` and `arc`
/// have defaults built from paths that a backend may replace with native calls.
package protocol Canvas: AnyObject {
    func fill(_ path: Path, color: Color)
    func stroke(_ path: Path, style: StrokeStyle)
    func draw(text: TextItem)
    /// Draws a picture scaled into `rect`.
    func draw(image: ImageData, in rect: Rect)
    /// Starts a group described for assistive technology (SVG `<g aria-label>`, PDF structure).
    func beginGroup(label: String)
    func endGroup()
    /// Clips what is drawn until the matching `endClip` to `rect` (an axis with a hard range).
    func beginClip(_ rect: Rect)
    /// Ends the innermost clip.
    func endClip()
}

extension Canvas {
    /// A straight line.
    package func line(from a: Point, to b: Point, style: StrokeStyle) {
        stroke(.line(from: a, to: b), style: style)
    }

    /// A filled rectangle, the primitive of bar charts.
    package func rect(_ r: Rect, color: Color) {
        fill(.rect(r), color: color)
    }

    /// A stroked circular arc, angles in radians from 3 o'clock, clockwise.
    package func arc(center: Point, radius: Double, start: Double, end: Double, style: StrokeStyle) {
        var path = Path()
        path.arc(center: center, radius: radius, start: start, end: end)
        stroke(path, style: style)
    }

    /// Groups nothing by default; canvases that keep structure override it.
    package func beginGroup(label: String) {}
    /// Ends a group; nothing by default.
    package func endGroup() {}
}
