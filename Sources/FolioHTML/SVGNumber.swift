/// Numbers as SVG and CSS write them: two decimals at most, no trailing zeros, by
/// integer arithmetic (fast and locale-free), so equal drawings give equal bytes.
enum SVGNumber {
    /// `value` to two decimals; non-finite or enormous values give 0.
    static func text(_ value: Double) -> String {
        var text = ""
        write(value, into: &text)
        return text
    }

    /// Appends `value` to two decimals, formatted in a small buffer and appended once.
    static func write(_ value: Double, into text: inout String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        write(value, into: &bytes)
        text += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 of `value` to two decimals to `bytes`: path data of thousands of points
    /// is written into one byte buffer and turned into text once.
    static func write(_ value: Double, into bytes: inout [UInt8]) {
        let scaled = (value * 100).rounded()
        // Checked here, so the conversion below cannot trap.
        guard scaled.isFinite, abs(scaled) < 1e15, scaled != 0 else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var hundredths = Int(scaled)
        if hundredths < 0 {
            bytes.append(UInt8(ascii: "-"))
            hundredths = -hundredths
        }
        let whole = hundredths / 100
        let fraction = hundredths % 100
        // Digits appended one by one from the most significant: no temporary buffer or string.
        var divisor = 1
        while divisor <= whole / 10 { divisor *= 10 }
        repeat {
            bytes.append(UInt8(truncatingIfNeeded: 48 + whole / divisor % 10))
            divisor /= 10
        } while divisor > 0
        if fraction != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(truncatingIfNeeded: 48 + fraction / 10))
            if fraction % 10 != 0 { bytes.append(UInt8(truncatingIfNeeded: 48 + fraction % 10)) }
        }
    }
}
