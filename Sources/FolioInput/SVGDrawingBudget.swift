import FolioGraphics
import FolioModel

/// What a sanitised SVG picture asks the drawing libraries to do, checked before any of it reaches
/// them: every element as it is drawn (each `<use>` of a group draws the group again, each marker
/// is drawn at every vertex it marks, a pattern or clip path for every shape it fills or clips),
/// the characters of its texts, and how large each glyph and each element end up once every
/// transform, viewBox, marker scale and the picture's own size on the page are applied.
///
/// librsvg's text layout takes time that grows with the square of a text's words, FreeType and
/// Pango fail on glyphs tens of thousands of points high (librsvg then crashes), and instances
/// multiply through `<use>` and markers; so each of these is bounded here, and a picture over a
/// bound is refused with its field named.
struct SVGDrawingBudget {
    /// Elements drawn, counting each instance.
    static let drawnElements = 50_000
    /// Characters of one `<text>` element (its `<tspan>`s and `<textPath>`s included).
    static let textCharacters = 2_000
    /// Characters of text drawn in one picture, counting each instance.
    static let drawnCharacters = 20_000
    /// The largest glyph drawn, in points on the page.
    static let glyphSize = 10_000.0
    /// The largest glyph size times enlargement: librsvg hands Pango a font size that grows with
    /// the square of the enlargement, and FreeType fails (librsvg then crashes) near 60,000.
    static let enlargedGlyphSize = 20_000.0
    /// The most any element may be enlarged, from its own units to points on the page.
    static let enlargement = 1_000_000.0
    /// References (`<use>`, markers, patterns, clip paths, masks) followed inside one another.
    static let referenceDepth = 16
    /// The font size where the picture sets none, in CSS pixels (browsers' default).
    static let defaultFontSize = 16.0

    typealias Node = SanitizedSVG.Node

    /// The field errors name.
    private let path: String
    /// Elements with an id, by id (the first of several with one id, as browsers and librsvg do).
    private let elements: [String: Node]
    /// The font size each referable element inherits from its ancestors, by id: markers,
    /// patterns, clip paths and masks take their properties from where they are written.
    private let inheritedFontSizes: [String: Double]
    private let rootFontSize: Double
    private var drawn = 0
    private var characters = 0

    /// What is inherited or accumulated on the way down to an element.
    private struct State {
        /// From the element's user units to points on the page.
        var transform: SVGValues.Transform
        /// The font size, in the element's user units.
        var fontSize: Double
        /// The nearest viewport's size, in user units (for percentages).
        var viewport: (Double, Double)
        /// The stroke width, in user units (markers are scaled by it).
        var strokeWidth = 1.0
        /// Markers by property (`marker-start`, `marker-mid`, `marker-end`): inherited.
        var markers: [String: String] = [:]
        /// `fill` and `stroke` paint references: inherited.
        var paints: [String: String] = [:]
        /// Ids of the references being followed, outermost first.
        var references: [String] = []
        /// Inside content whose scale depends on the bounding box of the shape that uses it.
        var boundingBoxScaled = false
    }

    /// Checks `root`, a picture `size` (points) drawn at most `drawScale` times its own size;
    /// throws a `FolioError` at `path` naming the first bound it goes over.
    static func check(_ root: Node, size: Size, drawScale: Double, path: String) throws {
        var elements: [String: Node] = [:]
        var inherited: [String: Double] = [:]
        func index(_ node: Node, fontSize: Double, viewport: (Double, Double)) {
            guard case .element(_, let attributes, let children) = node else { return }
            let own = SVGDrawingBudget.attribute("font-size", attributes)
                .flatMap { SVGValues.fontSize($0, parent: fontSize, root: defaultFontSize, viewport: viewport) }
            if let id = SVGDrawingBudget.attribute("id", attributes), elements[id] == nil {
                elements[id] = node
                inherited[id] = fontSize
            }
            for child in children { index(child, fontSize: own ?? fontSize, viewport: viewport) }
        }
        guard case .element(_, let rootAttributes, _) = root else { return }
        let viewBox = SVGDrawingBudget.viewBox(rootAttributes)
        let cssSize = (size.width / 0.75, size.height / 0.75)
        let viewport = viewBox.map { ($0.2, $0.3) } ?? cssSize
        index(root, fontSize: defaultFontSize, viewport: viewport)
        var transform = SVGValues.Transform.scale(0.75 * drawScale, 0.75 * drawScale)
        if let box = viewBox { transform = transform.concatenating(.scale(cssSize.0 / box.2, cssSize.1 / box.3)) }
        var budget = SVGDrawingBudget(
            path: path, elements: elements, inheritedFontSizes: inherited,
            rootFontSize: SVGDrawingBudget.attribute("font-size", rootAttributes)
                .flatMap { SVGValues.fontSize($0, parent: defaultFontSize, root: defaultFontSize, viewport: viewport) }
                ?? defaultFontSize)
        // The root's own viewBox is applied above; its other attributes as any element's.
        try budget.visit(root, State(transform: transform, fontSize: defaultFontSize, viewport: viewport), isRoot: true)
    }

