import FolioGraphics

/// What a chart drew on its plot — bars, capsules and value labels as rectangles, lines as
/// polylines, markers as points, in page coordinates — so that a label placed over the plot afterwards (a
/// threshold's) can keep clear of the data.
struct PlotMarks {
    private var rects: [Rect] = []
    private var polylines: [[Point]] = []
    private var points: [Point] = []

    /// Adds a filled area (a bar, a capsule, a value label).
    mutating func add(_ rect: Rect) { rects.append(rect) }

    /// Adds a line through `points`.
    mutating func add(polyline points: [Point]) {
        if points.count > 1 { polylines.append(points) } else { self.points += points }
    }

    /// Adds markers (points drawn at a value).
    mutating func add(points: [Point]) { self.points += points }

    /// Adds the lines of `path` as drawn (a curve by its chord), one polyline per subpath.
    mutating func add(path: Path) {
        var current: [Point] = []
        for element in path.elements {
            switch element {
            case .move(let point):
                add(polyline: current)
                current = [point]
            case .line(let point), .curve(_, _, let point):
                current.append(point)
            case .arc, .close:
                continue
            }
        }
        add(polyline: current)
    }

    /// How much of what is drawn lies in `area`, 0 for nothing: the area of every rectangle inside
    /// it, and for every piece of a line (with its markers, `lineClearance` wide on each side)
    /// crossing it, the area of a marker.
    func coverage(of area: Rect, lineClearance: Double = 3) -> Double {
        var covered = rects.reduce(0) { $0 + PlotMarks.sharedArea($1, area) }
        let widened = area.insetBy(dx: -lineClearance, dy: -lineClearance)
        let marker = 4 * lineClearance * lineClearance
        for point in points where widened.contains(point) { covered += marker }
        for line in polylines {
            for (a, b) in zip(line, line.dropFirst()) where PlotMarks.segment(a, b, crosses: widened) { covered += marker }
        }
        return covered
    }

    /// The area `a` and `b` have in common.
    static func sharedArea(_ a: Rect, _ b: Rect) -> Double {
        let width = Swift.min(a.maxX, b.maxX) - Swift.max(a.x, b.x)
        let height = Swift.min(a.maxY, b.maxY) - Swift.max(a.y, b.y)
        return width > 0 && height > 0 ? width * height : 0
    }

    /// Whether the segment from `a` to `b` has a point in `area` (Liang–Barsky clipping).
    static func segment(_ a: Point, _ b: Point, crosses area: Rect) -> Bool {
        var entering = 0.0
        var leaving = 1.0
        let dx = b.x - a.x
        let dy = b.y - a.y
        for (p, q) in [(-dx, a.x - area.x), (dx, area.maxX - a.x), (-dy, a.y - area.y), (dy, area.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return false }
            } else {
                let t = q / p
                if p < 0 {
                    if t > leaving { return false }
                    entering = Swift.max(entering, t)
                } else {
                    if t < entering { return false }
                    leaving = Swift.min(leaving, t)
                }
            }
        }
        return entering <= leaving
    }
}
