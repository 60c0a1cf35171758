import Foundation
import XCTest

@testable import Folio
@testable import FolioData
@testable import FolioFuzzing
@testable import FolioGraphics
@testable import FolioHTML
@testable import FolioLayout
@testable import FolioPDF
@testable import FolioPango
@testable import FolioServer
@testable import FolioTemplate

/// The hostile corpus: inputs that once trapped, hung, exhausted memory, leaked markup or
/// were silently misdrawn. Each must now give one error line naming the field, or render
/// correctly, quickly. Every crash found later (by `make fuzz` or by a user) is added here.
final class HostileInputTests: XCTestCase {
    /// The outcome of decoding and rendering `text` to PDF and every HTML form, as `FuzzHarness` does.
    private func outcome(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let start = Date()
        let result = FuzzHarness.run(Data(text.utf8), lenient: false) ?? "rendered"
        XCTAssertLessThan(Date().timeIntervalSince(start), 20, "too slow: \(text.prefix(80))", file: file, line: line)
        XCTAssertFalse(result.contains("\n"), "more than one line: \(result)", file: file, line: line)
        return result
    }

    private func chart(_ body: String) -> String {
        #"{"title": "T", "elements": [{"type": "chart", "# + body + "}]}"
    }

    /// Every input of the fuzzer's seed corpus (Fuzz/corpus: the samples, images and a minimized
    /// set of what `make fuzz` found) goes through the harness without a trap and within time.
    func testTheFuzzCorpusRunsCleanly() throws {
        let folder = TestSupport.root.appendingPathComponent("Fuzz/corpus")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertGreaterThan(names.count, 3)
        for name in names {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let start = Date()
            let result = FuzzHarness.run(data)
            XCTAssertLessThan(Date().timeIntervalSince(start), 20, name)
            XCTAssertFalse(result?.contains("\n") ?? false, "\(name): \(result ?? "")")
        }
    }

