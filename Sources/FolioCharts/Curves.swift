import FolioGraphics
import Foundation

/// Path building for line plots: straight, stepped and monotone cubic curves,
/// and thinning of dense data to the output resolution.
enum Curves {
    /// Appends `points` to `path` (the first with a move) joined as `interpolation` says.
    static func append(_ points: [Point], to path: inout Path, interpolation: InterpolationKind, moveFirst: Bool = true) {
        guard let first = points.first else { return }
        if moveFirst { path.move(to: first) } else { path.line(to: first) }
        switch interpolation {
        case .linear:
            for point in points.dropFirst() { path.line(to: point) }
        case .stepped:
            for (a, b) in zip(points, points.dropFirst()) {
                path.line(to: Point(b.x, a.y))
                path.line(to: b)
            }
        case .curved:
            let tangents = monotoneTangents(points)
            guard let tangents else {
                for point in points.dropFirst() { path.line(to: point) }
                return
            }
            for i in 0..<(points.count - 1) {
                let a = points[i]
                let b = points[i + 1]
                let dx = (b.x - a.x) / 3
                path.curve(
                    to: b, control1: Point(a.x + dx, a.y + tangents[i] * dx),
                    control2: Point(b.x - dx, b.y - tangents[i + 1] * dx))
            }
        }
    }

    enum InterpolationKind { case linear, stepped, curved }

    /// Fritsch–Carlson tangents: the cubic through the points never overshoots them.
    /// Nil when x does not strictly increase.
    static func monotoneTangents(_ p: [Point]) -> [Double]? {
        let n = p.count
        guard n >= 2 else { return nil }
        var slopes: [Double] = []
        slopes.reserveCapacity(n - 1)
        for i in 0..<(n - 1) {
            let dx = p[i + 1].x - p[i].x
            guard dx > 0 else { return nil }
            slopes.append((p[i + 1].y - p[i].y) / dx)
        }
        var m = [Double](repeating: 0, count: n)
        m[0] = slopes[0]
        m[n - 1] = slopes[n - 2]
        for i in 1..<(n - 1) {
            m[i] = slopes[i - 1] * slopes[i] <= 0 ? 0 : (slopes[i - 1] + slopes[i]) / 2
        }
        for i in 0..<(n - 1) {
            if slopes[i] == 0 {
                m[i] = 0
                m[i + 1] = 0
                continue
            }
            let a = m[i] / slopes[i]
            let b = m[i + 1] / slopes[i]
            let s = a * a + b * b
            if s > 9 {
                let t = 3 / s.squareRoot()
                m[i] = t * a * slopes[i]
                m[i + 1] = t * b * slopes[i]
            }
        }
        return m
    }

    /// Thins a run of points whose x increases to at most four per `column` of width:
    /// the first, lowest, highest and last of each column, so peaks survive.
    static func thinned(_ points: [Point], column: Double) -> [Point] {
        guard points.count > 64 else { return points }
        var result: [Point] = []
        result.reserveCapacity(Swift.min(points.count, 4096))
        var start = 0
        while start < points.count {
            let bucket = (points[start].x / column).rounded(.down)
            var end = start + 1
            while end < points.count, (points[end].x / column).rounded(.down) == bucket { end += 1 }
            if end - start <= 4 {
                result.append(contentsOf: points[start..<end])
            } else {
                var low = start
                var high = start
                for i in start..<end {
                    if points[i].y > points[low].y { low = i }  // y grows downwards: larger y is the lower value
                    if points[i].y < points[high].y { high = i }
                }
                for i in Set([start, low, high, end - 1]).sorted() { result.append(points[i]) }
            }
            start = end
        }
        return result
    }

    /// Merges scatter points that fall in the same `cell`-sized square.
    static func merged(_ points: [Point], cell: Double) -> [Point] {
        guard points.count > 64 else { return points }
        var seen = Set<Int64>()
        var result: [Point] = []
        for point in points {
            let key = Int64((point.x / cell).rounded(.down)) << 32 ^ Int64((point.y / cell).rounded(.down))
            if seen.insert(key).inserted { result.append(point) }
        }
        return result
    }
}
