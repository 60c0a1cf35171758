/// A point in page coordinates: points, origin top-left, y down.
public struct Point: Sendable, Hashable {
    /// Horizontal position in points, from the left.
    public var x: Double
    /// Vertical position in points, from the top.
    public var y: Double
    /// The point (`x`, `y`).
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// A width and height in points.
public struct Size: Sendable, Hashable {
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double
    /// A size of `width` by `height`.
    public init(_ width: Double, _ height: Double) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle.
public struct Rect: Sendable, Hashable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// The rectangle at (`x`, `y`) of `width` by `height`.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Right edge.
    public var maxX: Double { x + width }
    /// Bottom edge.
    public var maxY: Double { y + height }
    /// Horizontal centre.
    public var midX: Double { x + width / 2 }
    /// Vertical centre.
    public var midY: Double { y + height / 2 }

    /// Whether the two rectangles share any area.
    public func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// The rectangle shrunk by `dx` and `dy` on each side.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
}
