import Foundation
import XCTest

@testable import Folio
@testable import FolioCharts
@testable import FolioLayout
@testable import FolioPDF
@testable import FolioPango
@testable import FolioTemplate

/// PDF/UA-1: what a screen reader and an auditor's checker find in Folio's PDFs.
final class PDFAccessibilityTests: XCTestCase {
    /// A document with everything the structure tree has to get right: a table split over
    /// pages, sections, links, a chart, images with and without alt, right-to-left and CJK text.
    static let hardDocument = """
        title: "Accessibility <check> & more"
        header: Riverside ward
        metadata: {author: "Dr. Ann O'Neil", language: en, creationDate: 2026-11-15}
        elements:
          - {type: paragraph, text: "See [the results](#results) or [the guide](https://example.org/guide?a=1&b=2)."}
          - {type: section, title: Vitals, label: V}
          - type: chart
            kind: bar
            title: Pain by day
            categories: [Mon, Tue, Wed]
            series: [{title: Pain, values: [3, 5, 2]}]
          - {type: image, path: logo.png, alt: Riverside Care logo, caption: Our logo}
          - {type: image, path: logo.png}
          - {type: subtitle, text: Results, id: results}
          - type: table
            caption: Daily observations
            header: [Day, Heart rate, Note]
            zebra: true
            rows:
        \((1...90).map { "        - [Day \($0), \"\(60 + $0 % 40)\", \"note \($0)\"]" }.joined(separator: "\n"))
          - {type: paragraph, text: "هذا نص عربي قصير يكتب من اليمين إلى اليسار"}
          - {type: paragraph, text: "患者本周完成了大部分治疗计划，疼痛在周中达到高峰。"}
          - type: list
            ordered: true
            items:
        \((1...70).map { "      - \"Exercise \($0): walk, stretch and rest\"" + ($0 == 30 ? "\n      - {items: [Left leg, Right leg]}" : "") }.joined(separator: "\n"))
        """

    private func render(_ yaml: String) throws -> Data {
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        return try document.pdf(options: RenderOptions(baseDirectory: TestSupport.samples))
    }

    /// Every object of `pdf` as qpdf's JSON (version 2) shows it: "obj:N 0 R" → value.
    private func objects(_ pdf: Data) throws -> [String: Any] {
        let file = try TestSupport.temporaryFile(pdf, name: "objects.pdf")
        let json = try TestSupport.run("qpdf", ["--json=2", "--json-key=qpdf", file.path]).text
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let qpdf = try XCTUnwrap(root["qpdf"] as? [Any])
        let objects = try XCTUnwrap(qpdf.last as? [String: Any])
        return objects.compactMapValues { ($0 as? [String: Any])?["value"] }
    }

    /// Structure elements (dictionaries with /S and /P), with their object key.
    private func structureElements(_ objects: [String: Any]) -> [(key: String, value: [String: Any])] {
        objects.compactMap { key, value in
            guard let dictionary = value as? [String: Any], dictionary["/S"] != nil, dictionary["/P"] != nil else { return nil }
            return (key, dictionary)
        }.sorted { $0.key < $1.key }
    }

    private func elements(_ type: String, in objects: [String: Any]) -> [[String: Any]] {
        structureElements(objects).map(\.value).filter { $0["/S"] as? String == type }
    }

    func testFiguresCarryTheirTextAlternativeAndImagesWithoutAltAreArtifacts() throws {
        let pdf = try render(PDFAccessibilityTests.hardDocument)
        let objects = try objects(pdf)
        let figures = elements("/Figure", in: objects)
        let alternatives = figures.compactMap { $0["/Alt"] as? String }
        XCTAssertEqual(figures.count, 2, "the chart and the image with alt; the image without alt is decoration")
        XCTAssertEqual(alternatives.count, 2)
        XCTAssertTrue(alternatives.contains("u:Riverside Care logo"), "\(alternatives)")
        let chart = try XCTUnwrap(alternatives.first { $0.hasPrefix("u:Bar chart, Pain by day") })
        XCTAssertTrue(chart.contains("Pain: lowest value 2 (Wed), highest value 5 (Tue)"), chart)
    }

