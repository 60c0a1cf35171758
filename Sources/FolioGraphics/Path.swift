import FolioModel

/// A vector outline built from lines, cubic curves and arcs.
package struct Path: Sendable, Hashable {
    /// One drawing step of a path.
    package enum Element: Sendable, Hashable {
        case move(Point)
        case line(Point)
        case curve(Point, Point, Point)
        /// Circular arc around `center`, angles in radians, clockwise on screen when `end > start`.
        case arc(center: Point, radius: Double, start: Double, end: Double)
        case close
    }

    /// The path's elements, in order.
    package private(set) var elements: [Element] = []

    /// An empty path.
    package init() {}

    /// Starts a subpath at `point`.
    package mutating func move(to point: Point) { elements.append(.move(point)) }
    /// A straight line to `point`.
    package mutating func line(to point: Point) { elements.append(.line(point)) }
    /// A cubic Bézier curve to `end`.
    package mutating func curve(to end: Point, control1: Point, control2: Point) {
        elements.append(.curve(control1, control2, end))
    }
    /// An arc around `center` from angle `start` to `end` (radians; clockwise on screen when `end > start`).
    package mutating func arc(center: Point, radius: Double, start: Double, end: Double) {
        elements.append(.arc(center: center, radius: radius, start: start, end: end))
    }
    /// Closes the subpath.
    package mutating func close() { elements.append(.close) }

    /// A rectangle path.
    package static func rect(_ r: Rect) -> Path {
        var path = Path()
        path.move(to: Point(r.x, r.y))
        path.line(to: Point(r.maxX, r.y))
        path.line(to: Point(r.maxX, r.maxY))
        path.line(to: Point(r.x, r.maxY))
        path.close()
        return path
    }

    /// A rectangle with rounded corners; the radius is clamped to half the shorter side.
    package static func roundedRect(_ r: Rect, radius: Double) -> Path {
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
    package static func line(from a: Point, to b: Point) -> Path {
        var path = Path()
        path.move(to: a)
        path.line(to: b)
        return path
    }

    /// A full circle.
    package static func circle(center: Point, radius: Double) -> Path {
        var path = Path()
        path.arc(center: center, radius: radius, start: 0, end: 2 * .pi)
        path.close()
        return path
    }

    /// A marker of `shape` centred on `center`, `radius` from its centre to its edge.
    package static func marker(_ shape: LinePlot.MarkerShape, center c: Point, radius r: Double) -> Path {
        func polygon(_ points: [(Double, Double)]) -> Path {
            var path = Path()
            for (index, (x, y)) in points.enumerated() {
                if index == 0 { path.move(to: Point(c.x + x * r, c.y + y * r)) } else { path.line(to: Point(c.x + x * r, c.y + y * r)) }
            }
            path.close()
            return path
        }
        switch shape {
        case .circle: return circle(center: c, radius: r)
        case .square: return polygon([(-0.85, -0.85), (0.85, -0.85), (0.85, 0.85), (-0.85, 0.85)])
        case .triangle: return polygon([(0, -1.15), (1.05, 0.8), (-1.05, 0.8)])
        case .diamond: return polygon([(0, -1.2), (1.2, 0), (0, 1.2), (-1.2, 0)])
        case .cross:
            let w = 0.38
            return polygon([
                (-w, -1), (w, -1), (w, -w), (1, -w), (1, w), (w, w), (w, 1), (-w, 1), (-w, w), (-1, w), (-1, -w), (-w, -w),
            ])
        }
    }
}
