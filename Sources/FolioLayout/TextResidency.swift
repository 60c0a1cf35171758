/// How much shaped text (Pango layouts, the largest thing a laid-out document holds: about 45 bytes
/// a character) a document keeps at once. Blocks of text are shaped when they are laid out, to know
/// their lines; past `budget`, the earliest kept are let go and shaped again when their page is
/// drawn. A short document keeps everything and is shaped once; a document of any length holds at
/// most about `budget` of shaped text, however many pages it has.
final class TextResidency {
    /// Shaped text kept, in estimated bytes, before the earliest kept is let go.
    let budget: Int
    /// Estimated bytes of shaped text kept now.
    private(set) var kept = 0
    /// Blocks in the order they were shaped, with the shaping each entry stands for: an entry whose
    /// block was let go or shaped again since is passed over. A block listed is held until it is
    /// let go, so what this holds is bounded by the budget too.
    private var order: [(block: TextBlock, shaping: Int)?] = []
    private var head = 0

    /// 8 MB: some 50 pages of paragraphs, far more than a weekly summary's text.
    static let standardBudget = 8 << 20

    init(budget: Int = TextResidency.standardBudget) { self.budget = budget }

    /// Estimated bytes that `layouts` Pango layouts of `bytes` of UTF-8 text in all take: their
    /// glyphs, clusters, character attributes and lines (45 bytes a character, measured on
    /// wrapped paragraphs), and each layout's own.
    static func cost(ofTextBytes bytes: Int, layouts: Int) -> Int { 1024 * layouts + 45 * bytes }

    /// `block` has just been shaped (its `shaping`-th time) at `cost`: it is kept, and the earliest
    /// kept blocks are let go until what is kept fits the budget again (the block just shaped stays).
    func admit(_ block: TextBlock, shaping: Int, cost: Int) {
        kept += cost
        order.append((block, shaping))
        while kept > budget, head < order.count - 1 {
            let entry = order[head]
            order[head] = nil
            head += 1
            if let entry, entry.block.shaping == entry.shaping { entry.block.letGoOfShapes() }
        }
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }

    /// A kept block let go of its shapes, or was freed, holding `cost`.
    func released(cost: Int) { kept -= cost }
}