    private init(path: String, elements: [String: Node], inheritedFontSizes: [String: Double], rootFontSize: Double) {
        self.path = path
        self.elements = elements
        self.inheritedFontSizes = inheritedFontSizes
        self.rootFontSize = rootFontSize
    }

    /// Elements never drawn where they are written, only where something refers to them.
    private static let referencedOnly: Set<String> = [
        "defs", "symbol", "marker", "pattern", "clipPath", "mask", "linearGradient", "radialGradient", "title", "desc",
    ]
    /// Shapes that carry markers.
    private static let markable: Set<String> = ["path", "line", "polyline", "polygon"]
    private static let textContainers: Set<String> = ["text", "tspan", "textPath"]
    /// Elements that fill and stroke themselves (with a pattern, a pattern is drawn for each).
    private static let painted: Set<String> = ["path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text"]

    private func fail(_ message: String) -> FolioError { FolioError(path: path, message) }

    private static func attribute(_ name: String, _ attributes: [SanitizedSVG.Attribute]) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// `x y width height` of a viewBox with a positive size.
    private static func viewBox(_ attributes: [SanitizedSVG.Attribute]) -> (Double, Double, Double, Double)? {
        guard let text = attribute("viewBox", attributes), let n = SVGValues.numbers(Substring(text)), n.count == 4, n[2] > 0, n[3] > 0
        else { return nil }
        return (n[0], n[1], n[2], n[3])
    }

    /// The id a `url(#id)` or `#id` reference names.
    private static func referencedID(_ value: String) -> String? {
        if value.hasPrefix("#") { return String(value.dropFirst()) }
        guard let start = value.range(of: "url(#"), let end = value[start.upperBound...].firstIndex(of: ")") else { return nil }
        return String(value[start.upperBound..<end])
    }

    private mutating func count(_ instances: Int) throws {
        drawn += instances
        if drawn > SVGDrawingBudget.drawnElements {
            throw fail(
                "the picture draws more than \(SVGDrawingBudget.drawnElements) elements, counting each one a <use>, marker or pattern draws again"
            )
        }
    }

    private func checkEnlargement(_ state: State, of name: String) throws {
        let scale = state.transform.largestScale
        guard scale <= SVGDrawingBudget.enlargement else {
            throw fail(
                "a <\(name)> is enlarged \(DecimalText.fixed(scale, decimals: 0)) times by its transforms and viewBox; at most \(DecimalText.fixed(SVGDrawingBudget.enlargement, decimals: 0)) are allowed"
            )
        }
    }

    /// The state inside `node`: its transform, font size, stroke width and inherited references applied.
    private func entering(_ attributes: [SanitizedSVG.Attribute], _ state: State) -> State {
        var state = state
        if let text = SVGDrawingBudget.attribute("transform", attributes), let transform = SVGValues.transform(text) {
            state.transform = state.transform.concatenating(transform)
        }
        if let text = SVGDrawingBudget.attribute("font-size", attributes),
            let size = SVGValues.fontSize(text, parent: state.fontSize, root: rootFontSize, viewport: state.viewport)
        {
            state.fontSize = size
        }
        if let text = SVGDrawingBudget.attribute("stroke-width", attributes), let length = SVGValues.length(text) {
            // Percentages of the viewport's normalised diagonal.
            let diagonal = ((state.viewport.0 * state.viewport.0 + state.viewport.1 * state.viewport.1) / 2).squareRoot()
            state.strokeWidth = abs(
                length.resolved(fontSize: state.fontSize, rootFontSize: rootFontSize, percentBase: diagonal, viewport: state.viewport))
        }
        for property in ["marker-start", "marker-mid", "marker-end", "fill", "stroke"] {
            guard let value = SVGDrawingBudget.attribute(property, attributes) else { continue }
            let reference = SVGDrawingBudget.referencedID(value)
            if property.hasPrefix("marker") { state.markers[property] = reference } else { state.paints[property] = reference }
        }
        return state
    }