    /// The seed corpora of the other fuzzed surfaces (Fuzz/corpus-svg, -running-text, -fhir, -service)
    /// go through their harnesses the same way.
    func testTheSurfaceCorporaRunCleanly() throws {
        for surface in ["svg", "running-text", "fhir", "service"] {
            let folder = TestSupport.root.appendingPathComponent("Fuzz/corpus-\(surface)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            XCTAssertGreaterThanOrEqual(names.count, 3, surface)
            for name in names {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                let start = Date()
                let result =
                    surface == "service"
                    ? ServiceFuzzHarness.run(data) : FuzzHarness.run(data, surface: try XCTUnwrap(FuzzHarness.Surface(rawValue: surface)))
                XCTAssertLessThan(Date().timeIntervalSince(start), 20, "\(surface)/\(name)")
                XCTAssertFalse(result?.contains("\n") ?? false, "\(surface)/\(name): \(result ?? "")")
            }
        }
        // The seeds reach rendering, not only errors.
        XCTAssertNil(
            FuzzHarness.run(try Data(contentsOf: TestSupport.root.appendingPathComponent("Fuzz/corpus-svg/signature.svg")), surface: .svg))
        XCTAssertNil(
            ServiceFuzzHarness.run(try Data(contentsOf: TestSupport.root.appendingPathComponent("Fuzz/corpus-service/template.txt"))))
        for seed in ["bundle.json", "observations.ndjson"] {
            XCTAssertNil(
                FuzzHarness.run(try Data(contentsOf: TestSupport.root.appendingPathComponent("Fuzz/corpus-fhir/\(seed)")), surface: .fhir),
                seed)
        }
    }

    // MARK: numbers that trapped (exit 132/134)

    func testPlainDecimalsAreReadAsTheCLibraryReadsThem() throws {
        // Record numbers are read without strtod when they are plain decimals: the same Double, bit
        // for bit, and anything else (exponents, 16 digits, "1.", ".5", "+1") is left to strtod.
        var generator = SystemRandomNumberGenerator()
        var texts = ["0", "-0", "007", "0.1", "0.3", "2.675", "-140.25", "999999999999999", "0.00000000000001", "123456789.012345"]
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...15, using: &generator)
            var text = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            if digits > 1, Bool.random(using: &generator) {
                text.insert(".", at: text.index(text.startIndex, offsetBy: Int.random(in: 1..<digits, using: &generator)))
            }
            texts.append(Bool.random(using: &generator) ? "-" + text : text)
        }
        for text in texts {
            let fast = JSONTreeParser.plainDecimal(ArraySlice(text.utf8))
            XCTAssertNotNil(fast, text)
            XCTAssertEqual(fast?.bitPattern, Double(text)?.bitPattern, text)
        }
        for text in ["1e5", "1.", ".5", "+1", "-", "1234567890123456", "1.2.3", "--1", ""] {
            XCTAssertNil(JSONTreeParser.plainDecimal(ArraySlice(text.utf8)), text)
        }
        let parsed = try JSONTreeParser.parse(Array("[1e2, -0.5, 12345678901234567890, 0.1]".utf8))
        XCTAssertEqual(parsed.json, "[100,-0.5,1.2345678901234567e+19,0.1]")
    }

    func testHugeNumbersAreRangeCheckedNamingTheField() {
        XCTAssertEqual(
            outcome(chart(#""kind": "rings", "rings": [{"title": "A", "value": 1e20}]"#)),
            "elements[0].rings[0].value: must be between 0 and 1000 (1 is a full ring)")
        XCTAssertEqual(
            outcome(#"{"title": "T", "elements": [{"type": "image", "path": "x.png", "width": 1e300}]}"#),
            "elements[0].width: must be a length from 1 to 14400 points (200 inches)")
        XCTAssertEqual(
            outcome(chart(#""kind": "bar", "categories": ["a"], "series": [{"title": "S", "values": [1e300]}]"#)),
            "elements[0].series[0].values[0]: must be between -1e15 and 1e15")
        XCTAssertEqual(
            outcome(#"{"title": "T", "page": {"margins": {"top": 1e300, "left": 0, "right": 0, "bottom": 0}}}"#),
            "page.margins.top: must be a length from 0 to 14400 points (200 inches)")
        XCTAssertEqual(
            outcome(chart(#""kind": "line", "x": [1, 2], "plots": [{"title": "A", "values": [1, 2]}], "height": -1"#)),
            "elements[0].height: must be a length from 1 to 14400 points (200 inches)")
        XCTAssertEqual(
            outcome(
                #"{"title": "T", "elements": [{"type": "columns", "widths": [1e308, 1], "items": [{"type": "paragraph", "text": "a"}, {"type": "paragraph", "text": "b"}]}]}"#
            ),
            "elements[0].widths[0]: widths must be numbers above 0 and at most 1000")
        XCTAssertEqual(
            outcome(
                #"{"title": "T", "elements": [{"type": "table", "rows": [["a"]], "spans": [{"row": 0, "cell": 0, "span": 1000000000}]}]}"#),
            "elements[0].spans[0]: span must be 1 to 64, in a row and cell of the table")
        XCTAssertEqual(
            outcome(#"{"title": "T", "elements": [{"type": "table", "rows": [["a"]], "widths": ["1e300"]}]}"#),
            "elements[0].widths[0]: must be a length from 1 to 14400 points (200 inches)")
    }

    func testATinyTickIntervalOverHugeValuesDrawsAutomaticTicks() throws {
        let text = chart(
            #""kind": "bar", "categories": ["a", "b"], "series": [{"title": "S", "values": [1000000000, 1000000001]}], "yAxis": {"tickInterval": 0.001}"#
        )
        XCTAssertEqual(outcome(text), "rendered")
        let document = try DocumentDecoder.decode(Data(text.utf8), format: .json)
        guard case .chart(let chart) = document.elements[0] else { return XCTFail() }
        let drawing = ChartRenderer(measurer: PangoTextEngine(), theme: .standard).drawing(for: chart, width: 400)
        XCTAssertLessThan(drawing.commands.count, 400, "ticks are bounded")
    }

    func testNonFiniteAndTinyValues() {
        XCTAssertEqual(
            outcome("title: T\nelements:\n  - {type: chart, kind: pie, segments: [{title: A, value: .nan}]}\n"),
            "elements[0].segments[0].value: values must be finite numbers")
        XCTAssertEqual(
            outcome(chart(#""kind": "line", "x": [0, 1e-300, 2e-300], "plots": [{"title": "A", "values": [1, 2, 3]}]"#)),
            "rendered")
        XCTAssertEqual(
            outcome(
                chart(#""kind": "bar", "categories": ["a", "b"], "series": [{"title": "S", "values": [-1e15, 1e15]}], "stacked": true"#)),
            "rendered")
        XCTAssertEqual(
            outcome(chart(#""kind": "line", "yAxis": {"scale": "log"}, "x": [1, 2], "plots": [{"title": "A", "values": [1e-300, 1e15]}]"#)),
            "rendered")
    }

    // MARK: strings

    func testSurrogatesNULsAndNoncharactersNeverTrapAndNeverReachTheHTML() throws {
        XCTAssertEqual(outcome(#"{"title": "\uD800\u0041", "elements": []}"#), "rendered")
        XCTAssertEqual(outcome(#"{"title": "\uDC00 \uD83D\uDE00 \uD800", "elements": []}"#), "rendered")
        let document = try DocumentDecoder.decode(
            Data(#"{"title": "a\u0000b\uFFFEc\u0007d", "elements": [{"type": "paragraph", "text": "x\u0000y"}]}"#.utf8), format: .json)
        let html = try document.html()
        for bad in ["\u{0}", "\u{FFFE}", "\u{7}"] { XCTAssertFalse(html.contains(bad)) }
        XCTAssertTrue(html.contains("a\u{FFFD}b\u{FFFD}c\u{FFFD}d"))
        let text = try TestSupport.pdfText(try document.pdf())
        XCTAssertTrue(text.contains("y"), "text after a NUL is kept")
        XCTAssertEqual(
            outcome("{\"title\": \"T\", \"elements\": [], \"x\": \"\\q\"}"),
            "the input is not valid JSON: invalid JSON at line 1, column 39: unknown escape \\q")
        XCTAssertEqual(outcome("title: \"\u{0}\"\n"), "the input is not UTF-8 text")
    }

    func testInvalidUTF8IsAnError() {
        var bytes = Data("title: T".utf8)
        bytes.append(contentsOf: [0xFF, 0xFE, 0x0A])
        XCTAssertEqual(FuzzHarness.run(bytes), "the input is not UTF-8 text")
        var json = Data(#"{"title": "T"#.utf8)
        json.append(contentsOf: [0xC3, 0x28])
        json.append(contentsOf: Data(#"", "elements": []}"#.utf8))
        XCTAssertNil(FuzzHarness.run(json), "invalid UTF-8 inside a JSON string becomes U+FFFD")
    }

    // MARK: structure and resources

    func testNestingIsBoundedBeforeParsing() {
        let deepJSON = #"{"title": "T", "elements": "# + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "}"
        XCTAssertTrue(outcome(deepJSON).contains("nested more than 64 levels deep"))
        let flow = "title: T\nelements:\n  - " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "\n"
        XCTAssertEqual(outcome(flow), "the input is nested more than 64 levels deep (line 3)")
        let compact = "title: T\nelements:\n  " + String(repeating: "- ", count: 5000) + "x\n"
        XCTAssertEqual(outcome(compact), "the input is nested more than 64 levels deep (line 3)")
        let block = "title: T\nelements:\n" + (1..<300).map { String(repeating: "  ", count: $0) + "-\n" }.joined()
        XCTAssertTrue(outcome(block).hasPrefix("the input is nested more than 64 levels deep"))
    }

    /// Found by `make fuzz`: flow mappings nested thousands deep behind text that a quote-aware
    /// pre-scan took for a quoted string overflowed the YAML parser's stack.
    func testNestingHiddenBehindQuotesIsStillCounted() throws {
        let found = try Data(contentsOf: TestSupport.root.appendingPathComponent("Fuzz/corpus/crash-yams-flow-nesting.yaml"))
        XCTAssertEqual(FuzzHarness.run(found), "the input is nested more than 64 levels deep (line 3)")
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        for hiding in ["title: 'x\\'\nelements: ", "title: a:\"b\nelements: ", "title: x # \"\nelements: ", "a: |\n  \"\nelements: "] {
            XCTAssertTrue(outcome(hiding + deep + "\n").contains("nested more than 64 levels deep"), hiding)
        }
    }

    func testYAMLAliasBombsStopBeforeExpanding() {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        yaml += "title: T\nelements: []\n"
        // Refused once repeats pass 99 % of the first 400,000 values (one alias here repeats 111,111):
        // the 10 billion values are never counted, let alone made.
        let message = outcome(yaml)
        XCTAssertTrue(message.hasPrefix("YAML aliases and files included more than once repeat "), message)
        XCTAssertTrue(message.hasSuffix(" % may be repeats"), message)
        let counted = message.split(separator: " ").compactMap { Int($0) }
        XCTAssertEqual(counted.count, 4, message)
        XCTAssertLessThan(counted.dropFirst().first ?? .max, 520_000, message)
    }

    /// r60: a file of aliases just under one file's bound, included 40 times, reached 7.4 GB: the
    /// bound is one for the document and everything it includes, and a repeated include repeats.
    func testOneBudgetAcrossIncludes() throws {
        let folder = try TestSupport.temporaryDirectory()
        var aliases = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...3 {
            aliases += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        // 300 lines of 10 repeats of 1,111 values: 3.3 million values, nearly all repeats.
        for line in 0..<300 { aliases += "b\(line): [" + Array(repeating: "*a2", count: 10).joined(separator: ", ") + "]\n" }
        try aliases.write(to: folder.appendingPathComponent("aliases.yaml"), atomically: true, encoding: .utf8)
        // A small file of literal values: 50,000 of them, included 40 times.
        let literal = "[" + Array(repeating: "1", count: 50_000).joined(separator: ", ") + "]\n"
        try literal.write(to: folder.appendingPathComponent("numbers.yaml"), atomically: true, encoding: .utf8)
        for (name, expected) in [
            ("aliases.yaml", "aliases.yaml\" makes the document too large: YAML aliases"),
            ("numbers.yaml", "numbers.yaml\" is included once too often: YAML aliases"),
        ] {
            let input = folder.appendingPathComponent("input-\(name)")
            try ("title: T\nparts:\n" + String(repeating: "  - {$include: \(name)}\n", count: 40) + "elements: []\n")
                .write(to: input, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try SourceDocument.read(input.path)) { error in
                let message = (error as? FolioError)?.message ?? "\(error)"
                XCTAssertTrue(message.contains(expected), message)
                XCTAssertTrue((error as? FolioError)?.path.hasPrefix("parts[") == true, "\(error)")
            }
        }
    }

    /// Includes compose: a list item may include a list, whose items may include more.
    func testIncludedListItemsIncludeLists() throws {
        let folder = try TestSupport.temporaryDirectory()
        try "- {type: paragraph, text: One}\n- {$include: more.yaml}\n".write(
            to: folder.appendingPathComponent("some.yaml"), atomically: true, encoding: .utf8)
        try "- {type: paragraph, text: Two}\n- {type: paragraph, text: Three}\n".write(
            to: folder.appendingPathComponent("more.yaml"), atomically: true, encoding: .utf8)
        let input = folder.appendingPathComponent("doc.yaml")
        try "title: T\nelements:\n  - {$include: some.yaml}\n  - {type: paragraph, text: Four}\n".write(
            to: input, atomically: true, encoding: .utf8)
        let tree = try SourceDocument.read(input.path).tree
        let document = try DocumentDecoder.decode(tree)
        XCTAssertEqual(document.elements.map { $0.content?.textContent.joined() ?? "" }, ["One", "Two", "Three", "Four"])
    }

    func testYAMLMergeKeysAndAnchorsStillWork() throws {
        let yaml = """
            title: T
            base: &tile {title: Steps, value: "1"}
            elements:
              - type: widgets
                items:
                  - <<: *tile
                    value: "42"
            """
        // The document's own `base` key is unknown: lenient turns it into a warning.
        var warnings: [String] = []
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml, lenient: true) { warnings.append("\($0)") }
        XCTAssertEqual(
            warnings,
            [
                "base: unknown key; expected one of: attachments, elements, footer, footnotes, header, metadata, page, protection, "
                    + "strings, theme, title, watermark"
            ]
        )
        guard case .widgets(let widgets) = document.elements[0] else { return XCTFail() }
        XCTAssertEqual(widgets.items[0].title, "Steps")
        XCTAssertEqual(widgets.items[0].value, "42")
    }

    func testUnknownAndDuplicateKeysAreErrors() {
        XCTAssertEqual(outcome(#"{"titel": "T", "elements": []}"#), #"titel: unknown key; did you mean "title"?"#)
        XCTAssertEqual(outcome(#"{"title": "T", "titel": "U", "elements": []}"#), #"titel: unknown key; did you mean "title"?"#)
        XCTAssertEqual(
            outcome(chart(#""kind": "bar", "categories": ["a"], "series": [{"title": "S", "values": [1]}], "yaxis": {"max": 3}"#)),
            #"elements[0].yaxis: unknown key; did you mean "yAxis"?"#)
        XCTAssertEqual(
            outcome(##"{"title": "T", "elements": [{"type": "paragraph", "text": "a", "colour": "#fff"}]}"##),
            "elements[0].colour: unknown key; expected one of: align, keepTogether, language, text, type")
        XCTAssertEqual(
            outcome(#"{"title": "T", "title": "U"}"#),
            #"the input is not valid JSON: invalid JSON at line 1, column 16: the key "title" appears twice in one object"#)
        XCTAssertEqual(outcome("title: T\ntitle: U\n"), #"the key "title" appears twice in one mapping (line 2)"#)
        // A null optional member is absent, not unknown; a misspelling deep in a list is found
        // among members that were read, and the suggestion is a key the model asked for but missed.
        XCTAssertEqual(
            outcome(
                #"{"title": "T", "header": null, "elements": [{"type": "paragraph", "text": "a"}, "#
                    + #"{"type": "paragraph", "text": "b", "algin": "left"}]}"#),
            #"elements[1].algin: unknown key; did you mean "align"?"#)
        XCTAssertEqual(
            outcome(#"{"title": "T", "header": null, "elements": [{"type": "paragraph", "text": "a", "align": null}]}"#), "rendered")
    }

    func testChartsAndTablesThatWouldTakeMinutesAreCapped() throws {
        try TestSupport.integrationOnly()
        let segments = (0..<1001).map { #"{"title": "s\#($0)", "value": 1}"# }.joined(separator: ",")
        XCTAssertEqual(
            outcome(chart(#""kind": "pie", "segments": ["# + segments + "]")),
            "elements[0].segments: has 1001 segments; at most 1000 are allowed")
        let cell = String(repeating: "x ", count: 5001)
        XCTAssertEqual(
            outcome(#"{"title": "T", "elements": [{"type": "table", "rows": [["a"], ["b", ""# + cell + #""]]}]}"#),
            "elements[0].rows[1][1]: a table cell holds at most 10000 characters; put longer text in a paragraph")
        let values = Array(repeating: "[1, 2]", count: 1000).joined(separator: ",")
        let plots = (0..<201).map { _ in #"{"title": "p", "values": ["# + values + "]}" }.joined(separator: ",")
        let categories = (0..<1000).map { #""c\#($0)""# }.joined(separator: ",")
        XCTAssertEqual(
            outcome(chart(#""kind": "range", "categories": ["# + categories + #"], "plots": ["# + plots + "]")),
            "elements[0].plots: has 402000 values; at most 200000 are allowed")
        // A row far taller than a page, in narrow columns: shaped once, not once per page.
        let tall = Table(rows: [Array(repeating: String(repeating: "x ", count: 2500), count: 20)])
        let start = Date()
        let report = try Document(title: "T", elements: [.table(tall)]).pdfWithReport().report
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        XCTAssertGreaterThan(report.pages, 10)
    }

    func testSizesAreBoundedBeforeMemoryIsSpent() {
        let wide = "[" + Array(repeating: #""c""#, count: 600).joined(separator: ",") + "]"
        XCTAssertEqual(
            outcome(#"{"title": "T", "elements": [{"type": "table", "rows": ["# + wide + "]}]}"),
            "elements[0].rows: has 600 columns; at most 500 are allowed")
        let long = String(repeating: "x", count: InputLimits.stringScalars + 1)
        XCTAssertEqual(outcome(#"{"title": ""# + long + #"", "elements": []}"#), "title: is longer than 2000000 characters")
    }

    // MARK: images

    private func imageOutcome(_ bytes: Data) -> String {
        let document = #"{"title": "T", "elements": [{"type": "image", "alt": "a", "data": ""# + bytes.base64EncodedString() + #""}]}"#
        return outcome(document)
    }

    private static func png(width: UInt32, height: UInt32, truncated: Bool = false, corrupt: Bool = false) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            var crc = typed.withUnsafeBufferPointer { ImageData.crc32($0) }
            if corrupt && type == "IDAT" { crc ^= 1 }
            return withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init) + typed + withUnsafeBytes(of: crc.bigEndian, Array.init)
        }
        let header = withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init) + [8, 2, 0, 0, 0]
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
        // One row of one black RGB pixel, stored (not compressed): zlib header, a stored block, Adler-32.
        bytes += chunk("IDAT", [0x78, 0x01, 0x01, 0x04, 0x00, 0xFB, 0xFF, 0, 0, 0, 0, 0x00, 0x04, 0x00, 0x01])
        if !truncated { bytes += chunk("IEND", []) }
        return Data(bytes)
    }

    func testImagesAreCheckedFromTheirHeaderBeforeDecoding() {
        XCTAssertEqual(imageOutcome(Self.png(width: 1, height: 1)), "rendered")
        XCTAssertEqual(
            imageOutcome(Self.png(width: 30000, height: 30000)),
            "elements[0].data: the image is 30000 × 30000 pixels; at most 30000 a side and 50 megapixels are allowed")
        XCTAssertEqual(imageOutcome(Self.png(width: 1, height: 1, truncated: true)), "elements[0].data: the PNG file is cut short")
        XCTAssertEqual(
            imageOutcome(Self.png(width: 1, height: 1, corrupt: true)),
            "elements[0].data: the PNG file is corrupt (its IDAT chunk fails its checksum)")
        let jpeg = (try? Data(contentsOf: TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/cmyk-red-blue.jpg"))) ?? Data()
        XCTAssertEqual(imageOutcome(jpeg.prefix(jpeg.count - 40)), "elements[0].data: the JPEG file is cut short")
    }

    func testCMYKJPEGsPrintInTheirOwnColours() throws {
        let jpeg = TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/cmyk-red-blue.jpg")
        let document = Document(
            title: " ", footer: " ",
            elements: [
                .image(ImageBlock(source: .data(try Data(contentsOf: jpeg)), width: Length(points: 400), alt: "red | blue"))
            ])
        let pixels = try TestSupport.rasterize(try document.pdf(), dpi: 20)
        // The left half of the picture is red, the right half blue: find both, never their negatives.
        let red = pixels.contains { $0.r > 200 && $0.g < 60 && $0.b < 60 }
        let blue = pixels.contains { $0.b > 150 && $0.r < 60 && $0.g < 80 }
        let cyan = pixels.contains { $0.r < 60 && $0.g > 200 && $0.b > 200 }
        XCTAssertTrue(red && blue, "red and blue are drawn")
        XCTAssertFalse(cyan, "no inverted (cyan) pixels")
    }

    // MARK: links and markup

    func testLinksThatCouldBreakThePDFOrTheHTML() throws {
        XCTAssertTrue(
            outcome(#"{"title": "T", "elements": [{"type": "paragraph", "text": "[x](https://a.org/\u0000)"}]}"#)
                .contains("must be an http(s) or mailto URL"))
        XCTAssertTrue(
            outcome(#"{"title": "T", "elements": [{"type": "paragraph", "text": "[x](javascript:alert(1))"}]}"#)
                .contains("must be an http(s) or mailto URL"))
        // Parentheses, quotes and non-ASCII in a URL: the PDF stays valid and the link clickable.
        let document = Document(
            title: "T", elements: [.paragraph(Paragraph("[wiki](https://en.wikipedia.org/wiki/Care_(medicine)?q='é'&x=(1))"))])
        let pdf = try document.pdf()
        let url = try TestSupport.temporaryFile(pdf, name: "link.pdf")
        let check = try TestSupport.run("qpdf", ["--check", url.path])
        XCTAssertEqual(check.status, 0, check.text + check.stderr)
        XCTAssertTrue(
            try TestSupport.readablePDF(pdf).contains(
                "/URI (https://en.wikipedia.org/wiki/Care_%28medicine%29?q=%27%C3%A9%27&x=%281%29)"))
    }

    func testMarkupParsingIsLinear() {
        func markup(_ n: Int) -> String {
            String(repeating: "*a ", count: 2 * n) + String(repeating: "[a](", count: 2 * n) + String(repeating: "[](", count: n)
        }
        // Four times the text costs about four times the time, not sixteen (a ratio, not a bound in seconds).
        func seconds(_ text: String) -> Double {
            let start = Date()
            _ = RichText(text)
            return Date().timeIntervalSince(start)
        }
        let small = seconds(markup(2_000))
        let large = seconds(markup(8_000))
        XCTAssertLessThan(large, 10 * small + 0.05, "parsing grows faster than the text")
        let stars = markup(4_000)
        let text = RichText(stars)
        XCTAssertEqual(text.plainText, stars.replacingOccurrences(of: "\\", with: ""))
        XCTAssertEqual(
            RichText("**bold** *it* [l](https://x.org) \\*lit\\*").runs,
            [
                TextRun("bold", bold: true), TextRun(" "), TextRun("it", italic: true), TextRun(" "),
                TextRun("l", link: LinkTarget("https://x.org")), TextRun(" *lit*"),
            ])
        XCTAssertEqual(RichText("a * b ** c").plainText, "a * b ** c")
        XCTAssertEqual(
            RichText(RichText.escaped("[Pay here](https://evil.example) *x*")).runs,
            [TextRun("[Pay here](https://evil.example) *x*")])
        // Escaped text reads as itself whatever surrounds the markup characters: accents, a
        // combining mark after one, emoji, a backslash of its own, markup at either end.
        for literal in [
            "_Zoë_ (née **Å**): 5*3", "*\u{301}x", "👩‍⚕️[a](b)👩‍⚕️", "C:\\path\\*", "**", "", "plain ünïcode", "[",
        ] {
            XCTAssertEqual(RichText(RichText.escaped(literal)).plainText, literal, literal)
            XCTAssertTrue(RichText(RichText.escaped(literal)).runs.allSatisfy { !$0.bold && !$0.italic && $0.link == nil }, literal)
        }
    }

    func testLongTextStaysFast() throws {
        try TestSupport.integrationOnly()
        let word = String(repeating: "x", count: 10000)
        let table = Document(title: "T", elements: [.table(Table(header: ["A", "B", "C"], rows: [[word, "y", word]]))])
        var start = Date()
        let pdf = try table.pdf()
        XCTAssertLessThan(Date().timeIntervalSince(start), 15, "10,000-character words in cells")
        XCTAssertEqual(try TestSupport.pdfText(pdf).filter { $0 == "x" }.count, 20000, "every character is drawn")
        let longer = Document(title: "T", elements: [.table(Table(rows: [[word + word + word + word]]))])
        XCTAssertThrowsError(try longer.pdf()) {
            XCTAssertEqual("\($0)", "elements[0].rows[0][0]: a table cell holds at most 10000 characters; put longer text in a paragraph")
        }
        let paragraph = String(repeating: "Care plan reviewed, **steps** up. ", count: 6000)
        start = Date()
        _ = try Document(title: "T", elements: [.paragraph(Paragraph(paragraph))]).html()
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "200 KB paragraph in HTML")
        start = Date()
        let long = try Document(title: "T", elements: [.paragraph(Paragraph(paragraph))]).pdf()
        XCTAssertLessThan(Date().timeIntervalSince(start), 15, "200 KB paragraph in PDF")
        XCTAssertTrue(try TestSupport.pdfText(long).contains("Care plan reviewed"))
        // Message text goes through the same pieces: 500 KB with links took 25 s in one layout.
        let linked = String(repeating: "Call [the clinic](https://example.org/c) on *Monday*. ", count: 9000)
        start = Date()
        let message = try Document(title: "T", elements: [.message(Message(title: "Note", text: RichText(linked)))]).pdf()
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "500 KB message with links in PDF")
        XCTAssertTrue(try TestSupport.pdfText(message).contains("Call the clinic on Monday"))
    }

    func testNestedEachOverLongRecordListsIsBounded() throws {
        let template = try DocumentTemplate(
            data: Data(
                """
                title: T
                elements:
                  - type: table
                    rows:
                      - $each: list
                        $as: a
                        $items:
                          - $each: list
                            $as: b
                            $item: ["{{a}}", "{{b}}"]
                """.utf8), format: .yaml)
        let record = TreeValue.object([("list", .array((0..<100).map { .number(Double($0)) }))])
        XCTAssertThrowsError(try template.bind(record, number: 1, maximumValues: 5000)) {
            XCTAssertEqual("\($0)", "elements[0].rows[0].$items[0].$item[1]: the bound document would hold more than 5000 values")
        }
        XCTAssertNoThrow(try template.bind(record, number: 1, maximumValues: 50000))
        XCTAssertEqual(DocumentTemplate.maximumValues, 2_000_000)
    }

    // MARK: HTML

    func testThemeValuesCannotInjectMarkup() throws {
        XCTAssertEqual(
            outcome(#"{"title": "T", "theme": {"fontFamily": "x</style><script>alert(1)</script>"}, "elements": []}"#),
            #"theme.fontFamily: a font family is 1 to 100 letters, digits, spaces, hyphens, underscores or periods, such as "DejaVu Sans""#)
        // A Swift caller can still put anything into a Theme: the CSS writer escapes it as a CSS string.
        var theme = Theme.standard
        theme.fontFamily = "x\"</style><script>alert(1)</script>"
        for output in HTMLRenderer.Output.allCases {
            let html = try Document(title: "T", elements: []).html(options: RenderOptions(theme: theme, html: output))
            XCTAssertFalse(html.contains("<script"), "\(output)")
            XCTAssertEqual(html.components(separatedBy: "</style>").count, 2, "one style element, closed once")
        }
    }

    // MARK: dates and axes

    func testTimestampsAreReadTheWayTheDataMeansThem() {
        XCTAssertEqual(ISODate.parse("2026-11-14T08:00:00.250Z"), 1_794_643_200.25)
        XCTAssertEqual(ISODate.parse("2026-11-14 08:00:00"), 1_794_643_200)
        XCTAssertEqual(ISODate.parse("2026-11-14T09:00:00+01:00"), 1_794_643_200)
        XCTAssertEqual(ISODate.parse("2026-11-14T03:00:00-0500"), 1_794_643_200)
        XCTAssertEqual(ISODate.parse("2026-11-14"), 1_794_614_400)
        for bad in [
            "2026-11-14T25:00", "2026-02-30", "2026-11-14T08:00:00.Z", "2026-11-14T08:00:00+1", "14/11/2026", "2026-11-14T08:00:00 Z",
        ] {
            XCTAssertNil(ISODate.parse(bad), bad)
        }
        XCTAssertEqual(
            outcome(chart(#""kind": "line", "x": ["2026-11-14", "2026-11-14T25:00"], "plots": [{"title": "A", "values": [1, 2]}]"#)),
            #"elements[0].x[1]: "2026-11-14T25:00" is not an ISO 8601 date such as 2026-11-14 or 2026-11-14T08:00:00.250Z"#)
    }

    func testQuotedNumbersStayCategoriesUnlessTheAxisSaysOtherwise() throws {
        func x(_ axis: String) throws -> XValues? {
            let json = chart(#""kind": "line", "x": ["1", "2", "5", "10"], "plots": [{"title": "A", "values": [1, 2, 3, 4]}]"# + axis)
            guard case .chart(let chart) = try DocumentDecoder.decode(Data(json.utf8), format: .json).elements[0],
                case .line(let line) = chart.body
            else { return nil }
            return line.x
        }
        XCTAssertEqual(try x(""), .categories(["1", "2", "5", "10"]))
        XCTAssertEqual(try x(#", "xAxis": {"type": "number"}"#), .numbers([1, 2, 5, 10]))
        XCTAssertEqual(
            outcome(chart(#""kind": "line", "xAxis": {"type": "date"}, "x": ["1"], "plots": [{"title": "A", "values": [1]}]"#)),
            #"elements[0].x[0]: "1" is not an ISO 8601 date such as 2026-11-14 or 2026-11-14T08:00:00.250Z"#)
    }

    // MARK: layout

    func testHeaderAndFooterThatDoNotFitAreReported() throws {
        let document = Document(title: "T", header: "H", page: PageSetup(margins: PageSetup.Margins(all: Length(points: 8))), elements: [])
        let report = try document.pdfWithReport().report
        XCTAssertEqual(report.warnings.map(\.path), ["header", "footer"])
        let roomy = Document(title: "T", header: String(repeating: "A long header ", count: 20), elements: [])
        XCTAssertEqual(try roomy.pdfWithReport().report.warnings, [])
        XCTAssertTrue(try TestSupport.pdfText(try roomy.pdf()).contains("A long header A long header"), "wrapped, not cut")
    }

    func testTranslucentSeriesKeepReadableValueLabels() throws {
        let color = Color(red: 0.2, green: 0.6, blue: 1, alpha: 0.5)
        let label = color.readable(on: .white)
        XCTAssertEqual(label.alpha, 1)
        XCTAssertGreaterThanOrEqual(label.contrast(with: .white), 4.5)
    }
}
