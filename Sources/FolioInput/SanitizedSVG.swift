import FolioGraphics
import FolioModel
import Foundation

/// An SVG picture reduced to drawing: allow-listed elements and presentation attributes only,
/// references only inside the picture, ids renamed per use. Both outputs draw this markup:
/// librsvg in the PDF, the browser in HTML.
package struct SanitizedSVG: Sendable, Hashable {
    /// One kept element or text.
    package indirect enum Node: Sendable, Hashable {
        case element(name: String, attributes: [Attribute], children: [Node])
        case text(String)
    }

    /// One kept attribute, its value checked.
    package struct Attribute: Sendable, Hashable {
        /// The attribute's name, from the allow-list.
        package let name: String
        /// Its checked value, escaped when written.
        package let value: String

        /// An attribute `name="value"`.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The `<svg>` element.
    package let root: Node
    /// The picture's own size in points (CSS pixels × 0.75), from its width and height or its viewBox.
    package let size: Size

    /// The markup, with every id and reference prefixed by `idPrefix` (unique in an HTML page) and
    /// the root sized `width` × `height` (CSS pixels) when given. Text and attribute values are
    /// escaped; element and attribute names come from the allow-list.
    /// `fontFamily` is the text's font where the picture names none, so both outputs agree.
    package func markup(
        idPrefix: String, width: Double? = nil, height: Double? = nil, fontFamily: String? = nil,
        rootAttributes: [Attribute] = []
    ) -> String {
        var rootAttributes = rootAttributes
        if let fontFamily, case .element(_, let attributes, _) = root, !attributes.contains(where: { $0.name == "font-family" }) {
            rootAttributes.append(Attribute(name: "font-family", value: fontFamily + ", sans-serif"))
        }
        var out = ""
        out.reserveCapacity(4096)
        write(root, into: &out, prefix: idPrefix, isRoot: true, width: width, height: height, extra: rootAttributes)
        return out
    }

    private func write(
        _ node: Node, into out: inout String, prefix: String, isRoot: Bool, width: Double?, height: Double?, extra: [Attribute]
    ) {
        switch node {
        case .text(let text):
            MarkupEscaping.escape(text, into: &out)
        case .element(let name, let attributes, let children):
            out += "<" + name
            if isRoot { out += " xmlns=\"http://www.w3.org/2000/svg\"" }
            for attribute in attributes {
                if isRoot && (attribute.name == "width" || attribute.name == "height") && (width != nil || height != nil) { continue }
                out += " " + attribute.name + "=\""
                MarkupEscaping.escape(SanitizedSVG.prefixed(attribute, prefix), into: &out)
                out += "\""
            }
            if isRoot {
                // Without a viewBox a resized picture would be cut instead of scaled.
                if !attributes.contains(where: { $0.name == "viewBox" }) {
                    out += " viewBox=\"0 0 \(SVGNumber.text(size.width / 0.75)) \(SVGNumber.text(size.height / 0.75))\""
                }
                if let width { out += " width=\"\(SVGNumber.text(width))\"" }
                if let height { out += " height=\"\(SVGNumber.text(height))\"" }
                for attribute in extra {
                    out += " " + attribute.name + "=\""
                    MarkupEscaping.escape(attribute.value, into: &out)
                    out += "\""
                }
            }
            guard !children.isEmpty else {
                out += "/>"
                return
            }
            out += ">"
            for child in children { write(child, into: &out, prefix: prefix, isRoot: false, width: nil, height: nil, extra: []) }
            out += "</" + name + ">"
        }
    }

    /// `value` of `attribute` with its id or references renamed into the `prefix` namespace.
    private static func prefixed(_ attribute: Attribute, _ prefix: String) -> String {
        switch attribute.name {
        case "id": return prefix + "-" + attribute.value
        case "href": return "#" + prefix + "-" + attribute.value.dropFirst()
        default:
            guard attribute.value.contains("url(#") else { return attribute.value }
            return attribute.value.replacingOccurrences(of: "url(#", with: "url(#" + prefix + "-")
        }
    }
}

extension SanitizedSVG {
    /// Parses `data` as SVG and keeps only what draws. Throws a `FolioError` at `path` for markup
    /// that is not UTF-8, not well-formed XML, has a DTD or entities, is not an `<svg>`, is over the
    /// limits, or would draw more than the drawing libraries can take (`SVGDrawingBudget`) when
    /// shown `width` points wide (nil: its own size) in a column `columnWidth` wide.
    package static func sanitize(
        _ data: Data, path: String, width: Double? = nil, columnWidth: Double = InputLimits.length
    ) throws -> SanitizedSVG {
        if data.count > InputLimits.svgBytes {
            throw FolioError(path: path, "the SVG is \(data.count) bytes; at most \(InputLimits.svgBytes) are allowed")
        }
        let markup = try checkedMarkup(data, path: path)
        let tree = SVGTreeReader()
        guard let reader = XMLEventReader(handler: tree) else { throw FolioError(path: path, "out of memory reading the SVG") }
        let parsed = reader.read(markup)
        if let failure = tree.failure { throw FolioError(path: path, failure) }
        guard parsed else {
            throw FolioError(path: path, "not well-formed SVG (XML) near line \(reader.lineNumber), column \(reader.columnNumber)")
        }
        guard let root = tree.root else { throw FolioError(path: path, "the markup must be one <svg> element") }
        guard case .element("svg", let attributes, _) = root else {
            throw FolioError(path: path, "the markup must be one <svg> element")
        }
        let size = intrinsicSize(attributes)
        // The picture is shown at its own width, or at the width asked for, never wider than its column.
        let drawScale = Swift.max(Swift.min(width ?? size.width, columnWidth), 0) / size.width
        try SVGDrawingBudget.check(root, size: size, drawScale: drawScale, path: path)
        return SanitizedSVG(root: root, size: size)
    }

    /// The markup the XML parser reads: UTF-8 only (with or without its byte-order mark; an XML
    /// declaration may name UTF-8 or ASCII and nothing else), every `<!…>` declaration outside
    /// comments and CDATA refused (no DTD means no entity expansion and no external entities,
    /// whatever the parser's defaults, and no declaration can hide in another encoding such as
    /// UTF-7 or UTF-16 that the check would not read), and every processing instruction
    /// (`<?…?>`, the XML declaration too) left out: they draw nothing (and FoundationXML, the parser
    /// before Expat, crashed on one without data, `<?x?>`, found by the fuzzer).
    private static func checkedMarkup(_ data: Data, path: String) throws -> [UInt8] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let notUTF8 = "the SVG must be UTF-8 text"
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.contains(0) {
            throw FolioError(path: path, "\(notUTF8); this one is UTF-16 or UTF-32")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FolioError(path: path, "\(notUTF8); it has bytes that are not UTF-8")
        }
        let start = text.drop(while: { $0.isWhitespace })
        guard start.hasPrefix("<") else { throw FolioError(path: path, "the markup must be one <svg> element") }
        if start.hasPrefix("<?xml") {
            let declaration = start.prefix(while: { $0 != ">" })
            if let named = declaredEncoding(declaration) {
                guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(named.lowercased()) else {
                    throw FolioError(path: path, "\(notUTF8); its XML declaration names \(named)")
                }
            }
        }
        let utf8 = Array(text.utf8)
        var kept: [UInt8] = []
        kept.reserveCapacity(utf8.count)
        var keptUpTo = 0
        var index = 0
        func starts(_ prefix: String, at position: Int) -> Bool {
            let p = Array(prefix.utf8)
            return position + p.count <= utf8.count && Array(utf8[position..<(position + p.count)]) == p
        }
        func skip(past end: String, from position: Int) -> Int {
            let e = Array(end.utf8)
            var i = position
            while i + e.count <= utf8.count {
                if utf8[i] == e[0] && Array(utf8[i..<(i + e.count)]) == e { return i + e.count }
                i += 1
            }
            return utf8.count
        }
        while index < utf8.count {
            guard utf8[index] == UInt8(ascii: "<"), index + 1 < utf8.count,
                utf8[index + 1] == UInt8(ascii: "!") || utf8[index + 1] == UInt8(ascii: "?")
            else {
                index += 1
                continue
            }
            if starts("<?", at: index) {
                let end = skip(past: "?>", from: index + 2)
                guard end <= utf8.count, starts("?>", at: end - 2), end - 2 >= index + 2 else {
                    throw FolioError(path: path, "not well-formed SVG (XML): a <? processing instruction is not closed with ?>")
                }
                kept += utf8[keptUpTo..<index]
                keptUpTo = end
                index = end
            } else if starts("<!--", at: index) {
                index = skip(past: "-->", from: index + 4)
            } else if starts("<![CDATA[", at: index) {
                index = skip(past: "]]>", from: index + 9)
            } else {
                throw FolioError(path: path, "SVG with a DTD or entities is not accepted; remove the <!DOCTYPE …> line")
            }
        }
        guard keptUpTo > 0 else { return utf8 }
        kept += utf8[keptUpTo...]
        return kept
    }

    /// The encoding an XML declaration names (`encoding = "…"`, either quote; the first such
    /// pseudo-attribute), or nil when it names none.
    static func declaredEncoding(_ declaration: Substring) -> Substring? {
        var rest = declaration[...]
        while let found = rest.range(of: "encoding") {
            rest = rest[found.upperBound...]
            var text = rest.drop(while: { $0.isWhitespace })
            guard text.first == "=" else { continue }
            text = text.dropFirst().drop(while: { $0.isWhitespace })
            guard let quote = text.first, quote == "\"" || quote == "'" else { continue }
            let value = text.dropFirst()
            guard let end = value.firstIndex(where: { $0 == "\"" || $0 == "'" }) else { continue }
            return value[..<end]
        }
        return nil
    }

    /// Width and height in points: the root's absolute width and height, else its viewBox, else 300 × 150.
    private static func intrinsicSize(_ attributes: [Attribute]) -> Size {
        func value(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
        let box = value("viewBox").map {
            $0.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
        }
        let boxSize = box.flatMap { $0.count == 4 && $0[2] > 0 && $0[3] > 0 ? ($0[2], $0[3]) : nil }
        var width = value("width").flatMap(cssPixels)
        var height = value("height").flatMap(cssPixels)
        if let (w, h) = boxSize {
            if width == nil, let height { width = height * w / h }
            if height == nil, let width { height = width * h / w }
        }
        let w = width ?? boxSize?.0 ?? 300
        let h = height ?? boxSize?.1 ?? 150
        let limit = InputLimits.length / 0.75
        return Size(Swift.min(Swift.max(w, 1), limit) * 0.75, Swift.min(Swift.max(h, 1), limit) * 0.75)
    }

    /// An absolute SVG length in CSS pixels (`12`, `12px`, `9pt`, `2cm`, `20mm`, `1in`); nil for percentages.
    private static func cssPixels(_ text: String) -> Double? {
        let units: [(String, Double)] = [("px", 1), ("pt", 4.0 / 3), ("pc", 16), ("mm", 96 / 25.4), ("cm", 96 / 2.54), ("in", 96)]
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for (unit, factor) in units where trimmed.hasSuffix(unit) {
            return Double(trimmed.dropLast(unit.count)).flatMap { $0.isFinite && $0 > 0 ? $0 * factor : nil }
        }
        return Double(trimmed).flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    }
}

/// Builds the sanitised tree from the parser's events, dropping what does not draw.
private final class SVGTreeReader: XMLEventHandler {
    /// Elements kept; the rest are dropped with everything inside them.
    static let elements: Set<String> = [
        "svg", "g", "defs", "symbol", "use", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
        "text", "tspan", "textPath", "title", "desc", "linearGradient", "radialGradient", "stop", "clipPath", "mask",
        "pattern", "marker",
    ]
    /// Elements whose text is kept.
    static let textElements: Set<String> = ["text", "tspan", "textPath", "title", "desc"]
    /// Geometry and presentation attributes kept.
    static let attributes: Set<String> = [
        "id", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy", "width", "height", "d", "points",
        "transform", "viewBox", "preserveAspectRatio", "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width",
        "stroke-opacity", "stroke-linecap", "stroke-linejoin", "stroke-dasharray", "stroke-dashoffset",
        "stroke-miterlimit", "opacity", "clip-path", "clip-rule", "mask", "color", "display", "visibility",
        "font-family", "font-size", "font-weight", "font-style", "text-anchor", "dominant-baseline", "letter-spacing",
        "word-spacing", "offset", "stop-color", "stop-opacity", "gradientUnits", "gradientTransform", "spreadMethod",
        "patternUnits", "patternContentUnits", "patternTransform", "clipPathUnits", "maskUnits", "maskContentUnits",
        "markerWidth", "markerHeight", "refX", "refY", "orient", "markerUnits", "marker-start", "marker-mid",
        "marker-end", "href", "xlink:href", "dx", "dy", "rotate", "textLength", "lengthAdjust", "vector-effect",
        "shape-rendering", "paint-order", "startOffset",
    ]
    /// Properties of a `style` attribute kept as attributes.
    static let styleProperties: Set<String> = attributes.subtracting([
        "id", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy", "width", "height", "d", "points",
        "transform", "viewBox", "href", "xlink:href",
    ])

    private struct Open {
        let name: String
        var attributes: [SanitizedSVG.Attribute]
        var children: [SanitizedSVG.Node]
    }

    private var stack: [Open] = []
    /// Depth of a dropped element's subtree being skipped; 0 when keeping.
    private var skipping = 0
    private var count = 0
    private(set) var root: SanitizedSVG.Node?
    private(set) var failure: String?

    private func fail(_ message: String, _ reader: XMLEventReader) {
        if failure == nil { failure = message }
        reader.stop()
    }

    func startElement(_ name: String, attributes: [String: String], reader parser: XMLEventReader) {
        if skipping > 0 || !SVGTreeReader.elements.contains(name) || (stack.isEmpty && root != nil) {
            skipping += 1
            return
        }
        count += 1
        if count > InputLimits.svgElements { return fail("the SVG has more than \(InputLimits.svgElements) elements", parser) }
        if stack.count >= InputLimits.svgDepth { return fail("the SVG nests elements deeper than \(InputLimits.svgDepth)", parser) }
        var kept: [String: String] = [:]
        for (key, value) in attributes where SVGTreeReader.attributes.contains(key) {
            // SVG 2's plain href: an xlink:href would need a namespace declaration in the XML librsvg reads.
            let name = key == "xlink:href" ? "href" : key
            if let safe = SVGTreeReader.checked(name, value), kept[name] == nil || key == "href" { kept[name] = safe }
        }
        // A style attribute's drawing properties become attributes (a `style` could carry url(…) to anywhere).
        if let style = attributes["style"] {
            for declaration in style.split(separator: ";") {
                let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, SVGTreeReader.styleProperties.contains(parts[0]), kept[parts[0]] == nil,
                    let safe = SVGTreeReader.checked(parts[0], parts[1])
                else { continue }
                kept[parts[0]] = safe
            }
        }
        let ordered = kept.keys.sorted().map { SanitizedSVG.Attribute(name: $0, value: kept[$0] ?? "") }
        stack.append(Open(name: name, attributes: ordered, children: []))
    }

    func endElement(_ name: String, reader parser: XMLEventReader) {
        if skipping > 0 {
            skipping -= 1
            return
        }
        guard let open = stack.popLast(), open.name == name else {
            return fail("not well-formed SVG (XML) near line \(parser.lineNumber): </\(name)> closes no open element", parser)
        }
        let node = SanitizedSVG.Node.element(name: open.name, attributes: open.attributes, children: open.children)
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    // A DTD never gets this far (`checkedMarkup`); should one, it is refused here too.
    func declaration(reader: XMLEventReader) {
        fail("SVG with a DTD or entities is not accepted; remove the <!DOCTYPE …> line", reader)
    }

    func characters(_ string: String, reader: XMLEventReader) {
        guard skipping == 0, let top = stack.last, SVGTreeReader.textElements.contains(top.name) else { return }
        if case .text(let previous)? = top.children.last {
            stack[stack.count - 1].children[top.children.count - 1] = .text(previous + string)
        } else {
            stack[stack.count - 1].children.append(.text(string))
        }
    }

    /// `value` when it is safe for `name`: references only to ids in the picture, no scheme, no escapes.
    static func checked(_ name: String, _ value: String) -> String? {
        let lowered = value.lowercased()
        if name == "href" || name == "xlink:href" {
            // Only a reference into the picture: `#id` of a plain name.
            guard value.hasPrefix("#"), value.count > 1, value.dropFirst().allSatisfy(isNameCharacter) else { return nil }
            return value
        }
        if name == "id" { return !value.isEmpty && value.allSatisfy(isNameCharacter) ? value : nil }
        var value = value
        if lowered.contains("url(") {
            // url(#name) only, written one way so ids can be renamed; anything else could load a resource.
            value = normalizedLocalReferences(value)
            if value.lowercased().components(separatedBy: "url(").count != value.components(separatedBy: "url(#").count {
                return nil
            }
        }
        if lowered.contains("javascript:") || lowered.contains("expression(") || value.contains("\\") || value.contains("<") {
            return nil
        }
        // Values that decide how large things are drawn are kept only when they can be measured
        // (`SVGDrawingBudget`): what was checked is what librsvg and browsers draw.
        if SVGTreeReader.transforms.contains(name) { return SVGValues.transform(value) == nil ? nil : value }
        if name == "font-size" {
            let isKeyword =
                SVGValues.fontSizeKeywords[lowered.trimmingCharacters(in: .whitespaces)] != nil
                || ["larger", "smaller"].contains(lowered.trimmingCharacters(in: .whitespaces))
            return isKeyword || SVGValues.length(value) != nil ? value : nil
        }
        if SVGTreeReader.sizes.contains(name) { return SVGValues.length(value) == nil ? nil : value }
        if name == "viewBox" { return SVGValues.numbers(Substring(value))?.count == 4 ? value : nil }
        return value.utf8.count <= InputLimits.svgBytes ? value : nil
    }

    /// `value` with every reference into the picture, `url(#name)` however it is written (any case,
    /// quotes, spaces: `URL( '#name' )`), written `url(#name)`; the rest as it is.
    static func normalizedLocalReferences(_ value: String) -> String {
        let scalars = Array(value.unicodeScalars)
        func isSpace(_ index: Int) -> Bool { index < scalars.count && scalars[index].hasWhiteSpaceProperty }
        func isQuote(_ index: Int) -> Bool { index < scalars.count && (scalars[index] == "'" || scalars[index] == "\"") }
        func isNameScalar(_ index: Int) -> Bool {
            guard index < scalars.count, scalars[index].isASCII else { return false }
            let scalar = scalars[index]
            return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "." || scalar == "-"
        }
        /// Whether `url(`, in any case, starts at `index`.
        func startsURL(_ index: Int) -> Bool {
            guard index + 4 <= scalars.count else { return false }
            // ASCII letters in either case; the parenthesis as it is.
            return zip(scalars[index..<(index + 4)], "url(".unicodeScalars).allSatisfy { scalar, expected in
                scalar == expected || (expected.properties.isLowercase && scalar.value == expected.value - 32)
            }
        }
        /// The end of a local reference starting at `start` (just after `url(`) and its name, or nil.
        func reference(from start: Int) -> (end: Int, name: String)? {
            var index = start
            while isSpace(index) { index += 1 }
            if isQuote(index) { index += 1 }
            while isSpace(index) { index += 1 }
            guard index < scalars.count, scalars[index] == "#" else { return nil }
            index += 1
            let nameStart = index
            while isNameScalar(index) { index += 1 }
            guard index > nameStart else { return nil }
            var name = String.UnicodeScalarView()
            name.append(contentsOf: scalars[nameStart..<index])
            while isSpace(index) { index += 1 }
            if isQuote(index) { index += 1 }
            while isSpace(index) { index += 1 }
            guard index < scalars.count, scalars[index] == ")" else { return nil }
            return (index + 1, String(name))
        }
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if startsURL(index), let found = reference(from: index + 4) {
                out.append(contentsOf: "url(#\(found.name))".unicodeScalars)
                index = found.end
            } else {
                out.append(scalars[index])
                index += 1
            }
        }
        return String(out)
    }

    /// Attributes holding a transform list.
    static let transforms: Set<String> = ["transform", "gradientTransform", "patternTransform"]
    /// Attributes holding one length that scales what is drawn (viewports, markers, strokes).
    static let sizes: Set<String> = ["width", "height", "stroke-width", "markerWidth", "markerHeight"]

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_" || character == ".")
    }
}