    private mutating func visit(_ node: Node, _ outer: State, isRoot: Bool = false) throws {
        switch node {
        case .text(let text):
            try checkText(text, outer)
        case .element(let name, let attributes, let children):
            if !isRoot && SVGDrawingBudget.referencedOnly.contains(name) { return }
            try count(1)
            var state = entering(attributes, outer)
            if name == "svg" && !isRoot { state = nestedViewport(attributes, state, intrinsic: nil) }
            try checkEnlargement(state, of: name)
            if name == "text" { try countCharacters(of: node) }
            if name == "use" { try followUse(attributes, state) }
            if SVGDrawingBudget.markable.contains(name) { try drawMarkers(name, attributes, state) }
            if SVGDrawingBudget.painted.contains(name) {
                for property in ["fill", "stroke"] {
                    if let id = state.paints[property] { try paint(id, state) }
                }
            }
            for property in ["clip-path", "mask"] {
                if let value = SVGDrawingBudget.attribute(property, attributes), let id = SVGDrawingBudget.referencedID(value) {
                    try drawReferenced(id, state, as: property)
                }
            }
            for child in children { try visit(child, state) }
        }
    }

    // MARK: text

    /// The characters of a `<text>` element: bounded per element and over the whole picture.
    private mutating func countCharacters(of text: Node) throws {
        var total = 0
        func add(_ node: Node) {
            switch node {
            case .text(let string): total += string.unicodeScalars.count
            case .element(let name, _, let children):
                guard SVGDrawingBudget.textContainers.contains(name) else { return }
                children.forEach(add)
            }
        }
        add(text)
        if total > SVGDrawingBudget.textCharacters {
            throw fail(
                "a <text> holds \(total) characters; at most \(SVGDrawingBudget.textCharacters) are allowed (put long text in a paragraph)")
        }
        characters += total
        if characters > SVGDrawingBudget.drawnCharacters {
            throw fail(
                "the picture draws more than \(SVGDrawingBudget.drawnCharacters) characters of text, counting each one a <use> draws again")
        }
    }

    /// The glyphs of `text`, drawn in `state`: at most `glyphSize` points high on the page.
    private func checkText(_ text: String, _ state: State) throws {
        guard text.contains(where: { !$0.isWhitespace }) else { return }
        if state.boundingBoxScaled {
            throw fail(
                "text inside a pattern, clip path or mask sized by the shape that uses it (objectBoundingBox units) cannot be checked; use userSpaceOnUse units"
            )
        }
        let scale = state.transform.largestScale
        let size = state.fontSize * scale
        let shown = text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(20)
        guard size <= SVGDrawingBudget.glyphSize else {
            throw fail(
                "the text \"\(shown)\" would be drawn \(DecimalText.fixed(size, decimals: 0)) pt high (its font-size, transforms, viewBox and width together); at most \(DecimalText.fixed(SVGDrawingBudget.glyphSize, decimals: 0)) pt are allowed"
            )
        }
        guard size * Swift.max(1, scale) <= SVGDrawingBudget.enlargedGlyphSize else {
            throw fail(
                "the text \"\(shown)\" is drawn \(DecimalText.fixed(size, decimals: 0)) pt high and enlarged \(DecimalText.fixed(scale, decimals: 0)) times by transforms, viewBox and width, more than the font engine can draw; keep height × enlargement under \(DecimalText.fixed(SVGDrawingBudget.enlargedGlyphSize, decimals: 0))"
            )
        }
    }

    // MARK: references

    /// The referenced element `id`, after checking that following it does not go round in a
    /// circle or too deep.
    private func target(_ id: String, _ state: State) throws -> (node: Node, state: State)? {
        guard let node = elements[id] else { return nil }
        if state.references.contains(id) { throw fail("the picture refers to itself through #\(id)") }
        guard state.references.count < SVGDrawingBudget.referenceDepth else {
            throw fail("references (<use>, markers, patterns) nest more than \(SVGDrawingBudget.referenceDepth) deep")
        }
        var inner = state
        inner.references.append(id)
        return (node, inner)
    }

