/// What the PDF finishing step needs to know about the structure Cairo wrote, gathered
/// while drawing, each list in drawing order: a figure's text alternative, whether a
/// Table element continues the one before it, a link's description, and the table cells
/// that cover more than one column.
struct StructureRecord {
    var figureAlternatives: [String] = []
    var tableContinues: [Bool] = []
    var linkDescriptions: [String] = []
    /// Table cells (`TH` and `TD` elements) drawn so far.
    var cellCount = 0
    /// Each cell across columns: its number among all cells, and how many columns it covers.
    var spanningCells: [(cell: Int, columns: Int)] = []
    /// The pictures the render has drawn as placeholders so far (`PictureObjects`): placeholder N
    /// stands for `pictures[N - 1]`.
    var pictures: [StoredPicture] = []
}
