import Foundation

/// Encoded PNG or JPEG bytes with their pixel size, read from the file header.
public struct ImageData: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable {
        case png, jpeg

        /// The MIME type, for data URIs.
        public var mimeType: String { self == .png ? "image/png" : "image/jpeg" }
    }

    public var bytes: Data
    public var format: Format
    public var pixelWidth: Int
    public var pixelHeight: Int

    /// Reads the format and size; nil when the bytes are neither a PNG nor a baseline/progressive JPEG.
    public init?(bytes: Data) {
        let b = [UInt8](bytes.prefix(64 * 1024))
        if b.count >= 24, b[0] == 0x89, b[1] == 0x50, b[2] == 0x4E, b[3] == 0x47,
           b[12] == 0x49, b[13] == 0x48, b[14] == 0x44, b[15] == 0x52 {
            let w = Int(b[16]) << 24 | Int(b[17]) << 16 | Int(b[18]) << 8 | Int(b[19])
            let h = Int(b[20]) << 24 | Int(b[21]) << 16 | Int(b[22]) << 8 | Int(b[23])
            guard w > 0, h > 0 else { return nil }
            self.init(bytes: bytes, format: .png, width: w, height: h)
        } else if b.count >= 4, b[0] == 0xFF, b[1] == 0xD8, let size = ImageData.jpegSize(bytes) {
            self.init(bytes: bytes, format: .jpeg, width: size.0, height: size.1)
        } else {
            return nil
        }
    }

    private init(bytes: Data, format: Format, width: Int, height: Int) {
        self.bytes = bytes; self.format = format; self.pixelWidth = width; self.pixelHeight = height
    }

    /// Walks JPEG segments to the first start-of-frame marker.
    private static func jpegSize(_ data: Data) -> (Int, Int)? {
        let b = [UInt8](data)
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                let h = Int(b[i + 5]) << 8 | Int(b[i + 6])
                let w = Int(b[i + 7]) << 8 | Int(b[i + 8])
                return w > 0 && h > 0 ? (w, h) : nil
            }
            guard length >= 2 else { return nil }
            i += 2 + length
        }
        return nil
    }

    /// `data:` URI of the bytes, for self-contained HTML.
    public var dataURI: String { "data:\(format.mimeType);base64,\(bytes.base64EncodedString())" }
}
