import FolioModel

/// The layout report gathered a page at a time, as pages are filled: each block's pages and a
/// table's rows on each, and the rules the paginator bent. A block's pages follow one another
/// (pagination is one pass), so its first and last are all that is kept: a few bytes a block.
struct LayoutReportCollector {
    /// By source: the first and last page it is on (0: none).
    private var firstPage: [Int32] = []
    private var lastPage: [Int32] = []
    /// By source, for tables: the first and last row on each of its pages.
    private var rows: [Int: [[Int]]] = [:]
    private var paginatorWarnings: [Paginator.Warning] = []

    /// Notes what rule the paginator bent.
    mutating func note(_ warning: Paginator.Warning) { paginatorWarnings.append(warning) }

    /// Notes what page `number` holds.
    mutating func note(_ page: PageContent, number: Int) {
        let page32 = Int32(clamping: number)
        for placement in page.placements {
            let source = placement.source
            if firstPage.count <= source {
                firstPage += repeatElement(0, count: source + 1 - firstPage.count)
                lastPage += repeatElement(0, count: source + 1 - lastPage.count)
            }
            if firstPage[source] == 0 { firstPage[source] = page32 }
            lastPage[source] = page32
            if let table = placement.flowable as? TableFlowable, !table.range.isEmpty {
                rows[source, default: []].append([table.range.lowerBound, table.range.upperBound - 1])
            }
        }
    }

    /// The report: blocks (of `sources`) that are on a page, in order; `warnings` (the builder's and
    /// the running lines') then the paginator's.
    func report(sources: [FlowableBuilder.Source], pages count: Int, warnings: [LayoutReport.Warning]) -> LayoutReport {
        var blocks: [LayoutReport.Block] = []
        blocks.reserveCapacity(firstPage.reduce(0) { $0 + ($1 > 0 ? 1 : 0) })
        for index in sources.indices where index < firstPage.count && firstPage[index] > 0 {
            let pages = Array(Int(firstPage[index])...Int(lastPage[index]))
            blocks.append(LayoutReport.Block(path: sources[index].path, type: sources[index].type, pages: pages, rows: rows[index]))
        }
        let paginator = paginatorWarnings.map {
            LayoutReport.Warning(kind: $0.kind, path: sources[$0.source].path, page: $0.page, message: $0.message)
        }
        return LayoutReport(pages: count, blocks: blocks, warnings: warnings + paginator)
    }
}
