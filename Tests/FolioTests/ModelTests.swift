import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

final class ModelTests: XCTestCase {
    func testSHA256MatchesTheStandardsVectors() {
        XCTAssertEqual(SHA256Digest.hex(Data()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256Digest.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256Digest.hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        XCTAssertEqual(SHA256Digest.digest(Array("abc".utf8)).count, 32)
    }

    func testSampleRoundTripsThroughJSON() throws {
        let document = try TestSupport.sampleDocument()
        XCTAssertEqual(document.title, "Weekly Care Summary")
        XCTAssertEqual(document.elements.count, 18)
        let json = try JSONEncoder().encode(document)
        let again = try DocumentDecoder.decode(json, format: .json)
        XCTAssertEqual(again, document)
    }

    func testSwiftAPIBuildsTheSameDocumentAsYAML() throws {
        let yaml = """
            title: Summary
            header: Week 46
            page: {size: Letter, orientation: landscape, margins: 1in}
            elements:
              - {type: subtitle, text: Key metrics}
              - type: widgets
                items: [{title: Steps, value: 1200}]
              - {type: paragraph, text: "Hello **world**"}
            """
        let decoded = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let built = Document(
            title: "Summary", header: "Week 46",
            page: PageSetup(size: .letter, orientation: .landscape, margins: .init(all: .inches(1))),
            elements: [
                .subtitle(Subtitle("Key metrics")),
                .widgets(Widgets([.init(title: "Steps", value: "1200")])),
                .paragraph(Paragraph("Hello **world**")),
            ])
        XCTAssertEqual(decoded, built)
        XCTAssertEqual(built.page.pageSize.width, 792)
        XCTAssertEqual(built.page.pageSize.height, 612)
    }

    func testLengthUnits() {
        XCTAssertEqual(Length(parsing: "2cm")?.points ?? 0, 56.6929, accuracy: 0.001)
        XCTAssertEqual(Length(parsing: "20 mm")?.points ?? 0, 56.6929, accuracy: 0.001)
        XCTAssertEqual(Length(parsing: "1in")?.points, 72)
        XCTAssertEqual(Length(parsing: "12")?.points, 12)
        XCTAssertNil(Length(parsing: "two cm"))
    }

    func testRichTextParsesBoldItalicLinksAndBreaks() {
        let text = RichText("Plain **bold** and *italic* with [a link](https://example.org)\nnext line, 2 * 3 and \\*stars\\*")
        XCTAssertEqual(
            text.runs.map(\.text),
            [
                "Plain ", "bold", " and ", "italic", " with ", "a link",
                "\nnext line, 2 * 3 and *stars*",
            ])
        XCTAssertTrue(text.runs[1].bold)
        XCTAssertTrue(text.runs[3].italic)
        XCTAssertEqual(text.runs[5].link?.url, "https://example.org")
        XCTAssertEqual(RichText("a ** b").plainText, "a ** b")
    }

    /// An address written out is a link to itself, without the punctuation after it; inside a
    /// word, escaped or in a Markdown link it is not a second link.
    func testAPassageInAnotherLanguageIsARunWithItsLanguage() {
        let runs = RichText("He said [« ça va »]{lang=fr} and [bien]{lang=\"es-419\"}, not [x]{lang=!!} or [y]{class=z}.").runs
        XCTAssertEqual(runs.filter { $0.language != nil }.map { "\($0.language ?? ""):\($0.text)" }, ["fr:« ça va »", "es-419:bien"])
        XCTAssertEqual(RichText("not [x]{lang=!!} or [y]{class=z}.").plainText, "not [x]{lang=!!} or [y]{class=z}.")
        // Inside bold it stays bold; a value bound from data cannot make one (its brackets are escaped).
        XCTAssertEqual(RichText("**[Hallo]{lang=de}**").runs.first?.bold, true)
        XCTAssertNil(RichText(RichText.escaped("[x]{lang=fr}")).runs.first { $0.language != nil })
    }

    /// An e-mail address written out is a `mailto:` link to it, as a web address is (#59); a
    /// record's value bound into text stays text.
    func testAnEmailAddressWrittenOutIsAMailtoLink() {
        let text = RichText("Write to nurse.lee@ward-4.example.org. Or (care+team@clinic.example), any day.")
        XCTAssertEqual(
            text.runs.map(\.text), ["Write to ", "nurse.lee@ward-4.example.org", ". Or (", "care+team@clinic.example", "), any day."])
        XCTAssertEqual(
            text.runs.compactMap(\.link?.url), ["mailto:nurse.lee@ward-4.example.org", "mailto:care+team@clinic.example"])
        for notAnAddress in [
            "a@b", "user@localhost", "@handle", "x@y.c", "me@.example.org", "x@example.org1", "ax.@example.org", "mail:x@example.org",
        ] {
            XCTAssertEqual(RichText(notAnAddress).runs.compactMap(\.link?.url), [], notAnAddress)
        }
        XCTAssertEqual(RichText.linkingAddresses("Ask nurse@example.org").compactMap(\.link?.url), ["mailto:nurse@example.org"])
        XCTAssertEqual(RichText("Contact: " + RichText.escaped("ana@example.org")).runs.compactMap(\.link?.url), [])
        XCTAssertEqual(RichText("Contact: " + RichText.escaped("ana@example.org")).plainText, "Contact: ana@example.org")
        XCTAssertEqual(RichText("[the nurse](mailto:nurse@example.org)").runs.map(\.text), ["the nurse"])
    }

    func testAnAddressWrittenOutIsALinkToItself() {
        let text = RichText("See https://clinic.example/a?b=1. Or (https://x.example/wiki/Care_(medicine)), <https://y.example>!")
        XCTAssertEqual(
            text.runs.map(\.text),
            ["See ", "https://clinic.example/a?b=1", ". Or (", "https://x.example/wiki/Care_(medicine)", "), ", "https://y.example", "!"])
        XCTAssertEqual(
            text.runs.compactMap(\.link?.url),
            ["https://clinic.example/a?b=1", "https://x.example/wiki/Care_(medicine)", "https://y.example"])
        XCTAssertEqual(RichText("[the portal](https://p.example)").runs.compactMap(\.link?.url), ["https://p.example"])
        XCTAssertEqual(RichText("xhttps://p.example and http:// and <https://p.example").runs.compactMap(\.link?.url), [])
        XCTAssertEqual(RichText("**https://p.example**").runs.map(\.bold), [true])
        XCTAssertEqual(RichText("**https://p.example**").runs.compactMap(\.link?.url), ["https://p.example"])
        // A value bound from a record is escaped: an address in it stays text, and one bound into
        // a link's address still works.
        XCTAssertEqual(RichText("Portal: " + RichText.escaped("https://p.example/a_b")).runs.compactMap(\.link?.url), [])
        XCTAssertEqual(RichText("Portal: " + RichText.escaped("https://p.example/a_b")).plainText, "Portal: https://p.example/a_b")
        XCTAssertEqual(
            RichText("[the portal](" + RichText.escaped("https://p.example/a_(b)") + ")").runs.compactMap(\.link?.url),
            ["https://p.example/a_(b)"])
        // A table cell is plain text whose addresses are links: no other markup.
        let cell = RichText.linkingAddresses("2 * 3 [a](b) at https://p.example/x_y.")
        XCTAssertEqual(cell.map(\.text), ["2 * 3 [a](b) at ", "https://p.example/x_y", "."])
        XCTAssertEqual(cell.compactMap(\.link?.url), ["https://p.example/x_y"])
        XCTAssertEqual(RichText.linkingAddresses("**x**"), [TextRun("**x**")])
        // Next to Chinese or Japanese (no spaces there), the address is found and ends at the first
        // character not its own: full-width punctuation, CJK letters, curly quotes.
        XCTAssertEqual(RichText("请参阅https://x.example/meds了解详情。").runs.compactMap(\.link?.url), ["https://x.example/meds"])
        XCTAssertEqual(RichText("（https://x.example/meds）").runs.compactMap(\.link?.url), ["https://x.example/meds"])
        XCTAssertEqual(
            RichText.linkingAddresses("见https://x.example/a、https://x.example/b。").compactMap(\.link?.url),
            [
                "https://x.example/a", "https://x.example/b",
            ])
        XCTAssertEqual(RichText.linkingAddresses("[用药](https://x.example/meds)）").compactMap(\.link?.url), ["https://x.example/meds"])
        XCTAssertEqual(RichText("“https://x.example/q”").runs.compactMap(\.link?.url), ["https://x.example/q"])
        XCTAssertEqual(RichText("see https://x.example/café/été").runs.compactMap(\.link?.url), ["https://x.example/café/été"])
        XCTAssertEqual(RichText("xhttps://x.example").runs.compactMap(\.link?.url), [], "not inside a Latin word")
        // Linear: a long run of would-be addresses costs one pass.
        let long = String(repeating: "<https://a ", count: 20_000)
        XCTAssertEqual(RichText(long).runs.compactMap(\.link?.url).count, 0)
    }

    func testCellsMaySpanColumns() throws {
        let yaml = """
            title: T
            elements:
              - type: table
                header: [A, B, C]
                rows: [[{text: Both, span: 2}, c], [a, b, c], [{text: All, span: 3}]]
            """
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        guard case .table(let table) = document.elements[0] else { return XCTFail("not a table") }
        XCTAssertEqual(table.columnCount, 3)
        let slots = Table.slots(table.rows[0], row: 0, columns: 3, lookup: table.cellLookup)
        XCTAssertEqual(slots.map(\.column), [0, 2])
        XCTAssertEqual(slots.map(\.span), [2, 1])
        let html = try document.html()
        XCTAssertTrue(html.contains("<td colspan=\"2\">Both</td><td>c</td>"))
        XCTAssertTrue(html.contains("<td colspan=\"3\">All</td>"))
        let pdf = try document.pdf()
        let text = try TestSupport.pageTexts(pdf)[0]
        XCTAssertTrue(text.contains("Both") && text.contains("All"))
    }

    func testColorParsing() {
        XCTAssertEqual(try Color(hex: "#3E63DD").hex, "#3E63DD")
        XCTAssertEqual(try Color(hex: "#fff").hex, "#FFFFFF")
        XCTAssertNil(Color(parsing: "blue"))
        XCTAssertThrowsError(try Color(hex: "#E5484")) { XCTAssertTrue("\($0)".contains("#E5484"), "\($0)") }
    }

    func testTableRowsArePaddedAndCellsMayBeNumbers() throws {
        let yaml = """
            title: T
            elements:
              - type: table
                header: [A, B, C]
                rows: [[1, 2.5], [x, true, z]]
            """
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        guard case .table(let table) = document.elements[0] else { return XCTFail("not a table") }
        XCTAssertEqual(
            Table.slots(table.rows[0], row: 0, columns: table.columnCount, lookup: table.cellLookup).map(\.text),
            ["1", "2.5", ""])
        XCTAssertEqual(table.rows[1], ["x", "true", "z"])
    }
}

/// DecimalText writes what printf's %.*f writes, the rounding of the exact binary value included.
final class DecimalTextTests: XCTestCase {
    func testFixedDecimalsMatchPrintf() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 1.005, 2.675, -0.004, 1e15, -1e15, 123_456.789, 9.995, 1e300]
        for _ in 0..<2_000 { values.append(Double.random(in: -1e6...1e6, using: &generator)) }
        for _ in 0..<500 { values.append(Double(Int.random(in: -100_000...100_000, using: &generator)) / 8) }
        for value in values {
            for decimals in 0...10 {
                XCTAssertEqual(
                    DecimalText.fixed(value, decimals: decimals), String(format: "%.\(decimals)f", value), "\(value) \(decimals)")
            }
        }
    }
}

