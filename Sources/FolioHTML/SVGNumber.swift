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
        let scaled = (value * 100).rounded()
        // Checked here, so the conversion below cannot trap.
        guard scaled.isFinite, abs(scaled) < 1e15, scaled != 0 else {
            text += "0"
            return
        }
        var hundredths = Int(scaled)
        let negative = hundredths < 0
        hundredths = abs(hundredths)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var index = 24
            func put(_ byte: UInt8) {
                index -= 1
                buffer[index] = byte
            }
            let fraction = hundredths % 100
            if fraction != 0 {
                if fraction % 10 != 0 { put(UInt8(truncatingIfNeeded: 48 + fraction % 10)) }
                put(UInt8(truncatingIfNeeded: 48 + fraction / 10))
                put(UInt8(ascii: "."))
            }
            var whole = hundredths / 100
            repeat {
                put(UInt8(truncatingIfNeeded: 48 + whole % 10))
                whole /= 10
            } while whole > 0
            if negative { put(UInt8(ascii: "-")) }
            text += String(decoding: UnsafeBufferPointer(rebasing: buffer[index..<24]), as: UTF8.self)
        }
    }
}
