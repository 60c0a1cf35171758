import CBarcode
import FolioGraphics
import FolioModel

/// A barcode encoded by libzint: its dark rectangles in X-dimension units, with the quiet zones.
package struct BarcodeSymbol: Sendable {
    /// The symbol's size with its quiet zones, in X-dimension units.
    package let width: Double, height: Double
    /// The dark modules and bars.
    package let rectangles: [Rect]

    /// Encodes `barcode`; data its symbology cannot hold (letters in EAN-13, too much for a QR code)
    /// is an error naming `path.data`, with zint's reason.
    package init(_ barcode: Barcode, path: String) throws {
        let symbology: Int32
        switch barcode.symbology {
        case .qr: symbology = Int32(FOLIO_QR.rawValue)
        case .datamatrix: symbology = Int32(FOLIO_DATAMATRIX.rawValue)
        case .code128: symbology = Int32(FOLIO_CODE128.rawValue)
        case .pdf417: symbology = Int32(FOLIO_PDF417.rawValue)
        case .ean13: symbology = Int32(FOLIO_EAN13.rawValue)
        }
        var rects: UnsafeMutablePointer<folio_barcode_rect>?
        var count = 0
        var width: Float = 0
        var height: Float = 0
        var message = [CChar](repeating: 0, count: 256)
        let bytes = Array(barcode.data.utf8)
        let status = folio_barcode_encode(
            symbology, bytes, Int32(clamping: bytes.count), &rects, &count, &width, &height, &message, message.count)
        if status == FOLIO_BARCODE_NO_LIBRARY {
            throw FolioError(
                path: path, "drawing a barcode needs libzint (libzint.so.2.11), which could not be loaded (Debian: apt install libzint2.11)"
            )
        }
        guard status == 0, let rects else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw FolioError(
                path: "\(path).data",
                "the data cannot be encoded in \(barcode.symbology.article) \(barcode.symbology.displayName): \(BarcodeSymbol.plain(reason))"
            )
        }
        defer { folio_barcode_free(rects) }
        self.width = Double(width)
        self.height = Double(height)
        rectangles = (0..<count).map {
            Rect(x: Double(rects[$0].x), y: Double(rects[$0].y), width: Double(rects[$0].width), height: Double(rects[$0].height))
        }
    }

    /// zint's message without its error number (`Error 800: …`).
    private static func plain(_ reason: String) -> String {
        guard let colon = reason.firstIndex(of: ":"), reason.hasPrefix("Error ") || reason.hasPrefix("Warning ") else { return reason }
        return reason[reason.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }

    /// The symbol drawn `width` points wide (its height in proportion) in `color` on a white ground,
    /// as rectangles: the same drawing for the PDF and the HTML.
    package func drawing(width: Double, color: Color, description: String) -> Drawing {
        drawing(width: width, height: height * width / max(self.width, 1), color: color, description: description)
    }

    /// The symbol drawn `width` by `height` points: bars may be shorter than their proportion (a
    /// one-dimensional code reads along its width), so a label fits a page's margin.
    package func drawing(width: Double, height shownHeight: Double, color: Color, description: String) -> Drawing {
        let scaleX = width / max(self.width, 1)
        let scaleY = shownHeight / max(height, 1)
        let canvas = RecordingCanvas()
        canvas.rect(Rect(x: 0, y: 0, width: width, height: shownHeight), color: .white)
        for rect in rectangles {
            canvas.rect(
                Rect(x: rect.x * scaleX, y: rect.y * scaleY, width: rect.width * scaleX, height: rect.height * scaleY), color: color)
        }
        return canvas.drawing(size: Size(width, shownHeight), description: description)
    }

    /// The drawing of a small label in a page's header or footer: matrix codes 24 pt square, PDF417
    /// 110 pt wide in proportion (at most 28 pt high), bars 120 pt wide and 16 pt high.
    package func label(for symbology: Barcode.Symbology) -> Drawing {
        switch symbology {
        case .qr, .datamatrix: return drawing(width: 24, height: 24, color: .black, description: "")
        case .pdf417:
            let height = min(28, 110 * self.height / max(self.width, 1))
            return drawing(width: height * self.width / max(self.height, 1), height: height, color: .black, description: "")
        case .code128, .ean13: return drawing(width: 120, height: 16, color: .black, description: "")
        }
    }
}
