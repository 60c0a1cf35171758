/// Numbers as SVG and CSS write them: two decimals at most, no trailing zeros, by
/// integer arithmetic (fast and locale-free), so equal drawings give equal bytes.
package enum SVGNumber {
    /// `value` to two decimals; non-finite or enormous values give 0.
    package static func text(_ value: Double) -> String {
        var text = ""
        write(value, into: &text)
        return text
    }

    /// Appends `value` to two decimals, formatted in a small stack buffer and appended once.
    package static func write(_ value: Double, into text: inout String) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let start = format(value, into: buffer)
            text += String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }

    /// Appends the UTF-8 of `value` to two decimals to `bytes`: path data of thousands of points
    /// is written into one byte buffer and turned into text once.
    package static func write(_ value: Double, into bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let start = format(value, into: buffer)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Room for the longest number: a sign, 13 digits, a point and two decimals.
    private static let capacity = 24

    /// Writes `value` to two decimals at the end of `buffer` (of `capacity` bytes); returns where it starts.
    private static func format(_ value: Double, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var index = capacity
        func put(_ byte: UInt8) {
            index -= 1
            buffer[index] = byte
        }
        let scaled = (value * 100).rounded()
        // Checked here, so the conversion below cannot trap.
        guard scaled.isFinite, abs(scaled) < 1e15, scaled != 0 else {
            put(UInt8(ascii: "0"))
            return index
        }
        let hundredths = abs(Int(scaled))
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
        if scaled < 0 { put(UInt8(ascii: "-")) }
        return index
    }
}
