/// A vector outline built from lines, cubic curves and arcs.
public struct Path: Sendable, Hashable {
    /// One drawing step of a path.
    public enum Element: Sendable, Hashable {
        case move(Point)
        case line(Point)
        case curve(Point, Point, Point)
        /// Circular arc around `center`, angles in radians, clockwise on screen when `end > start`.
        case arc(center: Point, radius: Double, start: Double, end: Double)
        case close
    }

    /// The path's elements, in order.
    public private(set) var elements: [Element] = []

    /// An empty path.
    public init() {}

    /// Starts a subpath at `point`.
    public mutating func move(to point: Point) { elements.append(.move(point)) }
    /// A straight line to `point`.
    public mutating func line(to point: Point) { elements.append(.line(point)) }
    /// A cubic Bézier curve to `end`.
    public mutating func curve(to end: Point, control1: Point, control2: Point) {
        elements.append(.curve(control1, control2, end))
    }
    /// An arc around `center` from angle `start` to `end` (radians; clockwise on screen when `end > start`).
    public mutating func arc(center: Point, radius: Double, start: Double, end: Double) {
        elements.append(.arc(center: center, radius: radius, start: start, end: end))
    }
    /// Closes the subpath.
    public mutating func close() { elements.append(.close) }

    /// A rectangle path.
    public static func rect(_ r: Rect) -> Path {
        var path = Path()
        path.move(to: Point(r.x, r.y))
        path.line(to: Point(r.maxX, r.y))
        path.line(to: Point(r.maxX, r.maxY))
        path.line(to: Point(r.x, r.maxY))
        path.close()
        return path
    }

    /// A rectangle with rounded corners; the radius is clamped to half the shorter side.
    public static func roundedRect(_ r: Rect, radius: Double) -> Path {
        let rad = min(radius, r.width / 2, r.height / 2)
        guard rad > 0 else { return rect(r) }
        var path = Path()
        path.arc(center: Point(r.x + rad, r.y + rad), radius: rad, start: .pi, end: 1.5 * .pi)
        path.arc(center: Point(r.maxX - rad, r.y + rad), radius: rad, start: 1.5 * .pi, end: 2 * .pi)
        path.arc(center: Point(r.maxX - rad, r.maxY - rad), radius: rad, start: 0, end: 0.5 * .pi)
        path.arc(center: Point(r.x + rad, r.maxY - rad), radius: rad, start: 0.5 * .pi, end: .pi)
        path.close()
        return path
    }

    /// A straight segment.
    public static func line(from a: Point, to b: Point) -> Path {
        var path = Path()
        path.move(to: a)
        path.line(to: b)
        return path
    }

    /// A full circle.
    public static func circle(center: Point, radius: Double) -> Path {
        var path = Path()
        path.arc(center: center, radius: radius, start: 0, end: 2 * .pi)
        path.close()
        return path
    }
}
