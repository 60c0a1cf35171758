import Foundation
import XCTest

@testable import Folio

/// What an SVG picture may ask of librsvg, FreeType and Pango: glyph sizes after every scale,
/// drawn instances through `<use>`, markers and patterns, text per `<text>`, and only UTF-8
/// without declarations. Each hostile picture here once crashed or hung a render.
final class SVGBudgetTests: XCTestCase {
    private let open = ##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100""##

    /// The error sanitising `markup` gives, or "no error".
    private func error(_ markup: String, width: Double? = nil) -> String {
        error(Data(markup.utf8), width: width)
    }

    private func error(_ data: Data, width: Double? = nil) -> String {
        do {
            _ = try SanitizedSVG.sanitize(data, path: "elements[0].svg", width: width, columnWidth: 451)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    /// Renders `markup` as the only block of a document to PDF and HTML, as `folio render` does;
    /// returns the error line or "rendered".
    private func rendered(_ markup: String) -> String {
        let document = Document(title: "T", elements: [.svg(SVGBlock(source: .markup(markup), alt: "picture"))])
        let start = Date()
        defer { XCTAssertLessThan(Date().timeIntervalSince(start), 5, "slow: \(markup.prefix(120))") }
        do {
            _ = try document.render(as: .pdf)
            _ = try document.render(as: .html)
            return "rendered"
        } catch {
            return "\(error)"
        }
    }

    func testGlyphsTooLargeForTheFontEngineAreRefusedWhateverMakesThemLarge() {
        let cases = [
            // font-size itself, a transform, a percentage, ems under a large parent, a tiny viewBox, a skew.
            ##"\##(open)><text x="0" y="50" font-size="1e5">Hi</text></svg>"##,
            ##"\##(open)><g transform="scale(10000)"><text font-size="10">Hi</text></g></svg>"##,
            ##"\##(open)><g transform="scale(500)"><text font-size="1">Hi</text></g></svg>"##,
            ##"\##(open)><g font-size="1e6%"><text>Hi</text></g></svg>"##,
            ##"\##(open)><g font-size="1000"><g font-size="100em"><text>Hi</text></g></g></svg>"##,
            ##"\##(open) viewBox="0 0 0.01 0.01"><text font-size="1">Hi</text></svg>"##,
            ##"\##(open)><text font-size="10" transform="skewX(89.9999)">Hi</text></svg>"##,
            ##"\##(open)><defs><symbol id="s" viewBox="0 0 1 1"><text font-size="1">Hi</text></symbol></defs><use href="#s" width="1000" height="1000"/></svg>"##,
            ##"\##(open)><defs><marker id="m"><text font-size="900">Hi</text></marker></defs><path stroke-width="40" marker-start="url(#m)" d="M0 0 L 5 5"/></svg>"##,
            ##"\##(open)><defs><pattern id="p" patternContentUnits="objectBoundingBox"><text font-size="1">Hi</text></pattern></defs><rect width="9" height="9" fill="url(#p)"/></svg>"##,
        ]
        for markup in cases {
            let message = error(markup)
            XCTAssertTrue(message.hasPrefix("elements[0].svg: "), "\(markup) → \(message)")
            XCTAssertNotEqual(message, "no error", markup)
            // And the whole render says so in one line, in both formats, without a crash.
            XCTAssertEqual(rendered(markup), message)
        }
        XCTAssertTrue(
            error(cases[0]).contains("would be drawn 75000 pt high"), "the size is said in points on the page: \(error(cases[0]))")
    }

    func testTheWidthOnThePageCountsToo() {
        // 10 CSS px (7.5 pt) of picture drawn 400 pt wide: each unit is 40 pt, so text of size 20 is 800 pt high, enlarged 40×.
        let small = ##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text font-size="20">Hi</text></svg>"##
        XCTAssertEqual(error(small), "no error", "at its own size")
        XCTAssertNotEqual(error(small, width: 400), "no error", "drawn 400 pt wide")
    }

    func testOrdinaryPicturesWithTextMarkersAndUsesStillRender() {
        let signature = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 60" width="300" height="60">
              <defs><marker id="dot" markerWidth="4" markerHeight="4" viewBox="0 0 4 4"><circle cx="2" cy="2" r="2"/></marker>
              <symbol id="tick" viewBox="0 0 10 10"><path d="M1 5 L4 8 L9 1" stroke="#000" fill="none"/></symbol></defs>
              <path d="M10 40 C 60 10, 90 60, 140 30 S 220 50, 290 20" stroke="#1C2024" fill="none" marker-start="url(#dot)" marker-end="url(#dot)"/>
              <use href="#tick" x="270" y="35" width="20" height="20"/>
              <text x="10" y="56" font-size="12" font-family="sans-serif">Signed: Dr. A. Example, 2026-11-24</text>
              <g transform="rotate(-10 150 30) scale(1.5)"><text x="20" y="20" font-size="1.2em">Reviewed</text></g>
            </svg>
            """
        XCTAssertEqual(error(signature, width: 451), "no error")
        XCTAssertEqual(rendered(signature), "rendered")
    }

    func testInstancesAreCountedThroughUsesMarkersAndPatterns() {
        // Nine levels of ten <use>: a billion circles from 90 elements of markup.
        var nested = ##"<defs><circle id="l0" r="1"/>"##
        for level in 1...9 {
            nested += ##"<g id="l\##(level)">"## + String(repeating: ##"<use href="#l\##(level - 1)"/>"##, count: 10) + "</g>"
        }
        let uses = "\(open)>\(nested)</defs><use href=\"#l9\"/></svg>"
        // A marker of 500 circles at 3,000 vertices.
        let points = (0..<3000).map { "\($0) \($0 % 7)" }.joined(separator: " ")
        let markers =
            "\(open)><defs><marker id=\"m\">\(String(repeating: "<circle r=\"1\"/>", count: 500))</marker></defs><polyline marker-mid=\"url(#m)\" points=\"\(points)\"/></svg>"
        // A marker inherited from a group onto a long path.
        let path = "M0 0 " + (0..<2000).map { "L\($0) \($0 % 5)" }.joined(separator: " ")
        let inherited =
            "\(open)><defs><marker id=\"m\">\(String(repeating: "<rect width=\"1\" height=\"1\"/>", count: 40))</marker></defs><g marker-mid=\"url(#m)\"><path d=\"\(path)\"/></g></svg>"
        // A pattern of 1,000 shapes filling 100 shapes.
        let pattern =
            "\(open)><defs><pattern id=\"p\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\">\(String(repeating: "<circle r=\"1\"/>", count: 1000))</pattern></defs>\(String(repeating: "<rect width=\"9\" height=\"9\" fill=\"url(#p)\"/>", count: 100))</svg>"
        for markup in [uses, markers, inherited, pattern] {
            XCTAssertEqual(
                error(markup),
                "elements[0].svg: the picture draws more than 50000 elements, counting each one a <use>, marker or pattern draws again")
            XCTAssertTrue(rendered(markup).hasSuffix("draws again"))
        }
        let loop = ##"\##(open)><defs><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></defs><use href="#a"/></svg>"##
        XCTAssertEqual(error(loop), "elements[0].svg: the picture refers to itself through #a")
        let selfPattern =
            ##"\##(open)><defs><pattern id="p" width="5" height="5" patternUnits="userSpaceOnUse"><rect width="9" height="9" fill="url(#p)"/></pattern></defs><rect width="9" height="9" fill="url(#p)"/></svg>"##
        XCTAssertEqual(error(selfPattern), "elements[0].svg: the picture refers to itself through #p")
    }

    func testTextIsBoundedPerTextAndPerPicture() {
        let long = "\(open)><text y=\"20\" font-size=\"10\">\(String(repeating: "word ", count: 12_000))</text></svg>"
        XCTAssertEqual(
            error(long), "elements[0].svg: a <text> holds 60000 characters; at most 2000 are allowed (put long text in a paragraph)")
        XCTAssertEqual(rendered(long), error(long))
        let spread = "\(open)><text y=\"20\" font-size=\"10\">\(String(repeating: "<tspan>word </tspan>", count: 500))</text></svg>"
        XCTAssertTrue(error(spread).contains("holds 2500 characters"), "tspans count toward their text: \(error(spread))")
        let used =
            "\(open)><defs><text id=\"t\" font-size=\"10\">\(String(repeating: "w ", count: 900))</text></defs>\(String(repeating: "<use href=\"#t\"/>", count: 20))</svg>"
        XCTAssertEqual(
            error(used),
            "elements[0].svg: the picture draws more than 20000 characters of text, counting each one a <use> draws again")
    }

    func testOnlyUTF8WithoutDeclarationsIsRead() {
        let doctype = ##"<!DOCTYPE svg [<!ENTITY x "lost">]><svg xmlns="http://www.w3.org/2000/svg"><text>a &x; b</text></svg>"##
        let refused = "elements[0].svg: SVG with a DTD or entities is not accepted; remove the <!DOCTYPE …> line"
        XCTAssertEqual(error(doctype), refused)
        // The same DOCTYPE in UTF-7, which a check of the UTF-8 text cannot see.
        let utf7 =
            ##"<?xml version="1.0" encoding="UTF-7"?>+ADw-!DOCTYPE svg +AFs-+ADw-!ENTITY x +ACI-lost+ACI-+AD4-+AF0-+AD4-<svg xmlns="http://www.w3.org/2000/svg"><text>a &x; b</text></svg>"##
        XCTAssertEqual(error(utf7), "elements[0].svg: the SVG must be UTF-8 text; its XML declaration names UTF-7")
        // And in UTF-16, as a file would hold it.
        var utf16 = Data([0xFF, 0xFE])
        utf16.append(doctype.data(using: .utf16LittleEndian) ?? Data())
        XCTAssertEqual(error(utf16), "elements[0].svg: the SVG must be UTF-8 text; this one is UTF-16 or UTF-32")
        XCTAssertEqual(
            error(Data(doctype.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })),
            "elements[0].svg: the SVG must be UTF-8 text; this one is UTF-16 or UTF-32")
        XCTAssertEqual(
            error(Data([0x3C, 0x73, 0x76, 0x67, 0xFF, 0x3E])),
            "elements[0].svg: the SVG must be UTF-8 text; it has bytes that are not UTF-8")
        // Declared UTF-8 and a UTF-8 byte-order mark are fine, as is "<!DOCTYPE" inside a comment.
        XCTAssertEqual(error(##"<?xml version="1.0" encoding="utf-8"?><svg xmlns="http://www.w3.org/2000/svg"/>"##), "no error")
        XCTAssertEqual(error(Data([0xEF, 0xBB, 0xBF]) + Data(##"<svg xmlns="http://www.w3.org/2000/svg"/>"##.utf8)), "no error")
        XCTAssertEqual(error(##"<!-- <!DOCTYPE x> --><svg xmlns="http://www.w3.org/2000/svg"><![CDATA[<!ENTITY]]></svg>"##), "no error")
    }

    func testProcessingInstructionsAreLeftOutBeforeTheParserSeesThem() throws {
        // FoundationXML crashed (strlen of NULL) on a processing instruction without data: found by `make fuzz FUZZ_SURFACE=svg`.
        let crashing = try Data(contentsOf: TestSupport.root.appendingPathComponent("Fuzz/corpus-svg/crash-pi-without-data.svg"))
        XCTAssertTrue(error(crashing).hasPrefix("elements[0].svg: "), error(crashing))
        let markup =
            ##"<?xml version="1.0" encoding="UTF-8"?><?x?><?xml-stylesheet href="https://evil.example/s.css"?><svg xmlns="http://www.w3.org/2000/svg"><text>ok</text></svg>"##
        let clean = try SanitizedSVG.sanitize(Data(markup.utf8), path: "p").markup(idPrefix: "p")
        XCTAssertFalse(clean.contains("<?") || clean.contains("evil"), clean)
        XCTAssertTrue(clean.contains(">ok</text>"), clean)
        XCTAssertEqual(error("<?x <svg/>"), "elements[0].svg: not well-formed SVG (XML): a <? processing instruction is not closed with ?>")
        XCTAssertEqual(rendered("<?x?>\(open)><text>ok</text></svg>"), "rendered")
    }

    func testSizesAndTransformsThatCannotBeMeasuredAreDropped() throws {
        let markup =
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text font-size="1e5px;" transform="scale(1e4) bogus(1)" stroke-width="calc(1e9px)" style="font-size: 12px">x</text></svg>"##
        let clean = try SanitizedSVG.sanitize(Data(markup.utf8), path: "p").markup(idPrefix: "p")
        XCTAssertFalse(clean.contains("1e5"), clean)
        XCTAssertFalse(clean.contains("transform"), clean)
        XCTAssertFalse(clean.contains("calc"), clean)
        XCTAssertTrue(clean.contains(##"font-size="12px""##), "a measurable size from the style stays: \(clean)")
    }

    func testTransformsAreReadAsSVGDefinesThem() throws {
        func scale(_ text: String) throws -> Double {
            try XCTUnwrap(SVGValues.transform(text)).largestScale
        }
        XCTAssertEqual(try scale("scale(3)"), 3, accuracy: 1e-9)
        XCTAssertEqual(try scale("scale(2, 5) rotate(30)"), 5, accuracy: 1e-9)
        XCTAssertEqual(try scale("rotate(45 10 10)"), 1, accuracy: 1e-9)
        XCTAssertEqual(try scale("matrix(2 0 0 2 5 5), translate(3)"), 2, accuracy: 1e-9)
        XCTAssertEqual(try scale("skewX(45)"), 1.618, accuracy: 1e-3)
        XCTAssertNil(SVGValues.transform("scale(inf)"))
        XCTAssertNil(SVGValues.transform("scale(1"))
        XCTAssertNil(SVGValues.transform("rotate(1deg)"))
        XCTAssertEqual(SVGValues.fontSize("150%", parent: 10, root: 16, viewport: (100, 100)), 15)
        XCTAssertEqual(SVGValues.fontSize("2em", parent: 10, root: 16, viewport: (100, 100)), 20)
        XCTAssertEqual(SVGValues.fontSize("xx-large", parent: 10, root: 16, viewport: (100, 100)), 32)
        XCTAssertNil(SVGValues.fontSize("nan", parent: 10, root: 16, viewport: (100, 100)))
    }
}
