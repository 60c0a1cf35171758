import Foundation
import FolioGraphics
import FolioModel

/// The `Canvas` protocol written as SVG elements, with numbers at fixed precision
/// so equal drawings give equal bytes.
public final class SVGCanvas: Canvas {
    public private(set) var body = ""

    public init() {}

    /// `value` to two decimals without trailing zeros, by integer arithmetic (fast and locale-free).
    static func number(_ value: Double) -> String {
        let scaled = (value * 100).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { return "0" }
        var hundredths = Int(scaled)
        guard hundredths != 0 else { return "0" }
        var text = hundredths < 0 ? "-" : ""
        hundredths = abs(hundredths)
        text += String(hundredths / 100)
        let fraction = hundredths % 100
        if fraction != 0 {
            text += fraction % 10 == 0 ? "." + String(fraction / 10) : (fraction < 10 ? ".0" : ".") + String(fraction)
        }
        return text
    }

    /// `#RRGGBB`; transparency goes into a separate opacity attribute.
    private static func color(_ color: Color) -> String { color.withAlpha(1).hex }

    private static func opacity(_ color: Color, _ name: String) -> String {
        color.alpha < 1 ? " \(name)=\"\(number(color.alpha))\"" : ""
    }

    /// The SVG path data of `path`; arcs become elliptical-arc commands.
    static func pathData(_ path: Path) -> String {
        var d = ""
        var current: Point?
        func point(_ p: Point) -> String { "\(number(p.x)) \(number(p.y))" }
        for element in path.elements {
            switch element {
            case .move(let p): d += "M\(point(p))"; current = p
            case .line(let p): d += "L\(point(p))"; current = p
            case .curve(let c1, let c2, let p): d += "C\(point(c1)) \(point(c2)) \(point(p))"; current = p
            case .arc(let center, let radius, let start, let end):
                func at(_ angle: Double) -> Point {
                    Point(center.x + radius * cos(angle), center.y + radius * sin(angle))
                }
                let begin = at(start)
                d += current == nil ? "M\(point(begin))" : "L\(point(begin))"
                let sweep = end >= start ? 1 : 0
                let total = end - start
                // Split into pieces under 180° so each SVG arc is unambiguous.
                let pieces = max(1, Int((abs(total) / .pi).rounded(.up)))
                for index in 1...pieces {
                    let to = start + total * Double(index) / Double(pieces)
                    d += "A\(number(radius)) \(number(radius)) 0 0 \(sweep) \(point(at(to)))"
                }
                current = at(end)
            case .close: d += "Z"
            }
        }
        return d
    }

    public func fill(_ path: Path, color: Color) {
        body += "<path d=\"\(SVGCanvas.pathData(path))\" fill=\"\(SVGCanvas.color(color))\"\(SVGCanvas.opacity(color, "fill-opacity"))/>"
    }

    public func rect(_ r: Rect, color: Color) {
        body += "<rect x=\"\(SVGCanvas.number(r.x))\" y=\"\(SVGCanvas.number(r.y))\" width=\"\(SVGCanvas.number(r.width))\" height=\"\(SVGCanvas.number(r.height))\" fill=\"\(SVGCanvas.color(color))\"\(SVGCanvas.opacity(color, "fill-opacity"))/>"
    }

    public func stroke(_ path: Path, style: StrokeStyle) {
        var attributes = "fill=\"none\" stroke=\"\(SVGCanvas.color(style.color))\" stroke-width=\"\(SVGCanvas.number(style.width))\""
        attributes += SVGCanvas.opacity(style.color, "stroke-opacity")
        if !style.dash.isEmpty { attributes += " stroke-dasharray=\"\(style.dash.map(SVGCanvas.number).joined(separator: " "))\"" }
        switch style.cap {
        case .butt: break
        case .round: attributes += " stroke-linecap=\"round\""
        case .square: attributes += " stroke-linecap=\"square\""
        }
        body += "<path d=\"\(SVGCanvas.pathData(path))\" \(attributes)/>"
    }

    public func draw(text item: TextItem) {
        let x = SVGCanvas.number(item.origin.x)
        let y = SVGCanvas.number(item.origin.y + item.metrics.baseline)
        var attributes = "x=\"\(x)\" y=\"\(y)\" font-size=\"\(SVGCanvas.number(item.font.size))\""
        if item.font.bold { attributes += " font-weight=\"bold\"" }
        if item.font.italic { attributes += " font-style=\"italic\"" }
        attributes += " fill=\"\(SVGCanvas.color(item.color))\""
        if item.rotation != 0 {
            attributes += " transform=\"rotate(\(SVGCanvas.number(item.rotation)) \(SVGCanvas.number(item.origin.x)) \(SVGCanvas.number(item.origin.y)))\""
        }
        body += "<text \(attributes)>\(HTMLEscaping.escape(item.text))</text>"
    }

    public func draw(image: ImageData, in rect: Rect) {
        body += "<image x=\"\(SVGCanvas.number(rect.x))\" y=\"\(SVGCanvas.number(rect.y))\" width=\"\(SVGCanvas.number(rect.width))\" height=\"\(SVGCanvas.number(rect.height))\" href=\"\(image.dataURI)\"/>"
    }

    public func beginGroup(label: String) { body += "<g>" }
    public func endGroup() { body += "</g>" }

    /// A complete `<svg>` element for `drawing`, labelled by its title and description.
    public static func svg(_ drawing: Drawing, id: String, title: String, fontFamily: String) -> String {
        let canvas = SVGCanvas()
        drawing.replay(on: canvas)
        let w = number(drawing.size.width), h = number(drawing.size.height)
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(w) \(h)\" width=\"\(w)\" height=\"\(h)\""
            + " role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\""
            + " font-family=\"\(HTMLEscaping.escape(fontFamily)), sans-serif\">"
            + "<title id=\"\(id)-title\">\(HTMLEscaping.escape(title))</title>"
            + "<desc id=\"\(id)-desc\">\(HTMLEscaping.escape(drawing.description))</desc>"
            + canvas.body + "</svg>"
    }
}
