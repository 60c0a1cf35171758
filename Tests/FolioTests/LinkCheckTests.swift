import FolioData
import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Every place a document can hold text — found from the model, not listed by hand — is given a
/// `javascript:`, a `file:` and a UNC link in turn: the document is refused naming that field, or
/// its PDF and HTML carry no link that is not http(s), mailto or one of its own anchors (r61: a
/// footnote's text skipped the check every paragraph got).
final class LinkCheckTests: XCTestCase {
    /// Links no document may hold, written every way rich text writes a link.
    static let payload = "[a](javascript:alert(1)) [b](file:///etc/passwd) [c](\\\\\\\\server\\\\share) <javascript:alert(2)>"

    /// A document of every kind of block (the kinds' samples, but the custom element, which has no
    /// document form), a footnote cited from a paragraph, a page header and footer: its tree.
    private static func modelTree() throws -> (tree: TreeValue, message: Int) {
        var elements = Block.Kind.allCases.filter { $0 != .custom }.map { BlockKindTests.sample(of: $0) }
        elements.append(.paragraph(Paragraph("A cited note[^n].")))
        elements.append(.table(Table(header: ["Name", "Note"], rows: [["A", "See [^n]"]], caption: "Caption")))
        elements.append(.message(Message(title: "Title", text: RichText("Text"), kind: .alert)))
        var document = Document(title: "Links", elements: elements)
        document.footnotes = ["n": RichText("The note.")]
        document.header = RunningLine(left: "Header", right: "Page {page}")
        let data = try JSONEncoder().encode(document)
        return (try JSONTreeParser.parse(data), elements.count - 1)
    }

    /// Each string of `tree` with its field path as errors name it (`elements[3].rows[0][1]`).
    private static func strings(of tree: TreeValue, at path: String = "") -> [(path: String, steps: [SourceLocator.Step])] {
        func walk(_ value: TreeValue, _ path: String, _ steps: [SourceLocator.Step], into found: inout [(String, [SourceLocator.Step])]) {
            switch value {
            case .string: found.append((path, steps))
            case .array(let items):
                for (index, item) in items.enumerated() { walk(item, "\(path)[\(index)]", steps + [.index(index)], into: &found) }
            case .object(let members):
                for member in members where member.key != "type" {
                    walk(member.value, path.isEmpty ? member.key : "\(path).\(member.key)", steps + [.key(member.key)], into: &found)
                }
            default: break
            }
        }
        var found: [(String, [SourceLocator.Step])] = []
        walk(tree, path, [], into: &found)
        return found.map { (path: $0.0, steps: $0.1) }
    }

    /// `tree` with the value at `steps` replaced by `value`.
    private static func replacing(_ tree: TreeValue, at steps: ArraySlice<SourceLocator.Step>, with value: TreeValue) -> TreeValue {
        guard let step = steps.first else { return value }
        switch (tree, step) {
        case (.object(var members), .key(let key)):
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].value = replacing(members[index].value, at: steps.dropFirst(), with: value)
            }
            return .object(members)
        case (.array(var items), .index(let index)) where items.indices.contains(index):
            items[index] = replacing(items[index], at: steps.dropFirst(), with: value)
            return .array(items)
        default: return tree
        }
    }

    /// The links a PDF's annotations carry, read from its objects unpacked by qpdf.
    private static func pdfLinks(_ pdf: Data) throws -> [String] {
        let text = try TestSupport.readablePDF(pdf)
        return text.matches(of: #//URI \(([^)]*)\)/#).map { String($0.output.1) }
    }

    /// The links an HTML page's anchors carry.
    private static func htmlLinks(_ html: String) -> [String] {
        html.matches(of: #/href="([^"]*)"/#).map { String($0.output.1) }
    }

    func testEveryTextOfTheModelRefusesOrDropsLinksThatAreNotWebAddresses() throws {
        try TestSupport.integrationOnly()
        let (tree, message) = try Self.modelTree()
        let places = Self.strings(of: tree)
        XCTAssertGreaterThan(places.count, 40, "the model's texts were found")
        var refused: Set<String> = []
        let options = RenderOptions(baseDirectory: TestSupport.samples)
        for place in places {
            let hostile = Self.replacing(tree, at: place.steps[...], with: .string(Self.payload))
            do {
                let document = try DocumentDecoder.decode(hostile)
                try document.validate()
                let pdf = try document.pdf(options: options)
                for link in try Self.pdfLinks(pdf) {
                    XCTAssertTrue(Self.isWebOrMail(link), "\(place.path): PDF link \(link)")
                }
                for output in HTMLRenderer.Output.allCases {
                    let html = try document.html(options: RenderOptions(baseDirectory: TestSupport.samples, html: output))
                    for link in Self.htmlLinks(html) {
                        XCTAssertTrue(Self.isWebOrMail(link) || link.hasPrefix("#"), "\(place.path): HTML link \(link)")
                    }
                }
            } catch let error as FolioError {
                // Refused: in one line; a refused link names the field that holds it.
                XCTAssertFalse(error.message.contains("\n"), "\(place.path): \(error)")
                guard error.message.hasPrefix("link target ") else { continue }
                XCTAssertEqual(error.path, place.path, "\(place.path): \(error)")
                refused.insert(place.path)
            }
        }
        // Every text that reads links refuses one it may not hold, naming its field.
        for richText in ["footnotes.n", "elements[1].text"] { XCTAssertTrue(refused.contains(richText), "\(richText) took the links") }
        XCTAssertTrue(refused.contains { $0.hasPrefix("elements[") && $0.contains("].rows[0][1]") }, "a table cell took the links")
        XCTAssertTrue(refused.contains { $0.contains(".items[0]") }, "a list item took the links")
        XCTAssertTrue(refused.contains("elements[\(message)].text"), "a message took the links")
    }

    private static func isWebOrMail(_ link: String) -> Bool {
        link.hasPrefix("https://") || link.hasPrefix("http://") || link.hasPrefix("mailto:")
    }

    /// The one type a link is made of refuses what the text check refuses, whatever made the run.
    func testALinkTargetIsOnlyAWebAddressOrAnAnchor() {
        for allowed in ["https://x.example/a", "http://x.example", "mailto:care@x.example", "HTTPS://X.EXAMPLE", "#pain"] {
            XCTAssertEqual(LinkTarget(allowed)?.url, allowed)
        }
        for refused in [
            "javascript:alert(1)", "JavaScript:alert(1)", "file:///etc/passwd", "\\\\server\\share", "data:text/html,x", "vbscript:x",
            "https://x.example/a b", "https://x.example/\"onmouseover", "#", "", "//x.example", "https://x.example/\u{7}",
        ] {
            XCTAssertNil(LinkTarget(refused), refused)
        }
        let runs = RichText("[a](javascript:alert(1)) and [b](https://ok.example)").runs
        XCTAssertEqual(runs.compactMap(\.link?.url), ["https://ok.example"])
        XCTAssertEqual(runs.compactMap(\.rejectedLink), ["javascript:alert(1)"])
        XCTAssertEqual(runs.map(\.text).joined(), "a and b")
    }
}
