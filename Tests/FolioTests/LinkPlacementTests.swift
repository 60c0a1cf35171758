import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Every link's click area lies on its words (#42): for each annotation, the words of the page
/// under its rectangle are the link's own words, in every container and script.
final class LinkPlacementTests: XCTestCase {
    /// Each link annotation of `pdf`'s first page: its description (/Contents) and the words whose
    /// middle lies inside one of its rectangles.
    private func linksAndTheirWords(_ pdf: Data) throws -> [(description: String, words: [String])] {
        let file = try TestSupport.temporaryFile(pdf, name: "links.pdf")
        let json = try TestSupport.run("qpdf", ["--json=2", "--json-key=qpdf", file.path]).text
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let objects = try XCTUnwrap((root["qpdf"] as? [Any])?.last as? [String: Any]).compactMapValues {
            ($0 as? [String: Any])?["value"] as? [String: Any]
        }
        let pageHeight = 841.89
        let words = try TestSupport.words(pdf)
        let wordHeights = try TestSupport.run("pdftotext", ["-bbox", "-f", "1", "-l", "1", file.path, "-"]).text
            .matches(of: #/yMax="([\d.]+)">/#).compactMap { Double($0.output.1) }
        return objects.values.filter { $0["/Subtype"] as? String == "/Link" }.compactMap { link in
            guard let rect = link["/Rect"] as? [Double], rect.count == 4, let description = link["/Contents"] as? String else { return nil }
            let (left, right) = (rect[0], rect[2])
            let (top, bottom) = (pageHeight - rect[3], pageHeight - rect[1])
            let inside = zip(words, wordHeights).filter { word, yMax in
                let middleX = (word.xMin + word.xMax) / 2
                let middleY = (word.yMin + yMax) / 2
                return (left...right).contains(middleX) && (top...bottom).contains(middleY)
            }
            return (String(description.dropFirst(2)), inside.map(\.0.text))
        }
    }

    func testEveryLinkLiesOnItsWordsInEveryContainerAndScript() throws {
        let yaml = """
            title: Links
            header: Riverside ward
            metadata: {language: en}
            elements:
              - {type: paragraph, text: "Start with [plain link](https://example.org/a) here."}
              - {type: paragraph, align: center, text: "A centred [centre link](https://example.org/b) line."}
              - type: columns
                items:
                  - {type: paragraph, text: "Left column with [column link](https://example.org/c) words."}
                  - {type: message, title: Note, text: "Message with [boxed link](https://example.org/d) inside."}
              - {type: message, title: Tip, text: "Body with [tip link](https://example.org/e) here."}
              - type: table
                header: [Name, Address]
                rows: [[A, "see https://example.org/cell"]]
              - {type: list, items: ["Item with [item link](https://example.org/f) text"]}
              - {type: paragraph, text: "هذا نص عربي مع [English words](https://example.org/g) في الوسط."}
              - {type: paragraph, text: "[عربي رابط](https://example.org/h) في بداية السطر."}
              - {type: paragraph, text: "请参阅[用药指南](https://example.org/i)了解详情。"}
            """
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let links = try linksAndTheirWords(try document.pdf(options: TestSupport.sampleOptions))
        XCTAssertEqual(links.count, 10, "\(links)")
        for (description, words) in links {
            let said = TestSupport.normalized(words.joined(separator: " "))
            let meant = TestSupport.normalized(description)
            if description.contains("用药") {
                // pdftotext gives CJK text as one word with its neighbours: the link's words are inside it.
                XCTAssertTrue(said.contains(meant), "\(description): under its area: \(words)")
            } else {
                // The same letters (pdftotext gives Arabic letter by letter, in visual order).
                XCTAssertEqual(
                    said.filter { !$0.isWhitespace }.sorted(), meant.filter { !$0.isWhitespace }.sorted(),
                    "\(description): under its area: \(words)")
            }
        }
    }
}
