/// What the PDF finishing step needs to know about the structure Cairo wrote, gathered
/// while drawing, each list in drawing order: a figure's text alternative, whether a
/// Table or L element continues the one before it, a link's description, and the table cells
/// that cover more than one column.
struct StructureRecord {
    /// What a Table or L element is to the one before it (the values the finishing step reads).
    enum SplitElement: UInt8 {
        /// It begins a table or list (which later pages' parts may continue).
        case starts = 0
        /// It is a later page's part of the table or list before it: the parts become one element.
        case continues = 1
        /// It is whole (a list nested in another's item): never joined, and it leaves the one open alone.
        case whole = 2
    }

    var figureAlternatives: [String] = []
    /// Every Table and L element, in drawing order.
    var splitElements: [SplitElement] = []
    var linkDescriptions: [String] = []
    /// The language of every P and H1–H6 element, nil where it is the document's.
    var textLanguages: [String?] = []
    /// The language of every table cell, nil where it is the document's.
    var cellLanguages: [String?] = []
    /// The language of every passage its author marked, in drawing order (each drawn as a `Quote`,
    /// which Folio uses for nothing else; the finishing step makes it a `Span` with its `/Lang`).
    var passageLanguages: [String] = []
    /// Table cells (`TH` and `TD` elements) drawn so far.
    var cellCount = 0
    /// Each cell across columns: its number among all cells, and how many columns it covers.
    var spanningCells: [(cell: Int, columns: Int)] = []
    /// The header cells that head their row (/Scope /Row), by their number among all cells.
    var rowHeaderCells: [Int] = []
    /// The pictures the render has drawn as placeholders so far (`PictureObjects`): placeholder N
    /// stands for `pictures[N - 1]`.
    var pictures: [StoredPicture] = []
}
