/// The bounds every document is checked against before any memory is spent on it.
/// Each one is documented in docs/errors-and-limits.md; going past one is an
/// error naming the field, never a crash or an exhausted machine.
public enum InputLimits {
    /// Bytes of batch data read from standard input (spooled to a file to be read twice).
    public static let spooledDataBytes = 8 * 1024 * 1024 * 1024
    /// Bytes of one input document or template (JSON or YAML).
    public static let documentBytes = 64 * 1024 * 1024
    /// Nesting of objects and arrays in an input.
    public static let nestingDepth = 64
    /// Values in one parsed input, after YAML aliases are expanded.
    public static let treeValues = 20_000_000
    /// Characters (Unicode scalars) in one string.
    public static let stringScalars = 2_000_000
    /// Characters drawn of one place (left, centre, right) of the page header or footer, which
    /// is drawn on every page; a longer text is cut (a layout-report warning).
    public static let runningTextScalars = 1_000
    /// Lines one place of the page header or footer may take; more are cut with an ellipsis
    /// (a layout-report warning).
    public static let runningTextLines = 3
    /// Largest magnitude of a data value (chart values, axis bounds, thresholds).
    public static let magnitude = 1e15
    /// Largest ring value: 1 is a full ring.
    public static let ringValue = 1000.0
    /// Largest length in points (page sizes, widths, heights): 200 inches.
    public static let length = 14_400.0
    /// Blocks in one document, counting those inside columns.
    public static let blocks = 100_000
    /// Columns of one table.
    public static let tableColumns = 500
    /// Rows of one table (a 200,000-row table is some 8,000 pages).
    public static let tableRows = 200_000
    /// Cells of one table (rows × columns), a table of records' too, checked before its rows are made.
    public static let tableCells = 2_000_000
    /// Cells of one cross-tabulation (rows × columns, totals included), checked before they are counted:
    /// a summary a reader takes in, not a listing.
    public static let crosstabCells = 100_000
    /// Characters in one table cell; longer text belongs in a paragraph.
    public static let tableCellScalars = 10_000
    /// Segments of a pie or donut, rings of a ring chart.
    public static let pieSegments = 1_000
    /// Series, plots, thresholds or reference lines of one chart.
    public static let chartLayers = 1_000
    /// Values in one line or scatter chart, all plots together (dense data is merged per point of output).
    public static let chartValues = 5_000_000
    /// Values of a bar or range chart, each drawn as its own mark (categories × series).
    public static let chartMarks = 200_000
    /// Categories, series, segments, rings or plots in one chart.
    public static let chartEntries = 100_000
    /// Ticks drawn on one axis; more requested are replaced by automatic ticks.
    public static let ticks = 200
    /// Pixels of one image (width × height), checked from its header before it is decoded.
    public static let imagePixels = 50_000_000
    /// Pixels of one side of an image.
    public static let imageSide = 30_000
    /// Bytes of one image.
    public static let imageBytes = 64 * 1024 * 1024
    /// Bytes of one SVG picture's markup.
    public static let svgBytes = 2 * 1024 * 1024
    /// Elements of one SVG picture.
    public static let svgElements = 20_000
    /// Nesting depth of one SVG picture's elements.
    public static let svgDepth = 32
}