    func testATableSplitOverPagesIsOneTableWithItsHeaderRowOnceAndScoped() throws {
        let pdf = try render(PDFAccessibilityTests.hardDocument)
        XCTAssertGreaterThan(try TestSupport.pageTexts(pdf).filter { $0.contains("Heart rate") }.count, 1, "the table should split")
        let objects = try objects(pdf)
        XCTAssertEqual(elements("/Table", in: objects).count, 1)
        let headers = elements("/TH", in: objects)
        XCTAssertEqual(headers.count, 3, "the repeated header is an artifact, not more header cells")
        for header in headers {
            let attributes = try XCTUnwrap(header["/A"] as? [String: Any])
            XCTAssertEqual(attributes["/Scope"] as? String, "/Column")
            XCTAssertEqual(attributes["/O"] as? String, "/Table")
        }
        XCTAssertEqual(elements("/TR", in: objects).count, 91)
        XCTAssertEqual(elements("/TD", in: objects).count, 270)
        // Every row hangs under the one table.
        let table = try XCTUnwrap(structureElements(objects).first { $0.value["/S"] as? String == "/Table" }).key
        let tableReference = String(table.dropFirst("obj:".count))
        for row in elements("/TR", in: objects) { XCTAssertEqual(row["/P"] as? String, tableReference) }
        XCTAssertEqual(elements("/Caption", in: objects).count, 2, "the table's and the image's; not \"(continued)\"")
        // Each caption is inside its Figure or Table (first in a table, after the picture in a figure),
        // and the figure keeps its picture's marked content.
        for caption in elements("/Caption", in: objects) {
            let parent = try XCTUnwrap(objects["obj:" + (try XCTUnwrap(caption["/P"] as? String))] as? [String: Any])
            XCTAssertTrue(["/Figure", "/Table"].contains(parent["/S"] as? String ?? ""), "\(parent)")
            let kids = (parent["/K"] as? [Any]) ?? []
            if parent["/S"] as? String == "/Figure" {
                XCTAssertTrue(kids.first is Int, "the figure's own content comes first: \(kids)")
                XCTAssertNotNil(parent["/Pg"], "its content's page")
            }
        }
        XCTAssertEqual(
            elements("/Span", in: objects).filter {
                ($0["/P"] as? String).flatMap { objects["obj:" + $0] as? [String: Any] }?["/S"] as? String == "/Figure"
            }.count, 0, "no Span is left in a figure")
    }

    func testLinksAreDescribedByTheirText() throws {
        let pdf = try render(PDFAccessibilityTests.hardDocument)
        let objects = try objects(pdf)
        let links = objects.values.compactMap { $0 as? [String: Any] }.filter { $0["/Subtype"] as? String == "/Link" }
        XCTAssertEqual(Set(links.compactMap { $0["/Contents"] as? String }), ["u:the results", "u:the guide"])
        XCTAssertEqual(elements("/Link", in: objects).count, 2)
    }

    /// The structure elements under `key` (an object key or a reference), depth first in
    /// document order, with their object values.
    func testACaptionBelongsToItsFigureOrTableAndADecorativeImagesCaptionIsAParagraph() throws {
        // An image without alt is decoration (an Artifact): its caption is still read, but as a
        // paragraph, not as a Caption of nothing (PDF/UA: a Caption is a Figure's or Table's child).
        let pdf = try render(
            """
            elements:
              - {type: image, path: logo.png, width: 3cm, caption: "The ward's logo, decoration"}
              - {type: image, path: logo.png, width: 3cm, alt: Riverside Care logo, caption: "The logo, described"}
              - {type: table, header: [Name], rows: [[A]], caption: Medications}
              - {type: chart, kind: bar, title: Pain, categories: [Mon], series: [{title: Pain, values: [3]}], dataTable: true}
            """)
        let objects = try objects(pdf)
        let captions = structureElements(objects).filter { $0.value["/S"] as? String == "/Caption" }
        XCTAssertEqual(captions.count, 3, "the described image's, the table's and the chart's data table's")
        for caption in captions {
            let parent = try XCTUnwrap(objects["obj:" + (try XCTUnwrap(caption.value["/P"] as? String))] as? [String: Any])
            XCTAssertTrue(["/Figure", "/Table"].contains(parent["/S"] as? String ?? ""), "a Caption in \(parent["/S"] ?? "nothing")")
        }
        let text = try TestSupport.pdfText(pdf)
        XCTAssertTrue(text.contains("The ward's logo, decoration"), text)
    }

