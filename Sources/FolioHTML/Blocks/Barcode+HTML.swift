import FolioGraphics
import FolioInput
import FolioModel

extension Barcode: HTMLBlock {
    /// A figure with the symbol as inline SVG rectangles (the PDF's drawing), its text alternative as
    /// the SVG's title, and its caption.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        let symbol = try BarcodeSymbol(self, path: path)
        let drawing = symbol.drawing(width: shownWidth, color: .black, description: "")
        // At its own width, as in the PDF (a scanner needs whole modules, not a column-wide stretch),
        // with sharp module edges on screens.
        writer.style.add("barcode") { r in
            "\(r) .folio-barcode>svg{width:auto;max-width:100%;height:auto;margin:0 auto;shape-rendering:crispEdges}"
        }
        var html: HTML = "<figure class=\"folio-barcode\">"
        html += SVGCanvas.svg(
            drawing, id: writer.ids.next("barcode"), title: textAlternative, fontFamily: writer.theme.fontFamily, inPoints: true)
        if let caption { html += "<figcaption>\(caption)</figcaption>" }
        return html + "</figure>"
    }
}
