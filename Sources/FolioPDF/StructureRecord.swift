/// What the PDF finishing step needs to know about the structure Cairo wrote, gathered
/// while drawing, each list in drawing order: a figure's text alternative, whether a
/// Table element continues the one before it, and a link's description.
struct StructureRecord {
    var figureAlternatives: [String] = []
    var tableContinues: [Bool] = []
    var linkDescriptions: [String] = []
}
