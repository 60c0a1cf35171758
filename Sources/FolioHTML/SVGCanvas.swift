import FolioGraphics
import FolioModel
import Foundation

/// The `Canvas` protocol written as SVG elements through the `HTML` type, so every
/// text is escaped and numbers have fixed precision: equal drawings give equal bytes.
package final class SVGCanvas: Canvas {
    /// The elements drawn so far.
    var body = HTML()
    /// The start of the ids of clip paths: the id of the drawing's `<svg>`, unique in its page.
    private let idPrefix: String
    /// Clip paths made so far.
    private var clipCount = 0

    /// An empty canvas whose clip-path ids start with `idPrefix`.
    package init(idPrefix: String = "folio") { self.idPrefix = idPrefix }

    /// The markup drawn so far.
    package var markup: String { body.markup }

    /// `value` to two decimals without trailing zeros.
    static func number(_ value: Double) -> String { SVGNumber.text(value) }

    /// A `fill-opacity` or `stroke-opacity` attribute when `color` is not opaque.
    private static func opacity(_ color: Color, stroke: Bool) -> HTML {
        guard color.alpha < 1 else { return "" }
        return stroke ? " stroke-opacity=\"\(number: color.alpha)\"" : " fill-opacity=\"\(number: color.alpha)\""
    }

    /// The SVG path data of `path` (numbers and command letters only).
    static func pathData(_ path: Path) -> HTML { "\(path: path)" }

    /// Fills `path` with `color`.
    package func fill(_ path: Path, color: Color) {
        body += "<path d=\"\(path: path)\" fill=\"\(color)\"\(SVGCanvas.opacity(color, stroke: false))/>"
    }

    /// Fills the rectangle `r` with `color`.
    package func rect(_ r: Rect, color: Color) {
        body += "<rect x=\"\(number: r.x)\" y=\"\(number: r.y)\" width=\"\(number: r.width)\" height=\"\(number: r.height)\""
        body += " fill=\"\(color)\"\(SVGCanvas.opacity(color, stroke: false))/>"
    }

    /// The stroke attributes of `style`.
    private static func strokeAttributes(_ style: StrokeStyle) -> HTML {
        var attributes: HTML = "fill=\"none\" stroke=\"\(style.color)\" stroke-width=\"\(number: style.width)\""
        attributes += SVGCanvas.opacity(style.color, stroke: true)
        if !style.dash.isEmpty {
            attributes += " stroke-dasharray=\"\(HTML.joined(style.dash.map { "\(number: $0)" }, separator: " "))\""
        }
        switch style.cap {
        case .butt: break
        case .round: attributes += " stroke-linecap=\"round\""
        case .square: attributes += " stroke-linecap=\"square\""
        }
        return attributes
    }

    /// Strokes `path` with `style`.
    package func stroke(_ path: Path, style: StrokeStyle) {
        body += "<path d=\"\(path: path)\" \(SVGCanvas.strokeAttributes(style))/>"
    }

    /// A `<line>` from `a` to `b`.
    package func line(from a: Point, to b: Point, style: StrokeStyle) {
        body += "<line x1=\"\(number: a.x)\" y1=\"\(number: a.y)\" x2=\"\(number: b.x)\" y2=\"\(number: b.y)\""
        body += " \(SVGCanvas.strokeAttributes(style))/>"
    }

    /// A stroked arc as a path of elliptical-arc (`A`) commands.
    package func arc(center: Point, radius: Double, start: Double, end: Double, style: StrokeStyle) {
        var path = Path()
        path.arc(center: center, radius: radius, start: start, end: end)
        stroke(path, style: style)
    }

    /// Writes one text item as an escaped `<text>`.
    package func draw(text item: TextItem) {
        var attributes: HTML = "x=\"\(number: item.origin.x)\" y=\"\(number: item.origin.y + item.metrics.baseline)\""
        attributes += " font-size=\"\(number: item.font.size)\""
        if item.font.bold { attributes += " font-weight=\"bold\"" }
        if item.font.italic { attributes += " font-style=\"italic\"" }
        attributes += " fill=\"\(item.color)\"\(SVGCanvas.opacity(item.color, stroke: false))"
        if item.rotation != 0 {
            attributes += " transform=\"rotate(\(number: item.rotation) \(number: item.origin.x) \(number: item.origin.y))\""
        }
        body += "<text \(attributes)>\(item.text)</text>"
    }

    /// Embeds `image` as a data URI filling `rect`.
    package func draw(image: ImageData, in rect: Rect) {
        body += "<image x=\"\(number: rect.x)\" y=\"\(number: rect.y)\" width=\"\(number: rect.width)\""
        body += " height=\"\(number: rect.height)\" href=\"\(dataURI: image)\"/>"
    }

    /// Opens a group (`<g>`).
    package func beginGroup() { body += "<g>" }
    /// Closes the last group.
    package func endGroup() { body += "</g>" }
    /// Opens a group clipped to `rect` by a `<clipPath>` whose id is the drawing's id and a number.
    package func beginClip(_ rect: Rect) {
        clipCount += 1
        let id = "\(idPrefix)-clip\(clipCount)"
        body += "<clipPath id=\"\(id)\"><rect x=\"\(number: rect.x)\" y=\"\(number: rect.y)\" width=\"\(number: rect.width)\""
        body += " height=\"\(number: rect.height)\"/></clipPath><g clip-path=\"url(#\(id))\">"
    }
    /// Closes the clipped group.
    package func endClip() { body += "</g>" }

    /// A complete `<svg>` element for `drawing`, labelled by its title and description, of class `className`.
    /// With `inPoints`, the drawing's units are points, shown at their physical size (a barcode: 4/3 CSS
    /// pixels each, so `width: 3cm` is 3 cm in print); without, they are CSS pixels (a chart laid out for the screen).
    static func svg(
        _ drawing: Drawing, id: String, title: String, fontFamily: String, className: String? = nil, inPoints: Bool = false
    ) -> HTML {
        let canvas = SVGCanvas(idPrefix: id)
        drawing.replay(on: canvas)
        let w = drawing.size.width
        let h = drawing.size.height
        let scale = inPoints ? 4.0 / 3.0 : 1
        let classAttribute: HTML = className.map { " class=\"\($0)\"" } ?? ""
        return
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(number: w) \(number: h)\"\(classAttribute) width=\"\(number: w * scale)\""
            + " height=\"\(number: h * scale)\" role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\""
            + " font-family=\"\(fontFamily), sans-serif\">"
            + "<title id=\"\(id)-title\">\(title)</title>"
            + "<desc id=\"\(id)-desc\">\(drawing.description)</desc>"
            + canvas.body + "</svg>"
    }

    /// The markup of a complete `<svg>` element for `drawing` (for benchmarks and tests).
    package static func svgMarkup(_ drawing: Drawing, id: String, title: String, fontFamily: String) -> String {
        svg(drawing, id: id, title: title, fontFamily: fontFamily).markup
    }
}