    /// A `<use>`: its target drawn again, inheriting from the `<use>`, moved and (for a symbol or
    /// an svg with a viewBox) scaled into the `<use>`'s width and height.
    private mutating func followUse(_ attributes: [SanitizedSVG.Attribute], _ state: State) throws {
        guard let href = SVGDrawingBudget.attribute("href", attributes), let id = SVGDrawingBudget.referencedID(href),
            let (node, inner) = try target(id, state), case .element(let name, let targetAttributes, let children) = node
        else { return }
        if name == "symbol" || name == "svg" {
            // The use's width and height (else the target's, else 100%) are the target's viewport.
            try count(1)
            var merged = targetAttributes.filter { $0.name != "width" && $0.name != "height" }
            for size in ["width", "height"] {
                if let value = SVGDrawingBudget.attribute(size, attributes) ?? SVGDrawingBudget.attribute(size, targetAttributes) {
                    merged.append(SanitizedSVG.Attribute(name: size, value: value))
                }
            }
            var state = nestedViewport(merged, entering(targetAttributes, inner), intrinsic: nil)
            try checkEnlargement(state, of: name)
            state.references = inner.references
            for child in children { try visit(child, state) }
        } else {
            try visit(node, inner, isRoot: false)
        }
    }

    /// The state inside a nested viewport (an `<svg>` or a used `<symbol>`): its width and height
    /// (default 100%) hold its viewBox.
    private func nestedViewport(_ attributes: [SanitizedSVG.Attribute], _ state: State, intrinsic: (Double, Double)?) -> State {
        func size(_ name: String, _ base: Double) -> Double {
            guard let text = SVGDrawingBudget.attribute(name, attributes), let length = SVGValues.length(text) else { return base }
            return abs(length.resolved(fontSize: state.fontSize, rootFontSize: rootFontSize, percentBase: base, viewport: state.viewport))
        }
        let width = size("width", state.viewport.0)
        let height = size("height", state.viewport.1)
        var state = state
        if let box = SVGDrawingBudget.viewBox(attributes) {
            state.transform = state.transform.concatenating(.scale(width / box.2, height / box.3))
            state.viewport = (box.2, box.3)
        } else {
            state.viewport = (width, height)
        }
        return state
    }

    /// The markers of a shape: start and end once, mid at every vertex between them, each scaled
    /// by the stroke width (or not, with `markerUnits="userSpaceOnUse"`) and its viewBox.
    private mutating func drawMarkers(_ shape: String, _ attributes: [SanitizedSVG.Attribute], _ state: State) throws {
        guard !state.markers.isEmpty else { return }
        let vertices = SVGDrawingBudget.vertexCount(shape, attributes)
        for (property, times) in [("marker-start", 1), ("marker-mid", max(0, vertices - 2)), ("marker-end", 1)] where times > 0 {
            guard let id = state.markers[property] else { continue }
            let before = (drawn, characters)
            try drawReferenced(id, state, as: "marker")
            // The other vertices draw the same marker at the same scale again.
            let extra = times - 1
            if extra > 0 {
                let (elements, text) = (drawn - before.0, characters - before.1)
                let (elementProduct, elementOverflow) = elements.multipliedReportingOverflow(by: extra)
                try count(elementOverflow ? Int.max / 2 : elementProduct)
                let (textProduct, textOverflow) = text.multipliedReportingOverflow(by: extra)
                characters = textOverflow ? Int.max / 2 : characters + textProduct
                if characters > SVGDrawingBudget.drawnCharacters {
                    throw fail("the picture draws more than \(SVGDrawingBudget.drawnCharacters) characters of text, counting each marker")
                }
            }
        }
    }

