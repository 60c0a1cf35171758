import FolioGraphics
import FolioModel

/// Numbers of one column (a data table's, a chart's axis or statistics) written alike: the axis's
/// format if it has one, else as many decimals as the most precise value needs, in the document's digits.
struct ColumnFormat {
    let format: ValueFormat?
    let decimals: Int
    let numbers: NumberFormat

    init(_ format: ValueFormat?, values: [Double], numbers: NumberFormat) {
        self.format = format
        self.numbers = numbers
        decimals = NumberFormat.decimals(for: values)
    }

    func callAsFunction(_ value: Double) -> String {
        numbers.string(value, format: format, fallbackDecimals: decimals)
    }

    /// A statistic of the values (a quartile, a median, a mean) with the decimals it needs, up to two
    /// more than the values have: 3.25 of whole numbers is 3.25, not 3, and 8.15 is not 8.150.
    func statistic(_ value: Double) -> String {
        guard format == nil else { return self(value) }
        let most = decimals + 2
        let scale = Double.pow10(most)
        let rounded = (value * scale).rounded() / scale
        return numbers.string(rounded, decimals: Swift.min(Swift.max(NumberFormat.decimalsShown(rounded), decimals), most))
    }
}

extension Double {
    /// 10 to the power `exponent` (0 to 15).
    fileprivate static func pow10(_ exponent: Int) -> Double {
        (0..<Swift.min(Swift.max(exponent, 0), 15)).reduce(1.0) { value, _ in value * 10 }
    }
}