    private func preorder(_ reference: String, in objects: [String: Any]) -> [[String: Any]] {
        let key = reference.hasPrefix("obj:") ? reference : "obj:" + reference
        guard let node = objects[key] as? [String: Any] else { return [] }
        let kids: [Any]
        if let array = node["/K"] as? [Any] { kids = array } else if let one = node["/K"] { kids = [one] } else { kids = [] }
        var result = node["/S"] == nil ? [] : [node]
        for kid in kids {
            if let reference = kid as? String, reference.hasSuffix(" R") { result += preorder(reference, in: objects) }
        }
        return result
    }

    private func documentOrder(_ objects: [String: Any]) throws -> [[String: Any]] {
        let catalog = try XCTUnwrap(objects.values.compactMap { $0 as? [String: Any] }.first { $0["/Type"] as? String == "/Catalog" })
        return preorder(try XCTUnwrap(catalog["/StructTreeRoot"] as? String), in: objects)
    }

    /// A long document is drawn and finished in parts of a few pages (so that memory holds one
    /// part's structure): made of one-page parts, the hard document is the same document as one
    /// drawn whole. Same pages and text; the same structure elements in the same order (one table
    /// across parts); every page's marked content found through one parent tree; links, bookmarks
    /// and page labels that reach pages of other parts.
    func testADocumentFinishedInPartsIsTheSameDocument() throws {
        let document = try DocumentDecoder.decode(Data(PDFAccessibilityTests.hardDocument.utf8), format: .yaml)
        var options = RenderOptions(baseDirectory: TestSupport.samples)
        let whole = try document.pdf(options: options)
        options.pagesPerPart = 1
        let parts = try document.pdf(options: options)
        // Parts ended by the size of Cairo's output (here after every page) are parts like any other.
        options.pagesPerPart = nil
        options.bytesPerPart = 1
        let partsBySize = try document.pdf(options: options)
        XCTAssertEqual(partsBySize, parts)
        let pages = try TestSupport.pageTexts(whole)
        XCTAssertGreaterThanOrEqual(pages.count, 3)
        XCTAssertEqual(try TestSupport.pageTexts(parts), pages)

        func description(_ pdf: Data) throws -> [String] {
            let objects = try self.objects(pdf)
            let catalog = try XCTUnwrap(objects.values.compactMap { $0 as? [String: Any] }.first { $0["/Type"] as? String == "/Catalog" })
            let pageTree = try XCTUnwrap(objects["obj:" + (try XCTUnwrap(catalog["/Pages"] as? String))] as? [String: Any])
            let pageReferences = try XCTUnwrap(pageTree["/Kids"] as? [String])
            func pageIndex(_ reference: Any?) -> String {
                guard let reference = reference as? String, let index = pageReferences.firstIndex(of: reference) else { return "?" }
                return "page \(index)"
            }
            var lines = try documentOrder(objects).map { element in
                let kids = (element["/K"] as? [Any]) ?? (element["/K"].map { [$0] } ?? [])
                let marked = kids.filter { $0 is Int || ($0 as? [String: Any])?["/MCID"] != nil }.count
                let attributes = (element["/A"] as? [String: Any] ?? [:]).map { "\($0.key)=\($0.value)" }.sorted()
                return "\(element["/S"] ?? "") \(attributes) \(element["/Alt"] ?? "") \(marked) on \(pageIndex(element["/Pg"]))"
            }
            // One parent tree: every page's key leads to the elements of that page's marked content.
            let treeRoot = try XCTUnwrap(objects["obj:" + (try XCTUnwrap(catalog["/StructTreeRoot"] as? String))] as? [String: Any])
            var parentTree: [Int: Any] = [:]
            func collect(_ reference: Any?) {
                guard let reference = reference as? String, let node = objects["obj:" + reference] as? [String: Any] else { return }
                for kid in node["/Kids"] as? [Any] ?? [] { collect(kid) }
                let nums = node["/Nums"] as? [Any] ?? []
                for index in stride(from: 0, to: nums.count - 1, by: 2) {
                    if let key = nums[index] as? Int { parentTree[key] = nums[index + 1] }
                }
            }
            collect(treeRoot["/ParentTree"])
            for (index, reference) in pageReferences.enumerated() {
                let page = try XCTUnwrap(objects["obj:" + reference] as? [String: Any])
                let key = try XCTUnwrap(page["/StructParents"] as? Int, "page \(index)")
                var entry = parentTree[key]
                if let indirect = entry as? String { entry = objects["obj:" + indirect] }
                let marked = try XCTUnwrap(entry as? [String], "page \(index): no parent tree entry")
                for element in marked {
                    let value = try XCTUnwrap(objects["obj:" + element] as? [String: Any])
                    XCTAssertEqual(
                        value["/Pg"] as? String, reference, "page \(index)'s marked content belongs to an element of another page")
                }
                lines.append("page \(index): \(marked.count) marked")
                for annotation in page["/Annots"] as? [String] ?? [] {
                    let link = try XCTUnwrap(objects["obj:" + annotation] as? [String: Any])
                    let owner = parentTree[try XCTUnwrap(link["/StructParent"] as? Int)] as? String
                    XCTAssertEqual((objects["obj:" + (owner ?? "")] as? [String: Any])?["/S"] as? String, "/Link")
                    var destination = link["/Dest"]
                    if let name = destination as? String, name.hasPrefix("u:") || !name.hasSuffix(" R") {
                        let names = try XCTUnwrap((catalog["/Names"] as? [String: Any])?["/Dests"] as? String)
                        let leaf = try XCTUnwrap(objects["obj:" + names] as? [String: Any])
                        let list = try XCTUnwrap(leaf["/Names"] as? [Any])
                        let position = try XCTUnwrap(list.firstIndex { ($0 as? String) == name }, "\(name) is not a named destination")
                        destination = list[position + 1]
                    }
                    let target = destination as? [Any]
                    lines.append("link on page \(index) to \(pageIndex(target?.first)) \(target?.dropFirst().map { "\($0)" } ?? [])")
                }
            }
            let file = try TestSupport.temporaryFile(pdf, name: "navigation.pdf")
            let json = try TestSupport.run("qpdf", ["--json=2", "--json-key=pages", "--json-key=outlines", file.path]).text
            let navigation = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            // Page labels as a viewer shows them: the range a page is in, counted from the range's start.
            var labelRanges: [(start: Int, range: [String: Any])] = []
            var labels = catalog["/PageLabels"]
            if let reference = labels as? String { labels = objects["obj:" + reference] }
            let labelNums = (labels as? [String: Any])?["/Nums"] as? [Any] ?? []
            for index in stride(from: 0, to: labelNums.count - 1, by: 2) {
                var range: Any? = labelNums[index + 1]
                if let reference = range as? String { range = objects["obj:" + reference] }
                if let start = labelNums[index] as? Int, let range = range as? [String: Any] { labelRanges.append((start, range)) }
            }
            for (index, page) in (navigation["pages"] as? [[String: Any]] ?? []).enumerated() {
                let label = labelRanges.last { $0.start <= index }.map { range in
                    "\(range.range["/P"] ?? "")\((range.range["/St"] as? Int ?? 1) + index - range.start)"
                }
                lines.append("page \(index) label \(label ?? "none")")
                for outline in page["outlines"] as? [[String: Any]] ?? [] {
                    lines.append(
                        "page \(index) bookmark \(outline["title"] ?? "") at \((outline["dest"] as? [Any])?.dropFirst().map { "\($0)" } ?? [])"
                    )
                }
            }
            return lines
        }
        let expected = try description(whole)
        XCTAssertTrue(expected.contains { $0.hasPrefix("link on page 0 to page") && !$0.contains("page 0 [") }, "\(expected)")
        XCTAssertTrue(expected.contains { $0.contains("bookmark") }, "\(expected)")
        XCTAssertTrue(expected.contains { $0.contains("label") && !$0.contains("none") }, "\(expected)")
        let found = try description(parts)
        XCTAssertEqual(found.count, expected.count)
        for (line, (got, want)) in zip(found, expected).enumerated() where got != want {
            XCTFail("line \(line): \(got) — whole: \(want)")
            break
        }
        let objects = try self.objects(parts)
        XCTAssertEqual(elements("/Table", in: objects).count, 1)
        XCTAssertEqual(elements("/TR", in: objects).count, 91)
        // The list over pages is one L, its nested list another inside its 30th item.
        XCTAssertGreaterThan(try TestSupport.pageTexts(parts).filter { $0.contains("Exercise") }.count, 1, "the list should split")
        let lists = elements("/L", in: objects)
        XCTAssertEqual(lists.count, 2)
        XCTAssertEqual(lists.map { ($0["/K"] as? [Any])?.count ?? 1 }.sorted(), [2, 70])
        XCTAssertEqual(elements("/LI", in: objects).count, 72)
        XCTAssertEqual(elements("/Lbl", in: objects).count, 72)
    }

