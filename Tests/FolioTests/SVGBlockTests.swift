import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// The `svg` block: sanitised once, drawn by librsvg in the PDF and inline in HTML from the same
/// cleaned markup; nothing that could run, load or restyle the host page survives.
final class SVGBlockTests: XCTestCase {
    private let hostile = """
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 50" onload="alert(1)">
          <script>alert(2)</script>
          <script><![CDATA[alert(3)]]></script>
          <style>body { display: none } * { background: url(https://evil.example/track) }</style>
          <defs><linearGradient id="g"><stop offset="0" stop-color="#0072B2"/></linearGradient></defs>
          <rect id="r" x="0" y="0" width="50" height="50" fill="url(#g)" onclick="steal()" style="fill: URL( '#g' ); stroke: url(https://evil.example/x)"/>
          <circle cx="75" cy="25" r="20" fill="#E5484D" filter="url(#f)" mask="url(https://evil.example/m)"/>
          <use href="https://evil.example/sprite.svg#icon"/>
          <use xlink:href="#r" x="10"/>
          <a href="javascript:alert(4)"><text>click</text></a>
          <image href="https://evil.example/pixel.png" width="1" height="1"/>
          <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject>
          <iframe src="https://evil.example"/>
          <text x="5" y="45" font-size="8">A &amp; B &lt;script&gt;</text>
          <animate attributeName="href" to="javascript:alert(5)"/>
          <set attributeName="onclick" to="alert(6)"/>
        </svg>
        """

    private func sanitized(_ markup: String) throws -> String {
        try SanitizedSVG.sanitize(Data(markup.utf8), path: "elements[0].svg").markup(idPrefix: "p")
    }

