/// Numbers as SVG and CSS write them: two decimals at most, no trailing zeros, by
/// integer arithmetic (fast and locale-free), so equal drawings give equal bytes.
enum SVGNumber {
    /// `value` to two decimals; non-finite or enormous values give 0.
    static func text(_ value: Double) -> String {
        var text = ""
        write(value, into: &text)
        return text
    }

    static func write(_ value: Double, into text: inout String) {
        let scaled = (value * 100).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { text += "0"; return }
        var hundredths = scaled.clampedInt()
        guard hundredths != 0 else { text += "0"; return }
        if hundredths < 0 { text += "-" }
        hundredths = abs(hundredths)
        text += String(hundredths / 100)
        let fraction = hundredths % 100
        if fraction != 0 {
            text += fraction % 10 == 0 ? "." + String(fraction / 10) : (fraction < 10 ? ".0" : ".") + String(fraction)
        }
    }
}