extension HTML.StringInterpolation {
    /// SVG path data written straight into the markup: command letters and numbers only, so
    /// nothing in it needs escaping. Arcs become elliptical-arc commands of under 180° each.
    mutating func appendInterpolation(path: Path) {
        // Written as bytes and turned into text once: a line of thousands of points would
        // otherwise make a string per number.
        var data: [UInt8] = []
        data.reserveCapacity(path.elements.count * 14)
        var current: Point?
        func letter(_ character: Unicode.Scalar) { data.append(UInt8(ascii: character)) }
        func point(_ p: Point) {
            SVGNumber.write(p.x, into: &data)
            letter(" ")
            SVGNumber.write(p.y, into: &data)
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                letter("M")
                point(p)
                current = p
            case .line(let p):
                letter("L")
                point(p)
                current = p
            case .curve(let c1, let c2, let p):
                letter("C")
                point(c1)
                letter(" ")
                point(c2)
                letter(" ")
                point(p)
                current = p
            case .arc(let center, let radius, let start, let end):
                func at(_ angle: Double) -> Point {
                    Point(center.x + radius * cos(angle), center.y + radius * sin(angle))
                }
                letter(current == nil ? "M" : "L")
                point(at(start))
                let total = end - start
                // Split into pieces under 180° so each SVG arc is unambiguous (at most a few turns).
                let pieces = min(max(1, (abs(total) / .pi).clampedInt(.up)), 64)
                for index in 1...pieces {
                    letter("A")
                    SVGNumber.write(radius, into: &data)
                    letter(" ")
                    SVGNumber.write(radius, into: &data)
                    data += Array(" 0 0 ".utf8)
                    letter(end >= start ? "1" : "0")
                    letter(" ")
                    point(at(start + total * Double(index) / Double(pieces)))
                }
                current = at(end)
            case .close: letter("Z")
            }
        }
        markup += String(decoding: data, as: UTF8.self)
    }
}