    private func error(_ markup: String) -> String {
        do {
            _ = try SanitizedSVG.sanitize(Data(markup.utf8), path: "elements[0].svg")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    func testOnlyDrawingSurvives() throws {
        let clean = try sanitized(hostile)
        for banned in [
            "<script", "alert", "onload", "onclick", "<style", "evil", "foreignObject", "iframe", "<a", "javascript", "<image",
            "animate", "<set", "filter",
        ] {
            XCTAssertFalse(clean.lowercased().contains(banned.lowercased()), "\(banned) survived: \(clean)")
        }
        XCTAssertTrue(clean.contains(#"<linearGradient id="p-g">"#), clean)
        XCTAssertTrue(clean.contains(#"fill="url(#p-g)""#), "references are renamed with their ids: \(clean)")
        XCTAssertTrue(clean.contains(##"<use href="#p-r" x="10"/>"##), "xlink:href becomes SVG 2's href: \(clean)")
        XCTAssertTrue(clean.contains("A &amp; B &lt;script&gt;"), "text stays text: \(clean)")
        XCTAssertTrue(clean.contains(##"<circle cx="75" cy="25" fill="#E5484D" r="20"/>"##), clean)
        // A style's url(…) to anywhere else is dropped with the declaration; url('#g') is kept, written one way.
        XCTAssertFalse(clean.contains("stroke"))
    }

    func testRefusedMarkupNamesTheField() {
        XCTAssertEqual(
            error(#"<!DOCTYPE svg [<!ENTITY x "xxxxxxxx">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>"#),
            "elements[0].svg: SVG with a DTD or entities is not accepted; remove the <!DOCTYPE …> line")
        XCTAssertTrue(
            error("<svg><rect></svg>").hasPrefix("elements[0].svg: not well-formed SVG (XML) near line 1"), error("<svg><rect></svg>"))
        XCTAssertTrue(error("<svg").hasPrefix("elements[0].svg: not well-formed SVG (XML) near line 1"), error("<svg"))
        XCTAssertEqual(error("<html><body/></html>"), "elements[0].svg: the markup must be one <svg> element")
        let deep = String(repeating: "<g>", count: 40) + String(repeating: "</g>", count: 40)
        XCTAssertEqual(error("<svg>\(deep)</svg>"), "elements[0].svg: the SVG nests elements deeper than 32")
        let many = String(repeating: "<rect/>", count: 20_001)
        XCTAssertEqual(error("<svg>\(many)</svg>"), "elements[0].svg: the SVG has more than 20000 elements")
        let document = #"{"elements": [{"type": "svg", "alt": "x"}]}"#
        XCTAssertThrowsError(try DocumentDecoder.decode(Data(document.utf8), format: .json)) {
            XCTAssertEqual("\($0)", #"elements[0]: an svg block needs "svg" (the markup) or "path""#)
        }
    }

    func testLocalReferencesAreWrittenOneWayAndOthersDropped() throws {
        let defs = #"<defs><linearGradient id="g"/><linearGradient id="h.2"/></defs>"#
        func fill(_ value: String) throws -> String? {
            let clean = try sanitized(#"<svg>\#(defs)<rect width="1" height="1" fill="\#(value)"/></svg>"#)
            guard let start = clean.range(of: "<rect ") else { return nil }
            let rect = clean[start.upperBound...].prefix { $0 != ">" }
            guard let fill = rect.range(of: #"fill=""#) else { return nil }
            return String(rect[fill.upperBound...].prefix { $0 != "\"" })
        }
        XCTAssertEqual(try fill("url(#g)"), "url(#p-g)")
        XCTAssertEqual(try fill("URL( '#g' )"), "url(#p-g)", "any case, quotes and spaces")
        XCTAssertEqual(try fill("Url(\t&quot;#h.2&quot;\n)"), "url(#p-h.2)")
        XCTAssertEqual(try fill("url(#g) red"), "url(#p-g) red", "a fallback colour stays")
        XCTAssertEqual(try fill("url(#g) url( #h.2 )"), "url(#p-g) url(#p-h.2)", "every reference")
        XCTAssertNil(try fill("url(https://evil.example/x)"), "a reference out of the picture is dropped")
        XCTAssertNil(try fill("url(#g) url(evil.svg#g)"), "one reference out is enough to drop the value")
        XCTAssertNil(try fill("url( #g"), "an unclosed reference is not read as one")
    }

    func testTheXMLDeclarationMayNameUTF8OrASCIIOnly() throws {
        for declaration in [
            #"<?xml version="1.0" encoding="UTF-8"?>"#, "<?xml version='1.0' encoding = 'us-ascii' ?>", #"<?xml version="1.0"?>"#,
        ] {
            XCTAssertNoThrow(try sanitized(declaration + "<svg/>"), declaration)
        }
        XCTAssertEqual(
            error(#"<?xml version="1.0" encoding="UTF-16"?><svg/>"#),
            "elements[0].svg: the SVG must be UTF-8 text; its XML declaration names UTF-16")
        XCTAssertEqual(
            error(#"<?xml version="1.0" encoding = 'ISO-8859-1' standalone="yes"?><svg/>"#),
            "elements[0].svg: the SVG must be UTF-8 text; its XML declaration names ISO-8859-1")
    }

    func testTextKeepsEntitiesCDATAAndCharacterReferencesAsText() throws {
        let clean = try sanitized(#"<svg><text>A &amp; B &#x263A; <![CDATA[<b>&x;</b>]]> &quot;C&apos;</text></svg>"#)
        XCTAssertTrue(clean.contains("<text>A &amp; B \u{263A} &lt;b&gt;&amp;x;&lt;/b&gt; &quot;C&#39;</text>"), clean)
        XCTAssertTrue(error("<svg><text>&undefined;</text></svg>").hasPrefix("elements[0].svg: not well-formed SVG (XML)"))
        XCTAssertTrue(
            error(#"<svg width="1" width="2"/>"#).hasPrefix("elements[0].svg: not well-formed SVG (XML)"), "an attribute given twice")
        XCTAssertTrue(error("<svg/><svg/>").hasPrefix("elements[0].svg: not well-formed SVG (XML) near line 1, column 7"))
    }

    func testTheSizeComesFromWidthHeightOrViewBox() throws {
        func size(_ markup: String) throws -> Size { try SanitizedSVG.sanitize(Data(markup.utf8), path: "p").size }
        XCTAssertEqual(try size(#"<svg width="200" height="100"/>"#), Size(150, 75))
        XCTAssertEqual(try size(#"<svg viewBox="0 0 40 20"/>"#), Size(30, 15))
        XCTAssertEqual(try size(#"<svg width="2in" viewBox="0 0 40 20"/>"#), Size(144, 72))
        XCTAssertEqual(try size(#"<svg width="100%"/>"#), Size(225, 112.5), "CSS's default 300 × 150")
    }

    private func document(_ markup: String, alt: String = "A red dot") throws -> Document {
        let escaped = markup.replacingOccurrences(of: "\"", with: "\\\"")
        let json =
            #"{"elements": [{"type": "svg", "alt": "\#(alt)", "width": 200, "svg": "\#(escaped)"}, {"type": "svg", "svg": "\#(escaped)"}]}"#
        return try DocumentDecoder.decode(Data(json.utf8), format: .json)
    }

    func testThePDFDrawsThePictureWithItsTextAlternative() throws {
        let dot = #"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><rect width='10' height='10' fill='#FF0000'/></svg>"#
        let pdf = try document(dot).render(as: .pdf)
        let pixels = try TestSupport.rasterize(pdf, dpi: 36)
        let red = pixels.filter { $0.r > 240 && $0.g < 20 && $0.b < 20 }.count
        // Two pictures: 200 pt and 200 pt (its own 10 px would be 7.5 pt, the second at natural size): at 36 dpi ≈ 100 × 100 + 4 × 4 px.
        XCTAssertGreaterThan(red, 9_000, "the 200 pt red square is drawn")
        let qdf = try TestSupport.run(
            "qpdf", ["--qdf", "--object-streams=disable", try TestSupport.temporaryFile(pdf, name: "svg.pdf").path, "-"])
        XCTAssertTrue(qdf.text.contains("/Alt (A red dot)"), "the picture is a Figure with its alt")
        let report = try document(dot).pdfWithReport().report
        XCTAssertEqual(report.warnings.map(\.path), ["elements[1].alt"], "a picture without alt is decoration, and said so")
    }

    func testHTMLWritesTheSanitisedPictureInlineWithUniqueIds() throws {
        let markup =
            #"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><defs><clipPath id='c'><rect width='5' height='5'/></clipPath></defs><rect width='10' height='10' fill='#FF0000' clip-path='url(#c)' onmouseover='x()'/></svg>"#
        let html = String(decoding: try document(markup).render(as: .html), as: UTF8.self)
        let ids = html.matches(of: #/<clipPath id="([^"]+)">/#).map { String($0.output.1) }
        XCTAssertEqual(ids.count, 2)
        XCTAssertEqual(Set(ids).count, 2, "two copies of one picture do not share ids")
        for id in ids { XCTAssertTrue(html.contains("clip-path=\"url(#\(id))\"")) }
        XCTAssertTrue(html.contains(#"role="img" aria-label="A red dot""#))
        XCTAssertTrue(html.contains(#"aria-hidden="true""#), "the picture without alt is hidden from screen readers")
        XCTAssertTrue(html.contains(#"width="266.67" height="266.67""#), "200 pt is 266.67 CSS px")
        XCTAssertFalse(html.contains("onmouseover"))
    }

    func testFilesAreReadAsConfinedAsImages() throws {
        let folder = try TestSupport.temporaryDirectory()
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#.utf8).write(
            to: folder.appendingPathComponent("a.svg"))
        let document = try DocumentDecoder.decode(
            Data(#"{"elements": [{"type": "svg", "path": "../a.svg"}]}"#.utf8), format: .json)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        var confined = RenderOptions()
        confined.assets = .confined(try AssetFolder(path: folder.appendingPathComponent("sub").path))
        XCTAssertThrowsError(try document.render(as: .pdf, options: confined)) {
            XCTAssertTrue("\($0)".hasPrefix("elements[0].path:"), "\($0)")
        }
        let fine = try DocumentDecoder.decode(Data(#"{"elements": [{"type": "svg", "path": "a.svg"}]}"#.utf8), format: .json)
        XCTAssertNoThrow(try fine.render(as: .html, options: RenderOptions(baseDirectory: folder)))
    }
}
