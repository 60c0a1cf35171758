/// Where a chart's data table goes: `dataTable: true` under the chart in the PDF (up to
/// `Chart.printedDataRows` rows) and in the HTML's collapsed table, `false` nowhere, or `html` in
/// the HTML's collapsed table only — a long series a printed summary would not hold.
public enum ChartDataTablePlacement: Sendable, Hashable, Codable {
    /// No data table.
    case none
    /// Under the chart in the PDF and in the HTML.
    case everywhere
    /// In the HTML only.
    case html

    /// The one word the placement takes besides `true` and `false`.
    enum Word: String, Sendable, CaseIterable, NamedOption, Decodable { case html }

    /// Reads `true`, `false` or `html`.
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let shown = try? single.decode(Bool.self) {
            self = shown ? .everywhere : .none
            return
        }
        _ = try single.decode(Word.self)
        self = .html
    }

    /// Writes `true`, `false` or `html`.
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .none: try single.encode(false)
        case .everywhere: try single.encode(true)
        case .html: try single.encode(Word.html.rawValue)
        }
    }
}
