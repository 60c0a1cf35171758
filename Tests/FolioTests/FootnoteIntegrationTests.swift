import Foundation
import XCTest

@testable import Folio

/// Footnotes (`[^id]` citing the document's `footnotes`), checked as a reader meets them: each note at
/// the foot of the page that first cites it, below the citation, numbered in the order cited; the
/// citation a link to the note and the note a link back; a long note going on at the next page's foot
/// with every word once and in order; each a Note element with an /ID and a label; in HTML, endnotes
/// whose links all land.
final class FootnoteIntegrationTests: XCTestCase {
    private var folio: String { TestSupport.folioBinary.path }

    /// A paragraph of `count` words drawn from a few, different each time (a checker takes a line
    /// repeated at the top of pages for a running header).
    private func words(_ count: Int, _ generator: inout SeededGenerator) -> String {
        let pool = ["walked", "slept", "pain", "eased", "dose", "missed", "evening", "morning", "glucose", "steady", "reading", "clinic"]
        let text = (0..<count).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }.joined(separator: " ")
        return text.prefix(1).uppercased() + text.dropFirst() + "."
    }

    private func render(_ yaml: String, as format: String = "pdf") throws -> (output: TestSupport.Output, path: URL) {
        let folder = try TestSupport.temporaryDirectory()
        let input = folder.appendingPathComponent("document.yaml")
        try Data(yaml.utf8).write(to: input)
        let output = folder.appendingPathComponent("out.\(format)")
        return (try TestSupport.run(folio, ["render", input.path, "-o", output.path]), output)
    }

    /// Where the PDF's citations, notes and their links are (Fixtures/read_footnotes.py).
    private func places(_ pdf: URL) throws -> [[String]] {
        let script = TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/read_footnotes.py").path
        let read = try TestSupport.run(try TestSupport.python(), [script, pdf.path])
        XCTAssertEqual(read.status, 0, read.stderr)
        return read.text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }

    func testEachNoteSitsAtTheFootOfThePageThatFirstCitesItAndLinksBothWays() throws {
        var generator = SeededGenerator(seed: 11)
        var yaml = """
            title: Notes
            footer: "Page {page} of {pages}"
            footnotes:
              shift: "After a 12-hour shift on Wednesday."
              adherence: "Doses taken ÷ doses scheduled, from the dispensing log."
              late: "Taken two hours late."
              glucose: "Fasting, capillary; see [the log](https://example.org/log)."
            elements:
              - {type: paragraph, text: "Pain peaked mid-week[^shift]; adherence stayed above target[^adherence]."}

            """
        for _ in 0..<7 { yaml += "  - {type: paragraph, text: \"\(words(130, &generator))\"}\n" }
        yaml += "  - {type: table, header: [Day, \"Dose[^adherence]\"], rows: [[Mon, 500 mg], [Tue, \"500 mg[^late]\"]]}\n"
        for _ in 0..<5 { yaml += "  - {type: paragraph, text: \"\(words(130, &generator))\"}\n" }
        yaml += "  - {type: list, items: [\"Walk daily\", \"Check glucose[^glucose] each morning\"]}\n"
        let (output, pdf) = try render(yaml)
        XCTAssertEqual(output.status, 0, output.stderr)
        let found = try places(pdf)
        func entries(_ kind: String) -> [(number: Int, page: Int, y: Double)] {
            found.filter { $0.first == kind }.compactMap { fields in
                guard fields.count == 4, let number = Int(fields[1]), let page = Int(fields[2]), let y = Double(fields[3]) else {
                    return nil
                }
                return (number, page, y)
            }
        }
        let cites = entries("cite")
        let notes = entries("note")
        let refs = entries("ref")
        // Numbered in the order first cited; the note "adherence", cited twice, is 2 both times.
        XCTAssertEqual(cites.map(\.number), [1, 2, 2, 3, 4])
        XCTAssertEqual(notes.map(\.number).sorted(), [1, 2, 3, 4])
        for note in notes {
            let first = try XCTUnwrap(cites.first { $0.number == note.number })
            XCTAssertEqual(note.page, first.page, "note \(note.number) is not on the page that first cites it")
            XCTAssertLessThan(note.y, first.y, "note \(note.number) is above its citation")
            XCTAssertLessThan(note.y, 200, "note \(note.number) is not at the page's foot")
            let back = try XCTUnwrap(refs.first { $0.number == note.number })
            XCTAssertEqual(back.page, first.page, "note \(note.number) links back to another page")
        }
        XCTAssertGreaterThan(Set(notes.map(\.page)).count, 1, "the notes should fall on more than one page")
        XCTAssertEqual(entries("back").count, 4)
        let elements = found.filter { $0.first == "element" }
        XCTAssertEqual(elements.map { $0[1] }, ["note-1", "note-2", "note-3", "note-4"])
        XCTAssertTrue(elements.allSatisfy { $0.last == "1" }, "every Note has its label")
        let text = try TestSupport.pdfText(try Data(contentsOf: pdf))
        XCTAssertTrue(text.contains("After a 12-hour shift on Wednesday."))
        try TestSupport.assertPassesPDFUACheckers([pdf.path])
    }

    /// A note longer than a page goes on at the foot of the pages after, labelled as continued: its
    /// words all there, once and in order.
    func testALongNoteGoesOnAtTheNextPagesFoot() throws {
        var generator = SeededGenerator(seed: 5)
        let note = words(1_400, &generator)
        let (output, pdf) = try render(
            "title: Long note\nfootnotes:\n  long: \"\(note)\"\nelements:\n  - {type: paragraph, text: \"A claim[^long] with a long note.\"}\n  - {type: paragraph, text: After the note.}\n"
        )
        XCTAssertEqual(output.status, 0, output.stderr)
        let pages = try TestSupport.pageTexts(try Data(contentsOf: pdf))
        XCTAssertGreaterThanOrEqual(pages.count, 3)
        XCTAssertTrue(pages[0].contains("A claim"))
        XCTAssertTrue(pages[1].contains("1 (continued)"), pages[1])
        let noteWords = Set(note.lowercased().filter { $0.isLetter || $0 == " " }.split(separator: " ").map(String.init))
        let shown = pages.joined(separator: " ").lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init).filter {
            noteWords.contains($0)
        }
        let expected = note.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
        XCTAssertEqual(shown, expected, "the note's words are not all there once and in order")
        try TestSupport.assertPassesPDFUACheckers([pdf.path])
    }

    /// In HTML the notes are endnotes: each citation links to its note and each note back to its first
    /// citation; a note cited twice has two citations with different ids.
    func testTheHTMLListsTheNotesAtTheEnd() throws {
        let (output, html) = try render(
            "title: T\nfootnotes: {a: First note., b: \"Second, with [a link](https://example.org).\"}\nelements:\n  - {type: paragraph, text: \"One[^a] two[^b] again[^a].\"}\n",
            as: "html")
        XCTAssertEqual(output.status, 0, output.stderr)
        let page = String(decoding: try Data(contentsOf: html), as: UTF8.self)
        let citations = page.matches(of: #/<a id="([^"]+)" href="#([^"]+)" role="doc-noteref">(\d+)</a>/#)
        XCTAssertEqual(citations.map { String($0.output.3) }, ["1", "2", "1"])
        XCTAssertEqual(Set(citations.map { String($0.output.1) }).count, 3, "each citation has its own id")
        for citation in citations { XCTAssertTrue(page.contains("<li id=\"\(citation.output.2)\""), "no note \(citation.output.2)") }
        let backlinks = page.matches(of: #/href="#([^"]+)" role="doc-backlink"/#).map { String($0.output.1) }
        XCTAssertEqual(backlinks.count, 2)
        for target in backlinks { XCTAssertTrue(page.contains("id=\"\(target)\""), "no citation \(target)") }
        XCTAssertTrue(page.contains("role=\"doc-endnotes\""))
    }

    /// A citation of no note, a note citing another and an empty note are one line naming the field.
    func testWrongFootnotesNameTheField() throws {
        let cases: [(String, String)] = [
            ("footnotes: {a: x}\nelements: [{type: paragraph, text: \"One[^b].\"}]", "elements[0].text: [^b] cites no footnote"),
            (
                "footnotes: {a: \"x[^b]\", b: y}\nelements: [{type: paragraph, text: \"One[^a].\"}]",
                "footnotes.a: a footnote cannot cite another"
            ),
            ("footnotes: {a: \" \"}\nelements: [{type: paragraph, text: \"One[^a].\"}]", "footnotes.a: a footnote needs text"),
            (
                "footnotes: {a: x}\nelements: [{type: table, header: [A], rows: [[\"1[^z]\"]]}]",
                "elements[0].rows[0][0]: [^z] cites no footnote"
            ),
        ]
        for (body, expected) in cases {
            let (output, pdf) = try render("title: T\n\(body)\n")
            XCTAssertNotEqual(output.status, 0, body)
            XCTAssertTrue(output.stderr.contains(expected), "\(body): \(output.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: pdf.path))
        }
    }
}