    /// Every object is renumbered for the whole file from its text: a reference-like run, parentheses,
    /// a backslash or the keywords `stream` and `endobj` inside a string stay as they were.
    func testStringsThatLookLikeSyntaxSurviveRenumbering() throws {
        let tricky = #"see 12 0 R (or 3 0 R) \ stream endstream endobj >> <<"#
        let document = Document(
            title: "5 0 R (title)",
            elements: [
                .subtitle(Subtitle("Part 2 0 R", id: "p2")),
                .image(ImageBlock(source: .file("logo.png"), alt: tricky)),
                .paragraph(Paragraph("Back to [7 0 R (part)](#p2).")),
            ])
        var options = RenderOptions(baseDirectory: TestSupport.samples)
        options.pagesPerPart = 1
        let pdf = try document.pdf(options: options)
        let file = try TestSupport.temporaryFile(pdf, name: "tricky.pdf")
        XCTAssertEqual(try TestSupport.run("qpdf", ["--check", file.path]).status, 0)
        let objects = try objects(pdf)
        XCTAssertEqual(elements("/Figure", in: objects).compactMap { $0["/Alt"] as? String }, ["u:" + tricky])
        let links = objects.values.compactMap { $0 as? [String: Any] }.filter { $0["/Subtype"] as? String == "/Link" }
        XCTAssertEqual(links.compactMap { $0["/Contents"] as? String }, ["u:7 0 R (part)"])
        XCTAssertTrue(try TestSupport.pdfText(pdf).contains("Part 2 0 R"))
    }

