import Foundation

/// A POSIX ustar archive written as it is sent (`GET /v1/jobs/{id}/archive`): a 512-byte header
/// per file, its bytes padded to 512, and two empty blocks at the end. Names are a job's document
/// names (`record-12.pdf`: short, ASCII), times and owners fixed, so the same documents give the
/// same archive.
enum TarArchive {
    /// The header of a file `name` of `size` bytes (mode 0644).
    static func header(name: String, size: Int) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int, length: Int) {
            for (index, byte) in text.utf8.prefix(length).enumerated() { block[offset + index] = byte }
        }
        func octal(_ value: Int, at offset: Int, length: Int) {
            put(
                String(repeating: "0", count: max(0, length - 1 - String(value, radix: 8).count)) + String(value, radix: 8), at: offset,
                length: length - 1)
        }
        put(name, at: 0, length: 100)
        octal(0o644, at: 100, length: 8)
        octal(0, at: 108, length: 8)
        octal(0, at: 116, length: 8)
        octal(size, at: 124, length: 12)
        octal(0, at: 136, length: 12)
        block[156] = UInt8(ascii: "0")
        put("ustar", at: 257, length: 6)
        put("00", at: 263, length: 2)
        // The checksum is the sum of the header's bytes with its own field as spaces.
        for index in 148..<156 { block[index] = 0x20 }
        let sum = block.reduce(0) { $0 + Int($1) }
        octal(sum, at: 148, length: 7)
        block[155] = 0x20
        return block
    }

    /// The zeros after a file of `size` bytes, to the next 512.
    static func padding(size: Int) -> [UInt8] {
        [UInt8](repeating: 0, count: (512 - size % 512) % 512)
    }

    /// Two empty blocks: the archive's end.
    static let end = [UInt8](repeating: 0, count: 1024)
}
