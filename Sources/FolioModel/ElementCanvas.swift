/// Where a text is anchored on its `x`: its start, middle or end.
public enum TextAnchor: Sendable, Hashable {
    case start, middle, end
}

/// A shape for `ElementCanvas`: lines, curves and arcs in points, y growing downwards.
public struct ElementPath: Sendable, Hashable {
    /// One step of the outline.
    public enum Step: Sendable, Hashable {
        case move(x: Double, y: Double)
        case line(x: Double, y: Double)
        case curve(x: Double, y: Double, control1X: Double, control1Y: Double, control2X: Double, control2Y: Double)
        /// A circular arc, angles in radians from 3 o'clock, clockwise.
        case arc(centerX: Double, centerY: Double, radius: Double, start: Double, end: Double)
        case close
    }

    /// The steps, in order.
    public private(set) var steps: [Step] = []

    /// An empty path.
    public init() {}

    /// Starts a new outline at (`x`, `y`).
    public mutating func move(toX x: Double, y: Double) { steps.append(.move(x: x, y: y)) }
    /// A straight line to (`x`, `y`).
    public mutating func line(toX x: Double, y: Double) { steps.append(.line(x: x, y: y)) }
    /// A cubic Bézier curve to (`x`, `y`).
    public mutating func curve(toX x: Double, y: Double, control1: (x: Double, y: Double), control2: (x: Double, y: Double)) {
        steps.append(.curve(x: x, y: y, control1X: control1.x, control1Y: control1.y, control2X: control2.x, control2Y: control2.y))
    }
    /// A circular arc around (`centerX`, `centerY`).
    public mutating func arc(centerX: Double, centerY: Double, radius: Double, start: Double, end: Double) {
        steps.append(.arc(centerX: centerX, centerY: centerY, radius: radius, start: start, end: end))
    }
    /// Closes the outline.
    public mutating func close() { steps.append(.close) }
}

/// The drawing surface a custom element draws on: the same commands reach the PDF (Cairo) and
/// the HTML (inline SVG), text is measured by Pango in the document's font, and coordinates are
/// points from the element's top-left corner. Everything drawn is escaped and checked as
/// Folio's own charts are; non-finite numbers are ignored.
public protocol ElementCanvas: AnyObject {
    /// Fills `path` with `color`.
    func fill(_ path: ElementPath, color: Color)
    /// Strokes `path`, `width` points wide, dashed when `dash` is given (on, off lengths).
    func stroke(_ path: ElementPath, color: Color, width: Double, dash: [Double])
    /// Draws one line of `text` at `size` points with its top at `y`, anchored on `x`.
    func text(_ text: String, x: Double, y: Double, size: Double, bold: Bool, color: Color, anchor: TextAnchor)
    /// The width and height of one line of `text` at `size` points, as `text` would draw it.
    func measure(_ text: String, size: Double, bold: Bool) -> (width: Double, height: Double)
    /// The document's body text size and colours, to draw in the report's look.
    var style: ElementStyle { get }
}

/// The report's look, for custom elements: sizes in points and colours of its theme.
public struct ElementStyle: Sendable, Hashable {
    /// Body text size.
    public var bodySize: Double
    /// Small text size (captions, labels).
    public var smallSize: Double
    /// Body text colour.
    public var text: Color
    /// Secondary text colour.
    public var muted: Color
    /// Rules and grid lines.
    public var rule: Color
    /// The accent colour.
    public var accent: Color

    /// A style of these sizes and colours.
    public init(bodySize: Double, smallSize: Double, text: Color, muted: Color, rule: Color, accent: Color) {
        self.bodySize = bodySize
        self.smallSize = smallSize
        self.text = text
        self.muted = muted
        self.rule = rule
        self.accent = accent
    }
}

extension ElementCanvas {
    /// A filled rectangle.
    public func fillRect(x: Double, y: Double, width: Double, height: Double, color: Color) {
        var path = ElementPath()
        path.move(toX: x, y: y)
        path.line(toX: x + width, y: y)
        path.line(toX: x + width, y: y + height)
        path.line(toX: x, y: y + height)
        path.close()
        fill(path, color: color)
    }

    /// A straight line from (`x1`, `y1`) to (`x2`, `y2`).
    public func line(x1: Double, y1: Double, x2: Double, y2: Double, color: Color, width: Double = 1, dash: [Double] = []) {
        var path = ElementPath()
        path.move(toX: x1, y: y1)
        path.line(toX: x2, y: y2)
        stroke(path, color: color, width: width, dash: dash)
    }

    /// A filled circle.
    public func fillCircle(centerX: Double, centerY: Double, radius: Double, color: Color) {
        var path = ElementPath()
        path.arc(centerX: centerX, centerY: centerY, radius: radius, start: 0, end: 2 * .pi)
        path.close()
        fill(path, color: color)
    }

    /// One line of text in the body size, regular, in the text colour, from `x`.
    public func text(_ text: String, x: Double, y: Double) {
        self.text(text, x: x, y: y, size: style.bodySize, bold: false, color: style.text, anchor: .start)
    }
}
