import FolioGraphics
import FolioModel

extension Columns: LaidOutBlock {
    /// Gap between columns, in points.
    static let gap = 14.0

    /// The items laid out side by side at their columns' widths, kept together.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        let usable = builder.width - Columns.gap * Double(items.count - 1)
        var x = 0.0
        var placed: [(x: Double, flowable: Flowable)] = []
        for (index, (item, fraction)) in zip(items, fractions).enumerated() {
            let columnWidth = usable * fraction
            let column = FlowableBuilder(
                text: builder.text, theme: builder.theme, strings: builder.strings, width: columnWidth, prepared: builder.prepared,
                pictures: builder.pictures, residency: builder.residency, within: builder)
            column.headings = builder.headings
            for flowable in try column.flowables(for: item, path: "\(path).items[\(index)]") {
                placed.append((x, flowable))
            }
            column.warnings.forEach(builder.warn)
            x += columnWidth + Columns.gap
        }
        return [ColumnsFlowable(columns: placed)]
    }
}