    /// What the independent checker asks beyond PDF/UA's letter (Matterhorn 14, 15, 28, 31):
    /// the first heading is H1 without a title; text with a link stays in its element (a Span,
    /// then a Link that says its words); a cell across columns has /ColSpan; links print; every
    /// TrueType CID font has /CIDToGIDMap.
    func testHeadingsTablesLinksAndFontsMeetTheMatterhornConditions() throws {
        let pdf = try render(
            """
            elements:
              - {type: subtitle, text: Summary}
              - {type: paragraph, text: "**Read** [the guide](https://example.org/guide) or https://example.org/faq today."}
              - {type: section, title: Details}
              - {type: subtitle, text: Readings}
              - type: table
                header: [Day, Value, Note]
                rows: [[Mon, "1", ok], [{text: "No readings over the weekend", span: 3}], [Tue, "2", "see https://example.org/log"]]
              - {type: paragraph, text: "هذا نص عربي قصير"}
            """)
        let objects = try objects(pdf)
        let order = try documentOrder(objects)
        let headings = order.compactMap { $0["/S"] as? String }.filter { $0.hasPrefix("/H") }
        XCTAssertEqual(headings, ["/H1", "/H1", "/H2"], "a document without a title starts at H1")
        let links = elements("/Link", in: objects)
        XCTAssertEqual(
            Set(links.compactMap { $0["/Alt"] as? String }), ["u:the guide", "u:https://example.org/faq", "u:https://example.org/log"])
        let paragraph = try XCTUnwrap(order.first { ($0["/S"] as? String) == "/P" })
        let kids = try XCTUnwrap(paragraph["/K"] as? [Any]).compactMap { $0 as? String }.compactMap {
            objects["obj:" + $0] as? [String: Any]
        }
        XCTAssertEqual(kids.compactMap { $0["/S"] as? String }, ["/Span", "/Link", "/Link"], "the text in a Span, then its links")
        XCTAssertNotNil(kids.first?["/K"] as? Int, "the Span holds the paragraph's marked content")
        let spanning = elements("/TD", in: objects).compactMap { ($0["/A"] as? [String: Any])?["/ColSpan"] as? Int }
        XCTAssertEqual(spanning, [3])
        let annotations = objects.values.compactMap { $0 as? [String: Any] }.filter { $0["/Subtype"] as? String == "/Link" }
        XCTAssertEqual(annotations.count, 3, "two in the paragraph, one in a table cell")
        for annotation in annotations { XCTAssertEqual(annotation["/F"] as? Int, 4, "a link prints") }
        let cidFonts = objects.values.compactMap { $0 as? [String: Any] }.filter { $0["/Subtype"] as? String == "/CIDFontType2" }
        XCTAssertFalse(cidFonts.isEmpty, "Arabic text embeds a TrueType CID font")
        for font in cidFonts { XCTAssertEqual(font["/CIDToGIDMap"] as? String, "/Identity") }
    }