/// Without a page size, the paper of the language's region, as CareKit chose it.
final class PaperSizeTests: XCTestCase {
    func testTheRegionChoosesLetterOrA4() {
        for tag in ["en-US", "es-MX", "fr-CA", "en-PH", "zh-Hant-US", "en-us"] {
            XCTAssertEqual(PageSetup.Size.standard(forLanguage: tag), .letter, tag)
        }
        for tag in ["en", "en-GB", "de-DE", "fr", "ar", "zh-Hans-CN", "es-419", ""] {
            XCTAssertEqual(PageSetup.Size.standard(forLanguage: tag), .a4, tag)
        }
    }

    func testDocumentsTakeThePaperOfTheirLanguageUnlessTheyNameOne() throws {
        func size(_ yaml: String) throws -> PageSetup.Size { try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml).page.size }
        XCTAssertEqual(try size("title: x\nmetadata: {language: en-US}\nelements: []\n"), .letter)
        XCTAssertEqual(try size("title: x\nmetadata: {language: en-US}\npage: {orientation: landscape}\nelements: []\n"), .letter)
        XCTAssertEqual(try size("title: x\nmetadata: {language: en-US}\npage: {size: A4}\nelements: []\n"), .a4)
        XCTAssertEqual(try size("title: x\nmetadata: {language: de}\nelements: []\n"), .a4)
        XCTAssertEqual(Document(title: "x", metadata: Metadata(language: "en-US"), elements: []).page.size, .letter)
        XCTAssertEqual(Document(title: "x", page: PageSetup(size: .a4), metadata: Metadata(language: "en-US"), elements: []).page.size, .a4)
    }

    /// A page given as width and height is that page, wide or tall, unless an orientation turns it (#59).
    func testAPageOfWidthAndHeightIsThePageAsWritten() throws {
        func page(_ setup: String) throws -> (width: Double, height: Double) {
            try DocumentDecoder.decode(Data("title: x\npage: \(setup)\nelements: []\n".utf8), format: .yaml).page.pageSize
        }
        XCTAssertEqual(try page("{size: {width: 300, height: 120}, margins: 10}").width, 300)
        XCTAssertEqual(try page("{size: {width: 300, height: 120}, margins: 10}").height, 120)
        XCTAssertEqual(try page("{size: {width: 120, height: 300}, margins: 10}").height, 300)
        XCTAssertEqual(try page("{size: {width: 300, height: 120}, orientation: portrait, margins: 10}").height, 300, "turned as asked")
        XCTAssertEqual(try page("{size: {width: 120, height: 300}, orientation: landscape, margins: 10}").width, 300, "turned as asked")
        XCTAssertEqual(try page("{size: A4, orientation: landscape}").width, 841.8898, accuracy: 0.001)
        XCTAssertEqual(try page("{size: A4}").height, 841.8898, accuracy: 0.001)
    }
}

