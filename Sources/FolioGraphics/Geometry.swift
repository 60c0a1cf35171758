/// A point in page coordinates: points, origin top-left, y down.
package struct Point: Sendable, Hashable {
    /// Horizontal position in points, from the left.
    package var x: Double
    /// Vertical position in points, from the top.
    package var y: Double
    /// The point (`x`, `y`).
    package init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// A width and height in points.
package struct Size: Sendable, Hashable {
    /// Width in points.
    package var width: Double
    /// Height in points.
    package var height: Double
    /// A size of `width` by `height`.
    package init(_ width: Double, _ height: Double) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle.
package struct Rect: Sendable, Hashable {
    /// Left edge.
    package var x: Double
    /// Top edge.
    package var y: Double
    /// Width.
    package var width: Double
    /// Height.
    package var height: Double

    /// The rectangle at (`x`, `y`) of `width` by `height`.
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Right edge.
    package var maxX: Double { x + width }
    /// Bottom edge.
    package var maxY: Double { y + height }
    /// Horizontal centre.
    package var midX: Double { x + width / 2 }
    /// Vertical centre.
    package var midY: Double { y + height / 2 }

    /// Whether the two rectangles share any area.
    package func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// Whether `point` lies in the rectangle or on its edge.
    package func contains(_ point: Point) -> Bool {
        point.x >= x && point.x <= maxX && point.y >= y && point.y <= maxY
    }

    /// The rectangle shrunk by `dx` and `dy` on each side.
    package func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
}