    /// The bookmarks of `objects` depth first: each title (u: stripped) with its depth (0 at the top).
    private func bookmarks(_ objects: [String: Any]) throws -> [(title: String, depth: Int)] {
        let catalog = try XCTUnwrap(objects.values.compactMap { $0 as? [String: Any] }.first { $0["/Type"] as? String == "/Catalog" })
        guard let outlines = catalog["/Outlines"] as? String, let root = objects["obj:" + outlines] as? [String: Any] else { return [] }
        var result: [(String, Int)] = []
        func walk(_ first: Any?, depth: Int) {
            var next = first as? String
            while let reference = next, let item = objects["obj:" + reference] as? [String: Any], result.count < 1000 {
                let title = (item["/Title"] as? String) ?? ""
                result.append((title.hasPrefix("u:") ? String(title.dropFirst(2)) : title, depth))
                walk(item["/First"], depth: depth + 1)
                next = item["/Next"] as? String
            }
        }
        walk(root["/First"], depth: 0)
        return result
    }

    /// One heading scheme (#42): the title H1, a section's title H2, a subtitle one level below the
    /// section it is in; without a title every level moves up one. The PDF's tags, the HTML's
    /// headings and the bookmarks' depths say the same of every heading, inside columns too.
    func testHeadingLevelsAgreeAcrossPDFTagsHTMLAndBookmarks() throws {
        let body = """
              - {type: subtitle, text: Overview}
              - {type: paragraph, text: Text.}
              - {type: section, title: Vitals}
              - {type: subtitle, text: Heart rate}
              - {type: columns, items: [{type: subtitle, text: Left side}, {type: paragraph, text: Right.}]}
              - {type: section, title: Notes}
              - {type: subtitle, text: Nurse}
            """
        let cases: [(yaml: String, levels: [Int])] = [
            ("title: Weekly\nelements:\n" + body, [1, 2, 2, 3, 3, 2, 3]),
            ("elements:\n" + body, [1, 1, 2, 2, 1, 2]),
        ]
        for (yaml, levels) in cases {
            let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
            let options = RenderOptions(baseDirectory: TestSupport.samples)
            let objects = try objects(try document.pdf(options: options))
            let order = try documentOrder(objects)
            XCTAssertEqual(order.first?["/S"] as? String, "/Document", "one Document element holds the structure")
            XCTAssertEqual(order.filter { $0["/S"] as? String == "/Document" }.count, 1)
            let tags = order.compactMap { $0["/S"] as? String }.filter { $0.hasPrefix("/H") }
            XCTAssertEqual(tags, levels.map { "/H\($0)" }, yaml)
            let html = String(decoding: try document.render(as: .html, options: options), as: UTF8.self)
            let headings = html.matches(of: #/<h([1-6])[ >]/#).compactMap { Int($0.output.1) }
            let shown = html.contains("folio-hidden-title") ? Array(headings.dropFirst()) : headings
            XCTAssertEqual(shown, levels, yaml)
            let depths = try bookmarks(objects).map(\.depth)
            XCTAssertEqual(depths, levels.map { $0 - 1 }, "bookmarks nest as the headings do: \(yaml)")
        }
    }

    /// A header row repeated on later pages is decoration: an address in it is a link (and a
    /// Link element) once, where the header first appears.
    func testAnAddressInARepeatedHeaderIsLinkedOnce() throws {
        let rows = (1...150).map { "[\"\($0)\", ok]" }.joined(separator: ", ")
        let pdf = try render("title: T\nelements:\n  - {type: table, header: [Day, \"Log at https://example.org/log\"], rows: [\(rows)]}")
        XCTAssertGreaterThan(try TestSupport.pageTexts(pdf).count, 2)
        let objects = try objects(pdf)
        let annotations = objects.values.compactMap { $0 as? [String: Any] }.filter { $0["/Subtype"] as? String == "/Link" }
        XCTAssertEqual(annotations.count, 1)
        XCTAssertEqual(elements("/Link", in: objects).count, 1)
        XCTAssertEqual(elements("/Span", in: objects).count, 1)
    }

    func testCatalogPagesAndXMPDeclarePDFUA() throws {
        let pdf = try render(PDFAccessibilityTests.hardDocument)
        let objects = try objects(pdf)
        let catalog = try XCTUnwrap(objects.values.compactMap { $0 as? [String: Any] }.first { $0["/Type"] as? String == "/Catalog" })
        XCTAssertEqual(catalog["/Lang"] as? String, "u:en")
        XCTAssertEqual((catalog["/MarkInfo"] as? [String: Any])?["/Marked"] as? Bool, true)
        XCTAssertEqual((catalog["/ViewerPreferences"] as? [String: Any])?["/DisplayDocTitle"] as? Bool, true)
        let pages = objects.values.compactMap { $0 as? [String: Any] }.filter { $0["/Type"] as? String == "/Page" }
        XCTAssertFalse(pages.isEmpty)
        for page in pages { XCTAssertEqual(page["/Tabs"] as? String, "/S") }
        let file = try TestSupport.temporaryFile(pdf, name: "xmp.pdf")
        let xmp = try TestSupport.run("pdfinfo", ["-meta", file.path]).text
        XCTAssertTrue(xmp.contains("<pdfuaid:part>1</pdfuaid:part>"), xmp)
        XCTAssertTrue(xmp.contains("<rdf:li xml:lang=\"x-default\">Accessibility &lt;check&gt; &amp; more</rdf:li>"), xmp)
        XCTAssertTrue(xmp.contains("<rdf:li>Dr. Ann O&#39;Neil</rdf:li>"), xmp)
        XCTAssertTrue(xmp.contains("<xmp:CreateDate>2026-11-15T00:00:00Z</xmp:CreateDate>"), xmp)
        XCTAssertFalse(xmp.contains("pdfaid"), "not archival unless asked")
    }

    /// Every painting operator at marked-content depth 0 is inside an /Artifact sequence, and
    /// marked content nests properly. Content streams are read with whitespace tokens, which is
    /// exact for these test documents (no string holds an operator name between spaces).
    func testNothingIsDrawnOutsideStructureOrArtifacts() throws {
        let pdf = try render(PDFAccessibilityTests.hardDocument)
        let file = try TestSupport.temporaryFile(pdf, name: "content.pdf")
        let folder = try TestSupport.temporaryDirectory()
        let qdf = folder.appendingPathComponent("content.qdf").path
        XCTAssertEqual(try TestSupport.run("qpdf", ["--qdf", "--object-streams=disable", file.path, qdf]).status, 0)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        let painting: Set<Substring> = ["re", "m", "f", "S", "Tj", "TJ", "Do", "sh", "BI"]
        var pagesSeen = 0
        for page in text.components(separatedBy: "%% Contents for page ").dropFirst() {
            pagesSeen += 1
            guard let start = page.range(of: "stream\n"), let end = page.range(of: "\nendstream") else { continue }
            var stack: [Substring] = []
            var previous: Substring = ""
            var artifactSequences = 0
            for token in page[start.upperBound..<end.lowerBound].split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                switch token {
                case "BMC", "BDC":
                    stack.append(previous)
                    if previous == "/Artifact" { artifactSequences += 1 }
                case "EMC": XCTAssertNotNil(stack.popLast(), "EMC without a sequence")
                default:
                    if painting.contains(token) { XCTAssertFalse(stack.isEmpty, "\(token) outside marked content") }
                }
                if token.hasPrefix("/") { previous = token }
            }
            XCTAssertTrue(stack.isEmpty, "unclosed marked content")
            XCTAssertGreaterThan(artifactSequences, 0, "the running header and footer are artifacts")
        }
        XCTAssertGreaterThan(pagesSeen, 1)
        // Poppler reads every operator: no "Unknown operator" from a badly joined sequence.
        let rendered = try TestSupport.run("pdftotext", [file.path, "-"])
        XCTAssertEqual(rendered.stderr, "")
        XCTAssertTrue(rendered.text.contains("Day 90"))
        XCTAssertEqual(try TestSupport.run("qpdf", ["--check", file.path]).status, 0)
    }

