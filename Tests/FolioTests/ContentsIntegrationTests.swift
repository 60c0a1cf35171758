import Foundation
import XCTest

@testable import Folio

/// A printed table of contents (`contents`), checked as a reader uses it: every heading listed once
/// with the page it is really on (as the page box shows it), each entry a link that lands on that
/// page, one TOC element of TOCI entries however many pages it takes, the checkers passing; in HTML
/// a `nav` whose links all lead to a heading.
final class ContentsIntegrationTests: XCTestCase {
    private var folio: String { TestSupport.folioBinary.path }

    private func render(_ yaml: String, as format: String = "pdf") throws -> (pdf: Data, path: URL) {
        let folder = try TestSupport.temporaryDirectory()
        try FileManager.default.copyItem(
            at: TestSupport.samples.appendingPathComponent("appended/consent.pdf"), to: folder.appendingPathComponent("consent.pdf"))
        let input = folder.appendingPathComponent("document.yaml")
        try Data(yaml.utf8).write(to: input)
        let output = folder.appendingPathComponent("out.\(format)")
        let result = try TestSupport.run(folio, ["render", input.path, "-o", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return (try Data(contentsOf: output), output)
    }

    /// What Fixtures/read_contents.py finds: each link of the first `pages` pages with the page it lands
    /// on, and the TOC elements with their TOCI counts.
    private func links(_ pdf: URL, pages: Int) throws -> (links: [(page: Int, target: Int)], tocs: [Int]) {
        let script = TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/read_contents.py").path
        let read = try TestSupport.run(try TestSupport.python(), [script, pdf.path, String(pages)])
        XCTAssertEqual(read.status, 0, read.stderr)
        var links: [(Int, Int)] = []
        var tocs: [Int] = []
        for line in read.text.split(separator: "\n") {
            let fields = line.split(separator: " ").compactMap { Int($0) }
            if line.hasPrefix("link "), fields.count == 2 { links.append((fields[0], fields[1])) }
            if line.hasPrefix("toc "), fields.count == 1 { tocs.append(fields[0]) }
        }
        return (links, tocs)
    }

    /// Three labelled sections of several pages, subtitles, an appended PDF: each entry's page label is
    /// where its heading is, its link lands there, and the list is one TOC of TOCIs.
    func testEveryHeadingIsListedWithItsPageAndALinkThere() throws {
        // Paragraphs of different words (a checker takes a line repeated at the top of pages for a running header).
        let words = ["walked", "slept", "pain", "eased", "dose", "missed", "evening", "morning", "glucose", "steady", "reading", "clinic"]
        var generator = SeededGenerator(seed: 7)
        func paragraph() -> String {
            let text = (0..<180).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " ")
            return "  - {type: paragraph, text: \"\(text.prefix(1).uppercased() + text.dropFirst()).\"}\n"
        }
        var yaml = "title: Ward packet\nfooter: \"Page {page} of {pages}\"\nelements:\n  - {type: contents, depth: 2}\n"
        for (index, name) in ["Émile Okafor", "Amal Haddad", "Noah Berg"].enumerated() {
            yaml += "  - {type: section, title: \"\(name)\", label: P\(index + 1)}\n  - {type: subtitle, text: Summary \(index + 1)}\n"
            yaml += (0..<6).map { _ in paragraph() }.joined()
            yaml += "  - {type: subtitle, text: Observation log \(index + 1)}\n" + (0..<5).map { _ in paragraph() }.joined()
        }
        yaml += "  - {type: pdf, path: consent.pdf, title: Signed consent, alt: \"The consent to share, signed Nov 2, 2026\"}\n"
        let (pdf, path) = try render(yaml)
        let pages = try TestSupport.pageTexts(pdf)
        let contents = pages[0]
        let headings = ["Émile Okafor", "Amal Haddad", "Noah Berg"].enumerated().flatMap { index, name in
            [(name, "P\(index + 1)"), ("Summary \(index + 1)", "P\(index + 1)"), ("Observation log \(index + 1)", "P\(index + 1)")]
        }
        var expectedTargets: [Int] = []
        for (heading, label) in headings {
            // Where the heading really is: the first page after the list that shows it.
            let page = try XCTUnwrap(pages.indices.dropFirst().first { pages[$0].contains(heading) }, heading)
            // Its number within its labelled section: pages since the section's title.
            let sectionTitle = headings.first { $0.1 == label }?.0 ?? heading
            let sectionStart = try XCTUnwrap(pages.indices.dropFirst().first { pages[$0].contains(sectionTitle) })
            let shown = "\(label)-\(page - sectionStart + 1)"
            let line = try XCTUnwrap(contents.split(separator: "\n").first { $0.contains(heading) }, "\(heading) is not listed")
            XCTAssertTrue(line.hasSuffix(shown), "\(heading): \(line), expected \(shown)")
            expectedTargets.append(page + 1)
        }
        // The appended page is in the last labelled section: its page box says P3-N.
        let consentPage = pages.count
        let lastSection = try XCTUnwrap(pages.indices.dropFirst().first { pages[$0].contains("Noah Berg") })
        let consentLabel = "P3-\(consentPage - lastSection)"
        XCTAssertTrue(contents.split(separator: "\n").contains { $0.contains("Signed consent") && $0.hasSuffix(consentLabel) }, contents)
        expectedTargets.append(consentPage)
        let found = try links(path, pages: 1)
        XCTAssertEqual(found.links.map(\.target), expectedTargets)
        XCTAssertEqual(found.tocs, [headings.count + 1])
        try TestSupport.assertPassesPDFUACheckers([path.path])
    }

    /// A list longer than a page continues on the next one as the same TOC element; `depth: 1`
    /// lists only the top headings; an Arabic document sets the numbers on the left.
    func testALongListSplitsIntoOneElementAndDepthAndDirectionHold() throws {
        var yaml = "title: Long\nelements:\n  - {type: contents}\n"
        for index in 1...70 { yaml += "  - {type: subtitle, text: Heading number \(index)}\n  - {type: paragraph, text: Body \(index).}\n" }
        let (pdf, path) = try render(yaml)
        let pages = try TestSupport.pageTexts(pdf)
        XCTAssertTrue(pages[0].contains("Heading number 1"), pages[0])
        XCTAssertTrue(pages[1].contains("Heading number 70"), pages[1])
        let found = try links(path, pages: 2)
        XCTAssertEqual(found.tocs, [70], "one TOC element holding every entry")
        XCTAssertEqual(found.links.count, 70)

        // The default depth lists the top headings only.
        let (shallow, _) = try render(
            "title: T\nelements:\n  - {type: contents}\n  - {type: section, title: Alpha}\n  - {type: subtitle, text: Inner}\n  - {type: section, title: Beta}\n"
        )
        let listed = try TestSupport.pageTexts(shallow)[0]
        XCTAssertTrue(listed.contains("Alpha") && listed.contains("Beta"), listed)
        XCTAssertFalse(listed.contains("Inner"), listed)

        let (arabic, _) = try render(
            "title: تقرير\nmetadata: {language: ar}\nelements:\n  - {type: contents}\n  - {type: subtitle, text: الملخص}\n  - {type: paragraph, text: نص.}\n"
        )
        // The entry's line: the first "1" from the top (the footer's come last); its words stand at
        // the right end of the column, the number at the left.
        let words = try TestSupport.words(arabic)
        let number = try XCTUnwrap(words.filter { $0.text == "1" }.min { $0.yMin < $1.yMin })
        let line = words.filter { abs($0.yMin - number.yMin) < 3 && $0.text != "1" }
        XCTAssertFalse(line.isEmpty)
        XCTAssertLessThan(number.xMax, 120, "the page number is at the left of an Arabic entry")
        XCTAssertGreaterThan(line.map(\.xMax).max() ?? 0, 450, "the words start at the right")
        XCTAssertTrue(try TestSupport.pdfText(arabic).contains("المحتويات"), "the heading is the language's word")
    }

    /// In HTML the list is a `nav` named by its heading, of nested ordered lists whose links all lead
    /// to a heading's id.
    func testTheHTMLListLinksToEveryHeading() throws {
        let (html, _) = try render(
            "title: T\nelements:\n  - {type: contents, depth: 2}\n  - {type: section, title: Alpha, id: alpha}\n  - {type: subtitle, text: Inner}\n  - {type: section, title: Beta}\n",
            as: "html")
        let page = String(decoding: html, as: UTF8.self)
        let nav = try XCTUnwrap(page.firstMatch(of: #/<nav class="folio-contents"[^>]*>(.*?)</nav>/#)).output.1
        let targets = nav.matches(of: #/href="#([^"]+)"/#).map { String($0.output.1) }
        XCTAssertEqual(targets.count, 3)
        for target in targets { XCTAssertTrue(page.contains("id=\"\(target)\""), "no heading has id \(target)") }
        XCTAssertTrue(nav.contains("<ol><li><a"), String(nav))
        XCTAssertTrue(nav.contains("<ol><li><a href=\"#\(targets[1])\">Inner</a></li></ol>"), String(nav))
    }
}
