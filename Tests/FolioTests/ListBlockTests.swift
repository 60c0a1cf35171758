import Foundation
import XCTest

@testable import Folio
@testable import FolioHTML
@testable import FolioLayout
@testable import FolioTemplate

/// The `list` block and the Markdown lists in paragraphs: what a reader sees and hears of them.
final class ListBlockTests: XCTestCase {
    private func decode(_ yaml: String) throws -> Document {
        try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
    }

    private func error(_ element: String) -> String {
        do {
            _ = try DocumentDecoder.decode(Data((#"{"elements": ["# + element + "]}").utf8), format: .json)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    func testBadListsNameTheirField() {
        XCTAssertEqual(error(#"{"type": "list", "items": []}"#), "elements[0].items: expected at least one item")
        XCTAssertTrue(error(#"{"type": "list"}"#).hasPrefix("elements[0].items"), error(#"{"type": "list"}"#))
        XCTAssertEqual(error(#"{"type": "list", "items": ["a", 5]}"#), "elements[0].items[1]: expected text or a nested list {items: […]}")
        XCTAssertEqual(
            error(#"{"type": "list", "ordered": true, "start": -3, "items": ["a"]}"#),
            "elements[0].start: expected a number from 0 to 1000000000, not -3")
        XCTAssertEqual(
            error(#"{"type": "list", "items": ["a", {"type": "table", "items": ["b"]}]}"#).hasPrefix("elements[0].items[1].type"), true)
        var deep = #"{"items": ["x"]}"#
        for _ in 0..<9 { deep = #"{"items": ["x", "# + deep + "]}" }
        XCTAssertEqual(
            error(#"{"type": "list", "items": ["x", "# + deep + "]}"),
            "elements[0]" + String(repeating: ".items[1]", count: 8) + ": lists may nest 8 deep at most")
        XCTAssertEqual(
            error(#"{"type": "list", "items": ["see [x](#nowhere)"]}"#).contains("elements[0].items[0]"), true,
            error(#"{"type": "list", "items": ["see [x](#nowhere)"]}"#))
        XCTAssertTrue(error(#"{"type": "list", "items": ["a"], "bullets": "stars"}"#).contains("bullets"))
    }

    func testMarkdownListLinesInAParagraphAreLists() {
        let parts = Paragraph("Do these:\n1. Walk\n2. Stretch your calves\n   holding each\n   - Left\n   - Right\n3. Rest\nCall us.").parts
        XCTAssertEqual(
            parts,
            [
                .text(RichText("Do these:")),
                .list(
                    ListBlock(
                        ordered: true,
                        items: [
                            .text(RichText("Walk")), .text(RichText("Stretch your calves\nholding each")),
                            .list(ListBlock(["Left", "Right"])), .text(RichText("Rest")),
                        ])),
                .text(RichText("Call us.")),
            ])
        // Not lists: no space after the marker, a number without its stop, italics, a bare marker.
        for text in ["-5 °C outside", "2026 was long", "*Note* this", "**Bold** start", "-", "1.", "Plain\ntext"] {
            XCTAssertEqual(Paragraph(text).parts, [.text(RichText(text))], text)
        }
        XCTAssertEqual(Paragraph("- a\n- b").parts, [.list(ListBlock(["a", "b"]))])
        XCTAssertEqual(Paragraph("3) c\n4) d").parts, [.list(ListBlock(ordered: true, start: 3, items: [.text("c"), .text("d")]))])
        // A numbered list after a bulleted one is another list.
        XCTAssertEqual(
            Paragraph("- a\n1. b").parts, [.list(ListBlock(["a"])), .list(ListBlock(ordered: true, items: [.text("b")]))])
        XCTAssertEqual(Paragraph("- a\n- b").textContent, ["a", "b"], "the markers are not the text")
    }

    func testLabelsHangBesideTheTextOnTheStartSide() throws {
        let english = try decode("elements:\n  - {type: list, ordered: true, items: [Walking daily, Stretching]}")
        let words = try TestSupport.words(try english.pdf(options: TestSupport.sampleOptions))
        let one = try XCTUnwrap(words.first { $0.text == "1." })
        let walking = try XCTUnwrap(words.first { $0.text == "Walking" })
        XCTAssertLessThan(one.xMax, walking.xMin, "the number stands before the text")
        XCTAssertEqual(one.yMin, walking.yMin, accuracy: 1.5, "on the item's first line")
        let two = try XCTUnwrap(words.first { $0.text == "2." })
        XCTAssertEqual(two.xMax, one.xMax, accuracy: 0.5, "numbers end at one edge")
        XCTAssertGreaterThan(two.yMin, one.yMin)

        let arabic = try decode("metadata: {language: ar}\nelements:\n  - {type: list, items: [المشي يوميا, تمارين الإطالة]}")
        let arabicWords = try TestSupport.words(try arabic.pdf(options: TestSupport.sampleOptions))
        let bullet = try XCTUnwrap(arabicWords.first { $0.text == "•" })
        let text = arabicWords.filter { $0.text != "•" && abs($0.yMin - bullet.yMin) < 3 }
        XCTAssertFalse(text.isEmpty)
        XCTAssertGreaterThan(bullet.xMin, text.map(\.xMax).max() ?? .infinity, "in Arabic the bullet stands at the right")
    }

    func testHTMLIsOrderedAndNestedAndEscaped() throws {
        let document = try decode(
            """
            elements:
              - type: list
                ordered: true
                start: 4
                items: ["<script>alert(1)</script> **dose**", {items: [Left]}, Rest]
              - {type: list, items: [{items: [Only nested]}]}
            """)
        let html = try document.html(options: TestSupport.sampleOptions)
        XCTAssertTrue(
            html.contains(
                "<ol start=\"4\"><li>&lt;script&gt;alert(1)&lt;/script&gt; <strong>dose</strong><ul><li>Left</li></ul></li><li>Rest</li></ol>"
            ),
            html)
        XCTAssertTrue(html.contains("<ul><li class=\"folio-list-only\"><ul><li>Only nested</li></ul></li></ul>"), html)
    }

    func testAListLongerThanAPageSplitsBetweenItemsWithEveryLabelOnce() throws {
        let items = (1...120).map { "\"Item \($0) of the plan\"" }.joined(separator: ", ")
        let document = try decode("elements:\n  - {type: list, ordered: true, items: [\(items)]}")
        let pdf = try document.pdf(options: TestSupport.sampleOptions)
        let pages = try TestSupport.pageTexts(pdf)
        XCTAssertGreaterThan(pages.count, 1)
        let text = pages.joined(separator: "\n")
        for number in 1...120 {
            XCTAssertEqual(text.components(separatedBy: "\(number). Item \(number) of").count, 2, "item \(number) once, with its label")
        }
        // A long item split at the page's end carries its label only where it starts.
        let long = String(repeating: "A very long instruction that goes on. ", count: 400)
        let split = try decode("elements:\n  - {type: list, ordered: true, items: [\"\(long)\", Short]}")
        let splitPages = try TestSupport.pageTexts(try split.pdf(options: TestSupport.sampleOptions))
        XCTAssertGreaterThan(splitPages.count, 1)
        XCTAssertEqual(splitPages.joined().components(separatedBy: "1.").count, 2, "the label once")
        XCTAssertTrue(splitPages.joined().contains("2. Short"))
    }
}