    func testUntaggedDocumentsHaveNoStructureButKeepTheirLanguage() throws {
        let pdf = try render(
            """
            title: Fast
            metadata: {tagged: false, language: de}
            elements: [{type: paragraph, text: "Guten Tag"}, {type: chart, kind: bar, categories: [a], series: [{title: s, values: [1]}]}]
            """)
        let raw = try TestSupport.readablePDF(pdf)
        XCTAssertFalse(raw.contains("/StructTreeRoot"))
        XCTAssertFalse(raw.contains("/Artifact"))
        XCTAssertFalse(raw.contains("pdfuaid"))
        XCTAssertTrue(raw.contains("/Lang (de)"))
    }

    func testArchivalDocumentsCarryAnSRGBOutputIntentAndClaimPDFA2U() throws {
        let pdf = try render(
            """
            title: Archive
            metadata: {conformance: pdfa-2u}
            elements: [{type: paragraph, text: "Kept for [ten years](https://example.org)."}]
            """)
        let objects = try objects(pdf)
        let intents = objects.values.compactMap { $0 as? [String: Any] }.filter { $0["/Type"] as? String == "/OutputIntent" }
        XCTAssertEqual(intents.count, 1)
        XCTAssertEqual(intents.first?["/S"] as? String, "/GTS_PDFA1")
        XCTAssertEqual(intents.first?["/OutputConditionIdentifier"] as? String, "u:sRGB IEC61966-2.1")
        let links = objects.values.compactMap { $0 as? [String: Any] }.filter { $0["/Subtype"] as? String == "/Link" }
        XCTAssertEqual(links.first?["/F"] as? Int, 4, "PDF/A: annotations are printed")
        let file = try TestSupport.temporaryFile(pdf, name: "archive.pdf")
        let xmp = try TestSupport.run("pdfinfo", ["-meta", file.path]).text
        for claim in ["<pdfaid:part>2</pdfaid:part>", "<pdfaid:conformance>U</pdfaid:conformance>", "<pdfuaid:part>1</pdfuaid:part>"] {
            XCTAssertTrue(xmp.contains(claim), claim)
        }
        XCTAssertTrue(xmp.contains("<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>"), "PDF/A needs pdfuaid described")
    }