/// The Swift conveniences build the same charts and tables as the full initialisers.
final class SwiftConstructorTests: XCTestCase {
    func testConvenienceConstructorsMatchTheFullOnes() throws {
        XCTAssertEqual(
            Table(headers: ["Name", "Dose"], rows: [["Ibuprofen", "400 mg"]]),
            Table(header: ["Name", "Dose"], rows: [["Ibuprofen", "400 mg"]]))
        let line = LineChart(x: .numbers([0, 10]), plots: [LinePlot(title: "Actual", values: [70, 75])])
        XCTAssertEqual(Chart.line(line, title: "Heart rate"), Chart(title: "Heart rate", .line(line)))
        let pie = PieChart(segments: [ChartSegment(title: "Steps", value: 60)])
        XCTAssertEqual(Chart.pie(pie, title: "Activity"), Chart(title: "Activity", .pie(pie)))
        let rings = RingChart(rings: [ChartSegment(title: "Move", value: 0.5)])
        XCTAssertEqual(Chart.rings(rings, caption: "Today"), Chart(caption: "Today", .rings(rings)))
        let range = RangeChart(categories: ["Mon"], plots: [RangePlot(title: "Stress", values: [[1, 4]])])
        XCTAssertEqual(Chart.range(range, title: "Stress"), Chart(title: "Stress", .range(range)))
        let document = Document(title: "Built", elements: [.chart(.line(line)), .table(Table(headers: ["A"], rows: [["1"]]))])
        XCTAssertTrue(try document.pdf().starts(with: Data("%PDF-".utf8)))
    }
}