    /// How many vertices a shape has (at most: a path's numbers over two).
    private static func vertexCount(_ shape: String, _ attributes: [SanitizedSVG.Attribute]) -> Int {
        switch shape {
        case "line": return 2
        case "polyline", "polygon":
            let numbers = attribute("points", attributes).map { $0.split(whereSeparator: { $0 == " " || $0 == "," }).count } ?? 0
            return numbers / 2 + (shape == "polygon" ? 1 : 0)
        default:
            // Every command letter and every pair of numbers can end a segment.
            guard let data = attribute("d", attributes) else { return 0 }
            var count = 0
            var inNumber = false
            for scalar in data.unicodeScalars {
                let isNumber =
                    ("0"..."9").contains(scalar) || scalar == "." || scalar == "-" || scalar == "+" || scalar == "e" || scalar == "E"
                if isNumber && !inNumber { count += 1 }
                inNumber = isNumber
                if scalar.properties.isAlphabetic && scalar != "e" && scalar != "E" { count += 2 }
            }
            return count / 2 + 1
        }
    }

    /// A paint server used by `fill` or `stroke`: a pattern draws its content for the shape.
    private mutating func paint(_ id: String, _ state: State) throws {
        guard case .element(let name, _, _)? = elements[id] else { return }
        if name == "pattern" { try drawReferenced(id, state, as: "pattern") } else { try count(1) }
    }

    /// The content of a marker, pattern, clip path or mask, drawn for an element in `state`;
    /// it inherits from where it is written, not from the element.
    private mutating func drawReferenced(_ id: String, _ state: State, as kind: String) throws {
        guard let (node, inner) = try target(id, state), case .element(let name, var attributes, var children) = node else { return }
        var state = inner
        state.fontSize = inheritedFontSizes[id] ?? SVGDrawingBudget.defaultFontSize
        state.markers = [:]
        state.paints = [:]
        func value(_ name: String) -> String? { SVGDrawingBudget.attribute(name, attributes) }
        func length(_ name: String, default fallback: Double) -> Double {
            guard let text = value(name), let length = SVGValues.length(text) else { return fallback }
            return abs(length.resolved(fontSize: state.fontSize, rootFontSize: rootFontSize, percentBase: 100, viewport: state.viewport))
        }
        switch name {
        case "marker" where kind == "marker":
            if value("markerUnits") != "userSpaceOnUse" {
                state.transform = state.transform.concatenating(.scale(outerStrokeWidth(inner), outerStrokeWidth(inner)))
            }
            if let box = SVGDrawingBudget.viewBox(attributes) {
                state.transform = state.transform.concatenating(
                    .scale(length("markerWidth", default: 3) / box.2, length("markerHeight", default: 3) / box.3))
                state.viewport = (box.2, box.3)
            }
        case "pattern" where kind == "pattern":
            // A pattern without children takes those (and the attributes it lacks) of the pattern its href names.
            var hops = 0
            while children.isEmpty, hops < SVGDrawingBudget.referenceDepth, let href = value("href"),
                let next = SVGDrawingBudget.referencedID(href),
                case .element("pattern", let linkedAttributes, let linkedChildren)? = elements[next]
            {
                let missing = linkedAttributes.filter { linked in linked.name != "href" && !attributes.contains { $0.name == linked.name } }
                attributes = attributes.filter { $0.name != "href" } + missing
                attributes += linkedAttributes.filter { $0.name == "href" }
                children = linkedChildren
                hops += 1
            }
            if let text = value("patternTransform"), let transform = SVGValues.transform(text) {
                state.transform = state.transform.concatenating(transform)
            }
            let userTile = value("patternUnits") == "userSpaceOnUse"
            if let box = SVGDrawingBudget.viewBox(attributes) {
                if userTile {
                    state.transform = state.transform.concatenating(
                        .scale(length("width", default: 0) / box.2, length("height", default: 0) / box.3))
                } else {
                    state.boundingBoxScaled = true
                }
            } else if value("patternContentUnits") == "objectBoundingBox" {
                state.boundingBoxScaled = true
            }
        case "clipPath" where kind == "clip-path":
            if let text = value("transform"), let transform = SVGValues.transform(text) {
                state.transform = state.transform.concatenating(transform)
            }
            if value("clipPathUnits") == "objectBoundingBox" { state.boundingBoxScaled = true }
        case "mask" where kind == "mask":
            if value("maskContentUnits") == "objectBoundingBox" { state.boundingBoxScaled = true }
        default:
            // A reference to an element of another kind draws nothing.
            return
        }
        try count(1)
        try checkEnlargement(state, of: name)
        for child in children { try visit(child, state) }
    }

    /// The stroke width markers are scaled by: the marked shape's.
    private func outerStrokeWidth(_ state: State) -> Double { state.strokeWidth }
}
