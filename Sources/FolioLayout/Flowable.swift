import FolioGraphics

/// A piece of page content with a fixed width: it knows its height, may split
/// between lines or rows, and draws in local coordinates (after ReportLab's platypus).
protocol Flowable: AnyObject {
    /// Height at the frame width.
    var height: Double { get }
    /// Gap above the block when it does not start a page.
    var spaceBefore: Double { get }
    /// Move to the next page together with the start of the following block.
    var keepWithNext: Bool { get }
    /// Smallest first part that may stand at a page bottom (first lines, header and one row).
    var minimumHeadHeight: Double { get }
    /// The least room the flowable can start in: its first part, or a chart's height at its least plot.
    var leastStartHeight: Double { get }
    /// Forces a new page before the following block.
    var isPageBreak: Bool { get }
    /// Is a page of its own (a whole page of an appended PDF): starts a new page, fills it alone
    /// without the running header and footer, and is drawn from the page's corner at `pageSize`.
    var pageSize: Size? { get }
    /// A head that fits `available` and the rest, or nil when it cannot split there.
    func split(available: Double) -> (head: Flowable, tail: Flowable)?
    /// A split made at the top of a page when nothing else works, such as a table row taller than a page.
    func forceSplit(available: Double) -> (head: Flowable, tail: Flowable)?
    /// A copy shrunk to `height`, for pictures and charts larger than a page.
    func scaled(toFit height: Double) -> Flowable?
    /// A copy laid out again to fit `height` (a chart drawn with a shorter plot, its text the same
    /// size) within the bound its author allows, or nil: what fills the rest of a page instead of
    /// moving whole to the next.
    func fitted(toHeight height: Double) -> Flowable?
    func draw(on canvas: PageCanvas, at origin: Point)
    /// The footnotes it cites (their numbers, in order), whose notes go at the foot of the page it is on.
    var footnoteNumbers: [Int] { get }
    /// About how many bytes the flowable holds (its lines, rows, drawing commands; not shaped text,
    /// which `TextResidency` bounds): what a document keeps by keeping it.
    var retainedBytes: Int { get }
}

extension Flowable {
    var spaceBefore: Double { 10 }
    var keepWithNext: Bool { false }
    var minimumHeadHeight: Double { height }
    var leastStartHeight: Double { minimumHeadHeight }
    var isPageBreak: Bool { false }
    var pageSize: Size? { nil }
    func split(available: Double) -> (head: Flowable, tail: Flowable)? { nil }
    func forceSplit(available: Double) -> (head: Flowable, tail: Flowable)? { nil }
    func scaled(toFit height: Double) -> Flowable? { nil }
    func fitted(toHeight height: Double) -> Flowable? { nil }
    var retainedBytes: Int { 1024 }
    var footnoteNumbers: [Int] { [] }
}

/// An explicit page break.
final class PageBreakFlowable: Flowable {
    var height: Double { 0 }
    var spaceBefore: Double { 0 }
    var isPageBreak: Bool { true }
    func draw(on canvas: PageCanvas, at origin: Point) {}
}