    func testUnknownConformanceNamesTheField() throws {
        XCTAssertThrowsError(try render("title: x\nmetadata: {conformance: pdfa-1b}\nelements: []")) { error in
            XCTAssertTrue("\(error)".contains("metadata.conformance"), "\(error)")
            XCTAssertTrue("\(error)".contains("pdfa-2u"), "\(error)")
        }
    }

    /// The PDF/UA-1 checker auditors run (pdfua, from PyPI): no errors and no warnings on
    /// every sample and on the hard document.
    func testPDFUACheckerFindsNothing() throws {
        try TestSupport.integrationOnly()
        let checker =
            ProcessInfo.processInfo.environment["FOLIO_PDFUA"]
            ?? TestSupport.root.appendingPathComponent(".venv/bin/pdfua").path
        guard FileManager.default.isExecutableFile(atPath: checker) else {
            return XCTFail("pdfua not found: run `make test`, which installs it into .venv")
        }
        var files = [try TestSupport.temporaryFile(try render(PDFAccessibilityTests.hardDocument), name: "hard.pdf")]
        let samples = try FileManager.default.contentsOfDirectory(atPath: TestSupport.samples.path).filter { $0.hasSuffix(".yaml") }
        XCTAssertGreaterThanOrEqual(samples.count, 3)
        for sample in samples.sorted() {
            let yaml = try String(contentsOf: TestSupport.samples.appendingPathComponent(sample), encoding: .utf8)
            files.append(try TestSupport.temporaryFile(try render(yaml), name: sample.replacingOccurrences(of: ".yaml", with: ".pdf")))
        }
        for file in files {
            let result = try TestSupport.run(checker, ["check", file.path])
            XCTAssertEqual(result.status, 0, "\(file.lastPathComponent):\n\(result.text)\(result.stderr)")
            XCTAssertTrue(result.text.contains("errors=0 warnings=0"), result.text)
            // The finishing step copies untouched objects and writes a new cross-reference table: qpdf reads it cleanly.
            let check = try TestSupport.run("qpdf", ["--check", file.path])
            XCTAssertEqual(check.status, 0, "\(file.lastPathComponent):\n\(check.text)\(check.stderr)")
            XCTAssertTrue(check.text.contains("No syntax or stream encoding errors found"), check.text)
        }
    }
}
