import Foundation
import XCTest

@testable import Folio
@testable import FolioHTML
@testable import FolioLayout
@testable import FolioServer
@testable import FolioTemplate

/// A custom element for the kinds' samples.
private struct Stamp: CustomElement {
    var typeName: String { "stamp" }
    var alternativeText: String? { "Reviewed stamp" }
    func height(forWidth width: Double, style: ElementStyle) -> Double { 20 }
    func draw(on canvas: ElementCanvas, width: Double, height: Double) {
        canvas.text("Reviewed", x: 0, y: 2, size: 10, bold: true, color: .black, anchor: .start)
    }
}

/// Every kind of block has all its ends: a model, a layout for the PDF, an HTML writer, and a
/// place in every list of kinds (docs/input-format.md, the DocC topics, `folio --help`,
/// the OpenAPI schema, error messages). Adding a kind to `Block` makes the `switch` below fail
/// to compile until it has a sample; then each test here names what the kind still lacks.
final class BlockKindTests: XCTestCase {
    /// One block of `kind`, with what a reader would see.
    static func sample(of kind: Block.Kind) -> Block {
        switch kind {
        case .subtitle: return .subtitle(Subtitle("Pain this week", id: "pain"))
        case .paragraph: return .paragraph(Paragraph("Mean adherence was **64%**; see [pain](#pain)."))
        case .image: return .image(ImageBlock(source: .file("logo.png"), alt: "The clinic's logo", caption: "Logo"))
        case .svg:
            let markup = #"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="20"><text y="15">Signed</text></svg>"#
            return .svg(SVGBlock(source: .markup(markup), alt: "Signature"))
        case .table: return .table(Table(header: ["Medication", "Dose"], rows: [["Metformin", "500 mg"]]))
        case .chart:
            return .chart(
                .bar(BarChart(categories: ["Mon", "Tue"], series: [ChartSeries(title: "Steps", values: [3, 5])]), title: "Steps"))
        case .message: return .message(Message(title: "Keep it up", text: RichText("Two goals met."), kind: .tip))
        case .widgets: return .widgets(Widgets([Widgets.Item(title: "Steps", value: "7,412")]))
        case .pageBreak: return .pageBreak
        case .section: return .section(Section(title: "Appendix", label: "A"))
        case .columns: return .columns(Columns([.paragraph(Paragraph("Left")), .paragraph(Paragraph("Right"))]))
        case .custom: return .custom(CustomBlock(Stamp()))
        case .barcode: return .barcode(Barcode(symbology: .qr, data: "MRN-104233", caption: "Patient label"))
        case .list:
            return .list(ListBlock(ordered: true, items: [.text("Walk **ten** minutes"), .list(ListBlock(["Left leg"])), .text("Rest")]))
        case .pdf:
            return .pdf(
                AppendedPDF(
                    path: "appended/consent.pdf", alt: "Consent to share health information, signed Nov 2, 2026",
                    title: "Consent", fit: .frame))
        case .contents: return .contents(Contents(title: "In this report"))
        }
    }

    private var samples: [(Block.Kind, Block)] { Block.Kind.allCases.map { ($0, BlockKindTests.sample(of: $0)) } }

