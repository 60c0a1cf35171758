import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Every block kind with bad input gives one clear error naming the field.
final class BadInputTests: XCTestCase {
    private func error(json: String) -> String {
        do {
            _ = try DocumentDecoder.decode(Data(json.utf8), format: .json)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    private func errorFor(element: String, format: DocumentDecoder.Format = .json) -> String {
        error(json: #"{"title": "T", "elements": [{"type": "subtitle", "text": "ok"}, "# + element + "]}")
    }

    func testDocumentLevelErrors() {
        XCTAssertEqual(error(json: #"{"elements": []}"#), "no error", "the title may be left out")
        XCTAssertEqual(error(json: #"{"title": 3}"#), "title: expected a string, found a number")
        XCTAssertThrowsError(try DocumentDecoder.decode(Data("title: 2026\n".utf8), format: .yaml)) {
            XCTAssertEqual("\($0)", "title: expected a string, found a number (in YAML, put it in quotes)")
        }
        XCTAssertEqual(
            error(json: #"{"title": "T", "page": {"size": "B7"}}"#),
            #"page.size: unknown page size "B7"; use "A4", "Letter" or {width, height}"#)
        XCTAssertEqual(
            error(json: #"{"title": "T", "page": {"margins": "4 apples"}}"#),
            #"page.margins: "4 apples" is not a length; use a number of points or "2cm", "20mm", "1in", "12pt""#)
        XCTAssertEqual(
            error(json: #"{"title": "T", "page": {"margins": "12cm"}}"#),
            "page.margins: margins must be positive and leave at least 1 inch of content")
        XCTAssertEqual(
            error(json: #"{"title": "T", "metadata": {"creationDate": "yesterday"}}"#),
            #"metadata.creationDate: "yesterday" is not an ISO 8601 date such as 2026-11-15 or 2026-11-15T09:30:00Z"#)
        XCTAssertTrue(error(json: #"{"title": "T", "elements": [}"#).hasPrefix("the input is not valid"))
        XCTAssertEqual(
            errorFor(element: #"{"type": "poem"}"#),
            #"elements[1].type: unknown block type "poem"; expected one of: "# + Block.typeNames.joined(separator: ", ")
        )
        XCTAssertEqual(errorFor(element: #"{"text": "no type"}"#), "elements[1].type: is required")
    }

    func testSubtitle() {
        XCTAssertEqual(errorFor(element: #"{"type": "subtitle"}"#), "elements[1].text: is required")
        XCTAssertEqual(
            errorFor(element: #"{"type": "subtitle", "text": ["a"]}"#),
            "elements[1].text: expected a string, found an array")
    }

    func testParagraph() {
        XCTAssertEqual(
            errorFor(element: #"{"type": "paragraph", "text": null}"#),
            "elements[1].text: expected a string, found null")
        XCTAssertEqual(
            errorFor(element: #"{"type": "paragraph", "text": "see [this](javascript:alert(1))"}"#),
            #"elements[1].text: link target "javascript:alert(1)" must be an http(s) or mailto URL, or #anchor, without spaces, quotes or control characters"#
        )
    }

    func testImage() {
        XCTAssertEqual(errorFor(element: #"{"type": "image"}"#), #"elements[1]: an image needs "path" or base64 "data""#)
        XCTAssertEqual(errorFor(element: #"{"type": "image", "data": "***"}"#), "elements[1].data: not valid base64")
        XCTAssertEqual(
            errorFor(element: #"{"type": "image", "path": "x.png", "width": -3}"#),
            "elements[1].width: must be a length from 1 to 14400 points (200 inches)")
        // Unreadable and undecodable images fail at render time, naming the field.
        let missing = Document(title: "T", elements: [.image(ImageBlock(source: .file("nope.png")))])
        XCTAssertThrowsError(try missing.pdf()) {
            XCTAssertEqual("\($0)", #"elements[0].path: cannot read image file "nope.png": No such file or directory"#)
        }
        let garbage = Document(title: "T", elements: [.image(ImageBlock(source: .data(Data("not an image".utf8))))])
        XCTAssertThrowsError(try garbage.html()) { XCTAssertEqual("\($0)", "elements[0].data: not a PNG or JPEG image") }
    }

    func testTable() {
        XCTAssertEqual(
            errorFor(element: #"{"type": "table", "rows": [["a"], ["b"], "c"]}"#),
            "elements[1].rows[2]: expected an array of strings")
        XCTAssertEqual(
            errorFor(element: #"{"type": "table", "rows": [["a", {"x": 1}]]}"#),
            "elements[1].rows[0][1]: expected a string or {text, span, language, sparkline}")
        XCTAssertEqual(
            errorFor(element: #"{"type": "table", "rows": []}"#),
            "elements[1].rows: a table needs a header or at least one cell")
        XCTAssertEqual(
            errorFor(element: #"{"type": "table", "rows": [["a"]], "align": ["middle"]}"#),
            #"elements[1].align[0]: unknown value "middle"; expected one of: left, center, right"#)
    }

    func testChart() {
        let base = #""type": "chart", "kind": "bar", "categories": ["Mon", "Tue"]"#
        XCTAssertEqual(
            errorFor(element: "{\(base), \"series\": [{\"title\": \"P\", \"values\": [1]}]}"),
            "elements[1].series[0].values: has 1 values but the chart has 2 categories")
        XCTAssertEqual(
            errorFor(element: "{\(base), \"series\": [{\"title\": \"P\", \"values\": [1, \"x\"]}]}"),
            "elements[1].series[0].values[1]: expected a number, found a string")
        XCTAssertEqual(
            errorFor(element: #"{"type": "chart", "kind": "radar"}"#),
            #"elements[1].kind: unknown chart kind "radar"; expected one of: bar, line, scatter, pie, donut, rings, range, bullet, gauge, boxplot, histogram, heatmap"#
        )
        XCTAssertEqual(
            errorFor(element: "{\(base), \"series\": [{\"title\": \"P\", \"values\": [1, 2]}], \"yAxis\": {\"min\": 5, \"max\": 1}}"),
            "elements[1].yAxis.max: max must be greater than min")
        XCTAssertEqual(
            errorFor(element: #"{"type": "chart", "kind": "pie", "segments": [{"title": "a", "value": 2}, {"title": "b", "value": -1}]}"#),
            "elements[1].segments[1].value: pie values must not be negative")
        XCTAssertEqual(
            errorFor(element: #"{"type": "chart", "kind": "pie", "segments": [{"title": "a", "value": 2}], "explode": [3]}"#),
            "elements[1].explode[0]: no segment 3; there are 1")
        XCTAssertEqual(
            errorFor(element: #"{"type": "chart", "kind": "line", "x": [1, 2, 3], "plots": [{"title": "a", "values": [1, 2]}]}"#),
            "elements[1].plots[0].values: has 2 values but the chart's x has 3")
        XCTAssertEqual(
            errorFor(
                element: #"{"type": "chart", "kind": "line", "plots": [{"title": "a", "values": [1, -2]}], "yAxis": {"scale": "log"}}"#),
            "elements[1].plots[0].values[1]: a log scale needs values above 0")
        XCTAssertEqual(
            errorFor(element: #"{"type": "chart", "kind": "range", "categories": ["a"], "plots": [{"title": "s", "values": [[1], [2]]}]}"#),
            "elements[1].plots[0].values: has 2 entries but the chart has 1 categories")
        XCTAssertEqual(
            errorFor(element: #"{"type": "chart", "kind": "rings", "rings": [{"title": "a", "value": -0.5}]}"#),
            "elements[1].rings[0].value: must be between 0 and 1000 (1 is a full ring)")
        XCTAssertEqual(
            errorFor(
                element:
                    #"{"type": "chart", "kind": "line", "plots": [{"title": "a", "values": [1]}], "thresholds": [{"kind": "range", "value": 3}]}"#
            ),
            "elements[1].thresholds[0].upper: a range threshold needs an upper value")
        XCTAssertEqual(
            errorFor(
                element: #"{"type": "chart", "kind": "line", "plots": [{"title": "a", "values": [1]}], "yAxis": {"format": "fancy"}}"#),
            #"elements[1].yAxis.format: unknown format "fancy"; use a number of decimals, "0.0", "percent", "date", "date:PATTERN", "time" or "duration""#
        )
        let yaml = """
            title: T
            elements:
              - type: chart
                categories: [a, b]
                series: [{title: P, values: [1, 2]}, {title: Q, values: [3, .nan]}]
            """
        XCTAssertThrowsError(try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)) {
            XCTAssertEqual("\($0)", "elements[0].series[1].values[1]: values must be finite numbers")
        }
    }

    func testMessage() {
        XCTAssertEqual(
            errorFor(element: #"{"type": "message", "title": "x", "kind": "shout"}"#),
            #"elements[1].kind: unknown value "shout"; expected one of: tip, alert, plain"#)
        XCTAssertEqual(
            errorFor(element: #"{"type": "message", "title": "x", "tint": "reddish"}"#),
            #"elements[1].tint: "reddish" is not a colour; use #RRGGBB"#)
    }

    func testWidgets() {
        XCTAssertEqual(
            errorFor(element: #"{"type": "widgets", "items": []}"#),
            "elements[1].items: a widgets row needs at least one item")
        XCTAssertEqual(
            errorFor(element: #"{"type": "widgets", "items": [{"title": "Steps"}]}"#),
            "elements[1].items[0].value: is required")
    }
}
