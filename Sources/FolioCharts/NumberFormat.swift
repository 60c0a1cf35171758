import Foundation

/// Formats chart numbers with fixed decimals, without locale surprises.
public enum NumberFormat {
    /// `value` with `decimals` digits after the point; `-0` prints as `0`.
    public static func string(_ value: Double, decimals: Int) -> String {
        let text = String(format: "%.\(max(0, min(decimals, 6)))f", value)
        if text.hasPrefix("-"), Double(text) == 0 { return String(text.dropFirst()) }
        return text
    }

    /// 0 when every value is whole, else 1.
    public static func decimals(for values: [Double]) -> Int {
        values.allSatisfy { $0 == $0.rounded() } ? 0 : 1
    }
}
