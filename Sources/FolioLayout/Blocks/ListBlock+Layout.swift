import FolioGraphics
import FolioModel

extension ListBlock: LaidOutBlock {
    /// The list as one flowable that splits between lines (`ListFlowable`).
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        [try flowable(in: builder, path: path, spaceBefore: 6)]
    }

    /// The list laid out at the builder's width: labels hang in a gutter as wide as the widest
    /// label, each nested list starts where its item's text does, and a right-to-left document
    /// mirrors it all (labels on the right).
    func flowable(in builder: FlowableBuilder, path: String, spaceBefore: Double) throws -> ListFlowable {
        var layout = ListLayout(builder: builder)
        let root = try layout.node(self, depth: 0, indent: 0, path: path)
        return ListFlowable(
            root: root, rows: layout.rows, color: builder.theme.text, labelColor: builder.theme.text, spaceBefore: spaceBefore)
    }
}

/// Lays out a list's rows top to bottom, nested lists included.
private struct ListLayout {
    let builder: FlowableBuilder
    var rows: [ListFlowable.Row] = []
    /// Where the next row starts.
    private var y = 0.0
    private var lineCount = 0

    init(builder: FlowableBuilder) { self.builder = builder }

    private var font: FontSpec { builder.theme.font(builder.theme.bodySize) }
    /// The gap between items.
    private var itemGap: Double { builder.theme.bodySize * 0.3 }

    mutating func node(_ list: ListBlock, depth: Int, indent: Double, path: String) throws -> ListFlowable.Node {
        let width = builder.width
        let labels = list.items.indices.reduce(into: [Int: String]()) { labels, index in
            guard case .text = list.items[index] else { return }
            labels[index] = list.label(ofItem: labels.count, depth: depth)
        }
        let shaped = labels.mapValues { builder.text.singleLine($0, font: font) }
        let widest = shaped.values.map(\.metrics.width).max() ?? 0
        let labelGap = builder.theme.bodySize * 0.5
        let gutter = list.ordered ? widest + labelGap : max(widest + labelGap, builder.theme.bodySize * 1.3)
        // Deep nesting in a narrow column stops indenting where the text would get too narrow.
        let start = min(indent, max(0, width * 0.5 - gutter))
        let textWidth = max(width - start - gutter, 1)
        // The list runs the way its items' language does where they agree (an Arabic list in an
        // English report hangs its labels on the right, beside its right-aligned text), else the
        // document's way, whatever letter an item starts with ("Metformin 500 ملغ" in an Arabic
        // report); its items are set that way too.
        let directions = Set(list.texts.map { builder.direction(of: $0.plainText) })
        let direction = directions.count == 1 ? directions.first : nil
        let rightToLeft = direction.map { $0 == .rightToLeft } ?? builder.strings.isRightToLeft
        let itemDirection: TextDirection = rightToLeft ? .rightToLeft : .leftToRight
        var entries: [ListFlowable.Entry] = []
        for (index, item) in list.items.enumerated() {
            let itemPath = "\(path).items[\(index)]"
            switch item {
            case .text(let text):
                let block = try builder.textBlock(text.runs, width: textWidth, path: itemPath, direction: itemDirection)
                let label = shaped[index]
                let labelWidth = label?.metrics.width ?? 0
                // Numbers end at the gutter's edge; bullets stand at its start.
                let labelStart = list.ordered ? start + gutter - labelGap - labelWidth : start + (gutter - labelGap - labelWidth) / 2
                let firstBaseline = block.pieces.first?.metrics.baseline ?? 0
                let row = ListFlowable.Row(
                    label: label,
                    labelX: rightToLeft ? width - labelStart - labelWidth : labelStart,
                    labelTop: firstBaseline - (label?.metrics.baseline ?? 0),
                    block: block, x: rightToLeft ? width - start - gutter - textWidth : start + gutter, top: y, firstLine: lineCount,
                    language: PassageLanguage.of(text.plainText, documentLanguage: builder.strings.language))
                rows.append(row)
                lineCount += block.lines.count
                y += (block.lines.last?.bottom ?? 0) + itemGap
                entries.append(ListFlowable.Entry(row: rows.count - 1, nested: [], rows: (rows.count - 1)..<rows.count))
            case .list(let nested):
                let node = try self.node(nested, depth: depth + 1, indent: start + gutter, path: itemPath)
                if let last = entries.last, last.row != nil {
                    // A list after an item's text belongs to that item, as in HTML.
                    entries[entries.count - 1] = ListFlowable.Entry(
                        row: last.row, nested: last.nested + [node], rows: last.rows.lowerBound..<node.rows.upperBound)
                } else {
                    entries.append(ListFlowable.Entry(row: nil, nested: [node], rows: node.rows))
                }
            }
        }
        return ListFlowable.Node(entries: entries)
    }
}