    func testEveryKindHasALayoutAndAnHTMLWriterAndRendersInBoth() throws {
        for (kind, block) in samples {
            XCTAssertEqual(block.kind, kind)
            if let content = block.content {
                XCTAssertTrue(content is any LaidOutBlock, "\(kind) has no layout: add Blocks/<Kind>+Layout.swift in FolioLayout")
                XCTAssertNotNil(block.laidOut, "\(kind): Block.laidOut (FolioLayout/LaidOutBlock.swift) gives no layout")
                XCTAssertEqual(
                    block.prepared != nil, content is any PreparedContent,
                    "\(kind): Block.prepared (FolioInput/PreparedContent.swift) gives the block exactly when it is PreparedContent")
                XCTAssertNotNil(block.htmlWritten, "\(kind): Block.htmlWritten (FolioHTML/HTMLBlock.swift) gives no HTML writer")
                let built = (content as? any BlockConvertible)?.block
                XCTAssertEqual(built?.kind, kind, "\(kind): the document builder takes its model as it is (BlockConvertible)")
            } else {
                XCTAssertEqual(kind, .pageBreak, "only a page break has no model")
            }
            let document = Document(title: "Kinds", elements: [.subtitle(Subtitle("Pain", id: "pain")), block])
            let options = RenderOptions(baseDirectory: TestSupport.samples)
            let pdf = try document.render(as: .pdf, options: options)
            let html = String(decoding: try document.render(as: .html, options: options), as: UTF8.self)
                .replacing(#/<[^>]*>/#, with: "")
            let text = try TestSupport.pdfText(pdf)
            for word in block.textContent.flatMap({ $0.split(separator: " ") }) where !word.isEmpty {
                XCTAssertTrue(text.contains(word), "\(kind): \"\(word)\" is not in the PDF")
                XCTAssertTrue(html.contains(HTMLEscapingForTests.escape(String(word))), "\(kind): \"\(word)\" is not in the HTML")
            }
        }
    }

    /// Every kind draws something a reader sees in both outputs, whether or not it holds text: the
    /// page has more ink than without it, and the HTML has more markup than without it (a page break
    /// starts a page instead).
    func testEveryKindDrawsSomethingInBothOutputs() throws {
        let options = RenderOptions(baseDirectory: TestSupport.samples)
        let before: [Block] = [.subtitle(Subtitle("Pain", id: "pain"))]
        let without = Document(title: "Kinds", elements: before)
        let inkWithout = try TestSupport.rasterize(try without.render(as: .pdf, options: options), dpi: 30).filter(\.isInk).count
        /// The elements of an HTML page's body: a kind that writes nothing adds none (whatever its
        /// page's scope id, style rules or byte count).
        func bodyElements(_ data: Data) -> Int {
            let html = String(decoding: data, as: UTF8.self)
            guard let start = html.range(of: "<body"), let end = html.range(of: "</body>") else { return 0 }
            return html[start.upperBound..<end.lowerBound].matches(of: #/<[a-zA-Z]/#).count
        }
        let htmlWithout = bodyElements(try without.render(as: .html, options: options))
        for (kind, block) in samples {
            let document = Document(title: "Kinds", elements: before + [block])
            let pdf = try document.render(as: .pdf, options: options)
            if kind == .pageBreak {
                XCTAssertEqual(try TestSupport.pageTexts(pdf).count, 1, "a page break at the end starts no empty page")
                continue
            }
            let pages = try TestSupport.pageTexts(pdf).count
            let ink = try (1...max(pages, 1)).map { try TestSupport.rasterize(pdf, dpi: 30, page: $0).filter(\.isInk).count }.reduce(0, +)
            XCTAssertGreaterThan(ink, inkWithout, "\(kind) draws nothing on the page")
            let html = bodyElements(try document.render(as: .html, options: options))
            XCTAssertGreaterThan(html, htmlWithout, "\(kind) writes no element in the HTML")
        }
    }

    func testEveryListOfKindsHasEveryKind() throws {
        let names = Block.typeNames
        XCTAssertEqual(names, Block.Kind.allCases.filter { $0 != .custom }.map(\.rawValue))
        let readme = try String(contentsOf: TestSupport.root.appendingPathComponent("docs/input-format.md"), encoding: .utf8)
        let topics = try String(
            contentsOf: TestSupport.root.appendingPathComponent("Sources/FolioModel/FolioModel.docc/FolioModel.md"), encoding: .utf8)
        let served = String(decoding: OpenAPIDocument.yaml, as: UTF8.self)
        for name in names {
            XCTAssertTrue(readme.contains("| `\(name)` |"), "docs/input-format.md has no row for \(name)")
        }
        XCTAssertTrue(served.contains("enum: [" + names.joined(separator: ", ") + "]"), "the served OpenAPI schema lists every type")
        for (kind, block) in samples {
            guard let content = block.content else { continue }
            let typeName = String(describing: type(of: content))
            XCTAssertTrue(
                topics.contains("``\(typeName)``"), "the DocC topics (FolioModel.md) do not list \(typeName), the model of \(kind)")
        }
        // The command's help and the error for an unknown type say them all.
        let help = try TestSupport.run(TestSupport.folioBinary.path, ["--help"]).text.split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
        XCTAssertTrue(help.contains(names.joined(separator: ", ")), help)
        XCTAssertThrowsError(try DocumentDecoder.decode(Data(#"{"elements": [{"type": "slide"}]}"#.utf8), format: .json)) {
            XCTAssertTrue("\($0)".hasSuffix("expected one of: " + names.joined(separator: ", ")), "\($0)")
        }
    }

    func testNoSwitchOverBlocksHasADefault() throws {
        // A `default:` would let a new kind pass silently; the compiler is to point at every switch.
        for module in ["FolioModel", "FolioGraphics", "FolioLayout", "FolioHTML", "FolioPDF", "Folio"] {
            let folder = TestSupport.root.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                var switchOverBlocks = false
                for line in source.split(separator: "\n") {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    if trimmed.hasPrefix("switch ") {
                        switchOverBlocks =
                            ["switch block", "switch item", "switch self"].contains { trimmed.hasPrefix($0) }
                            && (source.contains("case .paragraph") || source.contains("case .subtitle"))
                    }
                    if switchOverBlocks && trimmed.hasPrefix("default:") {
                        XCTFail("\(module)/\(file): a switch over blocks has a default: \(trimmed)")
                    }
                }
            }
        }
    }
}
