import FolioModel
import Foundation

/// Encoded PNG or JPEG bytes with their pixel size, read from the file header.
package struct ImageData: Sendable, Hashable, Codable {
    /// The encodings Folio reads.
    package enum Format: String, Sendable, Hashable, Codable {
        case png, jpeg

        /// The MIME type, for data URIs.
        package var mimeType: String { self == .png ? "image/png" : "image/jpeg" }
    }

    /// The encoded bytes.
    package var bytes: Data
    /// PNG or JPEG.
    package var format: Format
    /// Width in pixels.
    package var pixelWidth: Int
    /// Height in pixels.
    package var pixelHeight: Int
    /// Colour components of a JPEG (1 grey, 3 YCbCr/RGB, 4 CMYK); 0 for PNG.
    package var components: Int = 0
    /// Whether a CMYK JPEG stores its inks inverted, as Adobe's writers do (APP14 marker).
    package var invertedCMYK = false
    /// What the one walk over a JPEG's segments found wrong with it (cut short, corrupt).
    private var jpegProblem: String?

    /// Reads the format and size; nil when the bytes are neither a PNG nor a baseline/progressive JPEG.
    package init?(bytes: Data) {
        let b = [UInt8](bytes.prefix(64 * 1024))
        if b.count >= 24, b[0] == 0x89, b[1] == 0x50, b[2] == 0x4E, b[3] == 0x47,
            b[12] == 0x49, b[13] == 0x48, b[14] == 0x44, b[15] == 0x52
        {
            let w = Int(b[16]) << 24 | Int(b[17]) << 16 | Int(b[18]) << 8 | Int(b[19])
            let h = Int(b[20]) << 24 | Int(b[21]) << 16 | Int(b[22]) << 8 | Int(b[23])
            guard w > 0, h > 0 else { return nil }
            self.init(bytes: bytes, format: .png, width: w, height: h)
        } else if b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 {
            let scan = ImageData.scanJPEG(bytes)
            guard let frame = scan.frame else { return nil }
            self.init(bytes: bytes, format: .jpeg, width: frame.width, height: frame.height)
            components = frame.components
            invertedCMYK = scan.adobe
            jpegProblem = scan.problem
        } else {
            return nil
        }
    }

    private init(bytes: Data, format: Format, width: Int, height: Int) {
        self.bytes = bytes
        self.format = format
        self.pixelWidth = width
        self.pixelHeight = height
    }

    /// What one walk over a JPEG's segments found: the first frame's size and colour components,
    /// whether an Adobe APP14 marker came before it, and what is wrong with the file, if anything.
    private struct JPEGScan {
        var frame: (width: Int, height: Int, components: Int)?
        var adobe = false
        var problem: String?
    }

    /// Walks the segments from SOI to the scan, then looks for the end-of-image marker after it.
    private static func scanJPEG(_ data: Data) -> JPEGScan {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> JPEGScan in
            let b = raw.bindMemory(to: UInt8.self)
            var scan = JPEGScan()
            var i = 2
            while i + 4 <= b.count {
                guard b[i] == 0xFF else {
                    scan.problem = "the JPEG file is corrupt"
                    return scan
                }
                let marker = b[i + 1]
                if marker == 0xFF {
                    i += 1
                    continue
                }
                let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
                guard length >= 2, i + 2 + length <= b.count else {
                    scan.problem = "the JPEG file is cut short"
                    return scan
                }
                if marker == 0xEE, length >= 7, Array(b[(i + 4)..<(i + 9)]) == Array("Adobe".utf8) { scan.adobe = true }
                let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
                if isFrame, scan.frame == nil, length >= 8 {
                    let h = Int(b[i + 5]) << 8 | Int(b[i + 6])
                    let w = Int(b[i + 7]) << 8 | Int(b[i + 8])
                    guard w > 0, h > 0 else {
                        scan.problem = "the JPEG file is corrupt"
                        return scan
                    }
                    scan.frame = (w, h, Int(b[i + 9]))
                }
                if marker == 0xDA {
                    // Entropy-coded data follows; the file must end with FF D9 (trailing bytes allowed).
                    var j = i + 2 + length
                    while j + 1 < b.count {
                        if b[j] == 0xFF, b[j + 1] == 0xD9 { return scan }
                        j += 1
                    }
                    scan.problem = "the JPEG file is cut short"
                    return scan
                }
                i += 2 + length
            }
            scan.problem = "the JPEG file is cut short"
            return scan
        }
    }

    /// Why the image cannot be used, or nil: a size beyond the limits (checked before any
    /// pixel is decoded), a truncated or malformed file, an unsupported JPEG colour model.
    package var problem: String? {
        guard pixelWidth <= InputLimits.imageSide, pixelHeight <= InputLimits.imageSide,
            pixelWidth * pixelHeight <= InputLimits.imagePixels
        else {
            return
                "the image is \(pixelWidth) × \(pixelHeight) pixels; at most \(InputLimits.imageSide) a side and \(InputLimits.imagePixels / 1_000_000) megapixels are allowed"
        }
        switch format {
        case .png: return pngProblem
        case .jpeg:
            guard [1, 3, 4].contains(components) else { return "a JPEG with \(components) colour components is not supported" }
            return jpegProblem
        }
    }

    /// PNG chunks must follow each other up to IEND, with IHDR first and image data present.
    private var pngProblem: String? {
        bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
            let b = raw.bindMemory(to: UInt8.self)
            var i = 8
            var sawData = false
            while i + 8 <= b.count {
                let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
                let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
                if i == 8, type != "IHDR" { return "the PNG does not start with its header" }
                guard length >= 0, i + 12 + length <= b.count else { return "the PNG file is cut short" }
                let stored =
                    UInt32(b[i + 8 + length]) << 24 | UInt32(b[i + 9 + length]) << 16
                    | UInt32(b[i + 10 + length]) << 8 | UInt32(b[i + 11 + length])
                if ImageData.crc32(UnsafeBufferPointer(rebasing: b[(i + 4)..<(i + 8 + length)])) != stored {
                    return "the PNG file is corrupt (its \(type) chunk fails its checksum)"
                }
                if type == "IDAT" { sawData = true }
                if type == "IEND" { return sawData ? nil : "the PNG has no image data" }
                i += 12 + length
            }
            return "the PNG file is cut short"
        }
    }

    /// PNG's CRC-32 (ISO 3309), table-driven.
    private static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        crcTable.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// `data:` URI of the bytes, for self-contained HTML.
    package var dataURI: String { "data:\(format.mimeType);base64,\(bytes.base64EncodedString())" }
}
