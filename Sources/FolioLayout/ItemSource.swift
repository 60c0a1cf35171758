import FolioGraphics
import FolioModel

/// The paginator's items (a document's title and elements made into flowables), by their place
/// in the document's list of items, each block laid out when first asked for.
///
/// While `keepsEverything`, every block laid out is kept (a short document is laid out once).
/// Once it is off (a long document, whose pages are filled again when they are drawn), only the
/// blocks from a given item on are kept, and a block let go of is laid out again, the same way,
/// when a page asks for it: with the builder as it was (inside a section or not), its warnings
/// and sources noted the first time only.
final class ItemSource {
    private let document: Document
    private let builder: FlowableBuilder
    /// Whether the document's title is its first block.
    private let hasTitle: Bool
    /// The blocks: the title (when there is one), then each element.
    private let blockCount: Int
    /// For each block laid out so far: the index of its first item.
    private var firstItem: [Int] = []
    /// For each block laid out so far: its index in the builder's sources (-1 when it has no flowables).
    private var sourceIndex: [Int] = []
    /// Items of the blocks laid out so far.
    private var itemCount = 0
    /// The first section block: subtitles after it are one level below the section heading.
    private var firstSection: Int?
    /// The items of the blocks kept, by block.
    private var kept: [Int: [Paginator.Item]] = [:]
    /// The lowest block that may still be kept (blocks before it were let go of).
    private var keptFrom = 0
    /// About how many bytes the blocks laid out so far hold (`Flowable.retainedBytes`).
    private(set) var laidOutBytes = 0
    /// How many blocks' items are kept now.
    var blocksKept: Int { kept.count }
    /// Whether every block laid out is kept.
    var keepsEverything = true

    init(document: Document, builder: FlowableBuilder) {
        self.document = document
        self.builder = builder
        hasTitle = !document.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        builder.headings = HeadingLevels(hasTitle: hasTitle)
        blockCount = document.elements.count + (hasTitle ? 1 : 0)
        builder.reserveSources(blockCount)
        firstItem.reserveCapacity(blockCount)
        sourceIndex.reserveCapacity(blockCount)
    }

    /// Item `index` (nil past the last), laying out blocks as needed.
    func item(at index: Int) throws -> Paginator.Item? {
        while index >= itemCount {
            guard firstItem.count < blockCount else { return nil }
            try layOutNext()
        }
        let block = self.block(containing: index)
        let items = try kept[block] ?? layOutAgain(block)
        return items[index - firstItem[block]]
    }

    /// Lets go of every block before the one holding item `index` (unless `keepsEverything`).
    func letGo(before index: Int) {
        guard !keepsEverything else { return }
        // An item not laid out yet belongs to a block after every block laid out.
        let block = index < itemCount ? self.block(containing: index) : firstItem.count
        guard block > keptFrom else { return }
        for old in keptFrom..<block { kept[old] = nil }
        keptFrom = block
    }

    /// The block whose items include item `index` (a laid-out block, found by binary search).
    private func block(containing index: Int) -> Int {
        var low = 0
        var high = firstItem.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if firstItem[middle] <= index { low = middle } else { high = middle - 1 }
        }
        // Blocks without flowables share their first item with the next block: take the last of them.
        return low
    }

    /// The path, type and model of block `block`.
    private func describe(_ block: Int) -> (path: String, type: String, element: Block?) {
        if hasTitle && block == 0 { return ("title", "title", nil) }
        let index = block - (hasTitle ? 1 : 0)
        return ("elements[\(index)]", document.elements[index].typeName, document.elements[index])
    }

    /// Block `block`'s flowables, with the builder inside a section when it was the first time.
    private func flowables(of block: Int) throws -> [Flowable] {
        let (path, _, element) = describe(block)
        try RenderDeadline.check(at: "laying out \(path)")
        guard let element else { return try builder.titleFlowables(document.title) }
        builder.headings.inSection = firstSection.map { block > $0 } ?? false
        let flowables = try builder.flowables(for: element, path: path)
        if case .section = element, firstSection == nil { firstSection = block }
        return flowables
    }

    /// Block `block`'s flowables as items; the first of a block kept together carries the height of all.
    private func items(of block: Int, _ flowables: [Flowable], source: Int) -> [Paginator.Item] {
        var items = flowables.map { Paginator.Item(flowable: $0, source: source) }
        if let element = describe(block).element, element.content?.keepsTogether == true, !items.isEmpty {
            items[0].keptHeight = flowables.dropFirst().reduce(flowables[0].height) { $0 + $1.spaceBefore + $1.height }
        }
        return items
    }

    /// Lays out the next block for the first time: its items are numbered and its source noted.
    private func layOutNext() throws {
        let block = firstItem.count
        let flowables = try self.flowables(of: block)
        let (path, type, _) = describe(block)
        let source = flowables.isEmpty ? -1 : builder.addSource(path: path, type: type)
        firstItem.append(itemCount)
        sourceIndex.append(source)
        itemCount += flowables.count
        laidOutBytes += flowables.reduce(0) { $0 + $1.retainedBytes }
        let items = self.items(of: block, flowables, source: source)
        if keepsEverything || block >= keptFrom { kept[block] = items }
    }

    /// Lays out a block let go of again, as it was laid out the first time.
    private func layOutAgain(_ block: Int) throws -> [Paginator.Item] {
        builder.isLayingOutAgain = true
        defer { builder.isLayingOutAgain = false }
        let items = self.items(of: block, try flowables(of: block), source: sourceIndex[block])
        if block >= keptFrom { kept[block] = items }
        return items
    }
}
