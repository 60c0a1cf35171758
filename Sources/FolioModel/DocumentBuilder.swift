/// Builds a document's blocks from a closure, as SwiftUI builds views: one value per line,
/// `if`, `switch` and `for` as in any Swift code.
///
/// ```swift
/// let document = Document(title: "Weekly Update") {
///     Subtitle("Pain")
///     BarChart(categories: ["Mon", "Tue"]) { ChartSeries(title: "Pain", values: [3, nil]) }
///         .chart(title: "Pain by day")
///     if let note { Paragraph(note) }
///     for row in rows { Paragraph(row) }
/// }
/// ```
public typealias DocumentBuilder = ListBuilder<Block>

/// Builds a list from a closure, one element per line, with `if`, `switch` and `for`: a
/// document's blocks (`DocumentBuilder`) and a chart's series, plots, segments or rings.
@resultBuilder
public enum ListBuilder<Element> {
    /// One element.
    public static func buildExpression(_ element: Element) -> [Element] { [element] }
    /// Elements built elsewhere, in order.
    public static func buildExpression(_ elements: [Element]) -> [Element] { elements }
    /// The elements of every line, in order.
    public static func buildBlock(_ parts: [Element]...) -> [Element] { parts.flatMap { $0 } }
    /// The elements of an `if` without `else`, or none.
    public static func buildOptional(_ part: [Element]?) -> [Element] { part ?? [] }
    /// The elements of the `if` branch taken.
    public static func buildEither(first part: [Element]) -> [Element] { part }
    /// The elements of the `else` branch taken.
    public static func buildEither(second part: [Element]) -> [Element] { part }
    /// The elements of every pass of a `for` loop.
    public static func buildArray(_ parts: [[Element]]) -> [Element] { parts.flatMap { $0 } }
    /// The elements of an `if #available` branch.
    public static func buildLimitedAvailability(_ part: [Element]) -> [Element] { part }
}

extension ListBuilder where Element == Block {
    /// Any block type as it is written (`Subtitle("…")`, a chart family's data, a `CustomBlock`).
    public static func buildExpression(_ value: some BlockConvertible) -> [Block] { [value.block] }
}

extension Document {
    /// A document whose blocks the builder gives, with its title, running header and footer,
    /// built-in word overrides, page setup, metadata, theme, PDF protection and watermark (as `init(title:…elements:)`).
    public init(
        title: String = "", header: String? = nil, footer: String? = nil, strings: BuiltInStrings.Overrides = .init(),
        page: PageSetup? = nil, metadata: Metadata = Metadata(), theme: ThemeSpec? = nil, protection: Protection? = nil,
        watermark: Watermark? = nil, @DocumentBuilder _ elements: () throws -> [Block]
    ) rethrows {
        self.init(
            title: title, header: header, footer: footer, strings: strings, page: page, metadata: metadata, theme: theme,
            elements: try elements())
        self.protection = protection
        self.watermark = watermark
    }
}
