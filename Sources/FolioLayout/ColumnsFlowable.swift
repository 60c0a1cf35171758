import FolioGraphics
import FolioModel

/// Blocks side by side, kept together on one page; the tallest sets the height.
final class ColumnsFlowable: Flowable {
    let columns: [(x: Double, flowable: Flowable)]
    let scale: Double

    init(columns: [(x: Double, flowable: Flowable)], scale: Double = 1) {
        self.columns = columns
        self.scale = scale
    }

    var height: Double { (columns.map(\.flowable.height).max() ?? 0) * scale }

    var retainedBytes: Int { columns.reduce(512) { $0 + $1.flowable.retainedBytes } }

    /// The notes its columns cite.
    var footnoteNumbers: [Int] { columns.flatMap(\.flowable.footnoteNumbers).sorted() }

    func scaled(toFit available: Double) -> Flowable? {
        let natural = columns.map(\.flowable.height).max() ?? 0
        guard natural > 0, available > 20 else { return nil }
        return ColumnsFlowable(columns: columns, scale: min(scale, available / natural))
    }

    func draw(on canvas: PageCanvas, at origin: Point) {
        canvas.transformed(translate: origin, scale: scale) {
            for column in columns {
                column.flowable.draw(on: canvas, at: Point(column.x, 0))
            }
        }
    }
}
