import CNumberText
import Foundation

/// Numbers as text with a fixed number of decimals, as C's `printf("%.*f")` writes them (the
/// exact binary value rounded half to even), without Foundation's `String(format:)`, which costs
/// microseconds a call (a chart writes hundreds of numbers), and without Swift's variadic
/// `withVaList`, whose boxing costs a cold process a scan of every protocol conformance per type.
package enum DecimalText {
    /// `value` with exactly `decimals` digits after the point (clamped to 0…10), "." as the
    /// separator; non-finite values as "nan", "inf", "-inf".
    package static func fixed(_ value: Double, decimals: Int) -> String {
        let places = max(0, min(decimals, 10))
        if places == 0, value.isFinite, abs(value) < 1e15 {
            // Exact: rounding a double to a whole number loses nothing, and ties go to even as in printf.
            let whole = value.rounded(.toNearestOrEven)
            return whole == 0 && value.sign == .minus ? "-0" : String(Int(whole))
        }
        // %.10f of the largest double has 320 characters.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 352) { buffer in
            guard let base = buffer.baseAddress else { return "" }
            let count = folio_fixed_text(base, 352, Int32(places), value)
            guard count > 0 else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: base, count: min(Int(count), 351)), as: UTF8.self)
        }
    }
}
