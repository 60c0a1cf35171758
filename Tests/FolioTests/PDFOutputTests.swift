import FolioHTML
import FolioInput
import Foundation
import Synchronization
import XCTest

@testable import Folio
@testable import FolioLayout
@testable import FolioPDF
@testable import FolioPango
@testable import FolioTemplate

/// Checks the PDF the way a reader would: with qpdf, pdffonts, pdfinfo and pdftotext.
final class PDFOutputTests: XCTestCase {
    func testFontFamiliesThatAreNotInstalledAreDroppedBeforePangoSeesThem() throws {
        // Every new name would make fontconfig cache a font set for the life of a server process.
        XCTAssertEqual(InstalledFontFamilies.resolve("Made Up Sans"), FontSpec.defaultFamily)
        XCTAssertEqual(InstalledFontFamilies.resolve("Made Up, dejavu serif, sans-serif"), "dejavu serif, sans-serif")
        XCTAssertEqual(InstalledFontFamilies.resolve("DejaVu Sans Mono"), "DejaVu Sans Mono")
        // What is drawn does not change: the text is there, in an installed font.
        var document = Document(title: "Fallback", elements: [.paragraph(Paragraph("Drawn in a font that exists"))])
        document.theme = ThemeSpec(fontFamily: "Made Up Sans")
        let pdf = try document.pdf()
        XCTAssertTrue(try TestSupport.pdfText(pdf).contains("Drawn in a font that exists"))
        let file = try TestSupport.temporaryFile(pdf, name: "fallback.pdf")
        XCTAssertTrue(try TestSupport.run("pdffonts", [file.path]).text.contains("DejaVuSans"))
    }

    func testSamplePDFIsValidWithEveryFontEmbedded() throws {
        let pdf = try TestSupport.sampleDocument().pdf(options: TestSupport.sampleOptions)
        let file = try TestSupport.temporaryFile(pdf, name: "w1.pdf")
        let check = try TestSupport.run("qpdf", ["--check", file.path])
        XCTAssertEqual(check.status, 0, check.text + check.stderr)
        XCTAssertTrue(check.text.contains("No syntax or stream encoding errors"))

        let fonts = try TestSupport.run("pdffonts", [file.path]).text.split(separator: "\n").dropFirst(2)
        XCTAssertFalse(fonts.isEmpty)
        for line in fonts {
            let columns = line.split(separator: " ")
            // name type… encoding emb sub uni id gen: emb and sub are the 5th and 4th from the end.
            XCTAssertEqual(columns[columns.count - 5], "yes", "not embedded: \(line)")
            XCTAssertEqual(columns[columns.count - 4], "yes", "not subset: \(line)")
        }
    }

    /// A chart's data table is in the PDF too, captioned by the chart, a tagged table (#42); its
    /// names print as written, markup characters and all.
    func testAChartsDataTableIsInThePDF() throws {
        let yaml = """
            elements:
              - type: chart
                kind: bar
                title: Pain
                dataTable: true
                categories: ["*Mon*", Tue]
                series: [{title: Score, values: [3, 5.5]}]
            """
        let pdf = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml).pdf()
        let text = TestSupport.normalized(try TestSupport.pdfText(pdf))
        XCTAssertTrue(text.contains("Pain: Data"), text)
        XCTAssertTrue(text.contains("*Mon* 3.0") || text.contains("*Mon* 3"), text)
        XCTAssertTrue(text.contains("Tue 5.5"), text)
        XCTAssertTrue(try TestSupport.readablePDF(pdf).contains("/Table"), "a tagged table")
        // 300 readings would be pages of table under one chart: the PDF leaves them to the HTML, and says so.
        let long = """
            elements:
              - type: chart
                kind: line
                title: Heart rate
                dataTable: true
                plots: [{title: bpm, values: [\((1...300).map { String(60 + $0 % 40) }.joined(separator: ", "))]}]
            """
        let result = try DocumentDecoder.decode(Data(long.utf8), format: .yaml).pdfWithReport()
        XCTAssertEqual(result.pages, 1)
        XCTAssertFalse(try TestSupport.pdfText(result.data).contains("Heart rate: Data"))
        XCTAssertTrue(result.report.warnings.contains { $0.path == "elements[0].dataTable" && $0.message.contains("300 rows") })
    }

    func testEveryStringOfTheSampleIsInThePDF() throws {
        let document = try TestSupport.sampleDocument()
        let pages = try TestSupport.pageTexts(try document.pdf(options: TestSupport.sampleOptions))
        let all = TestSupport.normalized(pages.joined(separator: " "))
        let expected = TestSupport.visibleStrings(of: document)
        for string in expected where !string.isEmpty {
            XCTAssertTrue(all.contains(TestSupport.normalized(string)), "missing from PDF: \(string)")
        }
        // The rotated y-axis title is extracted without -layout.
        let file = try TestSupport.temporaryFile(try document.pdf(options: TestSupport.sampleOptions), name: "w1.pdf")
        XCTAssertTrue(try TestSupport.run("pdftotext", [file.path, "-"]).text.contains("Score (0–10)"))
    }

    func testHeaderOnEveryPageAndFooterNumbers() throws {
        var document = try TestSupport.sampleDocument()
        document.elements += Array(repeating: .paragraph(Paragraph(String(repeating: "Long note text. ", count: 60))), count: 12)
        let pages = try TestSupport.pageTexts(try document.pdf(options: TestSupport.sampleOptions))
        XCTAssertGreaterThanOrEqual(pages.count, 3)
        for (index, page) in pages.enumerated() {
            XCTAssertTrue(page.contains("2026-11-09 to 2026-11-15 update for Émile Okafor"), "no header on page \(index + 1)")
            XCTAssertTrue(page.contains("Page \(index + 1) of \(pages.count)"), "wrong footer on page \(index + 1)")
        }
    }

    func testMetadataFromTheDocument() throws {
        let info = try TestSupport.pdfInfo(try TestSupport.sampleDocument().pdf(options: TestSupport.sampleOptions))
        XCTAssertEqual(info["Title"], "Weekly Care Summary")
        XCTAssertEqual(info["Author"], "Riverside Care Team")
        XCTAssertEqual(info["Subject"], "Weekly care summary for Émile Okafor (P00001)")
        XCTAssertEqual(info["Keywords"], "care summary, pain, medication adherence, P00001")
        XCTAssertEqual(info["Creator"], "Folio")
        XCTAssertTrue(info["CreationDate"]?.contains("2026") == true, info["CreationDate"] ?? "none")
        XCTAssertEqual(info["Page size"], "595.276 x 841.89 pts (A4)")
    }

    /// Pages before the first labelled section have a label too: the page-label tree starts at page 0.
    func testPageLabelsStartAtTheFirstPage() throws {
        let yaml = """
            title: Labels
            elements:
              - {type: paragraph, text: Front matter before any section.}
              - {type: section, title: Appendix, label: A}
              - {type: paragraph, text: In the appendix.}
            """
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let text = try TestSupport.readablePDF(try document.pdf())
        XCTAssertNotNil(text.range(of: "/Nums\\s*\\[\\s*0\\s*<<\\s*/S\\s*/D\\s*>>\\s*1\\s*<<", options: .regularExpression), text)
    }

    /// The Info dictionary's dates are PDF dates: "D:" and then the date (ISO 32000-1, 7.9.4).
    func testInfoDatesArePDFDates() throws {
        let text = try TestSupport.readablePDF(try TestSupport.sampleDocument().pdf(options: TestSupport.sampleOptions))
        for key in ["CreationDate", "ModDate"] {
            let range = try XCTUnwrap(
                text.range(of: "/\(key) \\(D:[0-9]{14}(Z|[+-][0-9]{2}'[0-9]{2}'?)\\)", options: .regularExpression), key)
            XCTAssertFalse(text[range].isEmpty)
        }
    }

    func testSameInputAndDateGiveIdenticalBytes() throws {
        let document = try TestSupport.sampleDocument()
        XCTAssertEqual(try document.pdf(options: TestSupport.sampleOptions), try document.pdf(options: TestSupport.sampleOptions))
    }

    func testTheFileIdentifierIsADigestOfTheBody() throws {
        // The trailer's /ID: the first 16 bytes of the SHA-256 of everything before the
        // cross-reference stream, twice; the same document gets the same identifier, another one another.
        func identifier(_ pdf: Data) throws -> (id: String, expected: String) {
            let text = String(decoding: pdf, as: UTF8.self)
            let idStart = try XCTUnwrap(text.range(of: "/ID [<", options: .backwards)).upperBound
            let id = String(text[idStart...].prefix(32))
            let tail = try XCTUnwrap(text.range(of: "startxref", options: .backwards)).upperBound
            let offset = try XCTUnwrap(Int(text[tail...].split(whereSeparator: \.isWhitespace).first ?? ""))
            let digest = SHA256Digest.digest(Array(pdf.prefix(offset))).prefix(16)
            XCTAssertTrue(text.contains("/ID [<\(id)><\(id)>]"), "both halves of /ID")
            return (id, digest.map { String(format: "%02x", $0) }.joined())
        }
        let document = try TestSupport.sampleDocument()
        let first = try identifier(try document.pdf(options: TestSupport.sampleOptions))
        XCTAssertEqual(first.id, first.expected)
        XCTAssertEqual(try identifier(try document.pdf(options: TestSupport.sampleOptions)).id, first.id)
        var other = document
        other.title = "Another summary"
        let second = try identifier(try other.pdf(options: TestSupport.sampleOptions))
        XCTAssertEqual(second.id, second.expected)
        XCTAssertNotEqual(second.id, first.id)
    }

    func testADocumentIsTheFileAFreshThreadWritesAfterOtherDocumentsOnTheThread() throws {
        // The thread's text engine keeps the lines it shaped for earlier documents (chart ticks,
        // legends, a template's words), so a batch's worker shapes them once: a document drawn after
        // others, left to right and right to left, must be the very file a new thread (with a new
        // engine and font map) writes.
        let samples = TestSupport.samples
        let document = try TestSupport.sampleDocument()
        let fresh = Mutex<Result<Data, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            fresh.withLock { $0 = Result { try document.pdf(options: TestSupport.sampleOptions) } }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
        let first = try XCTUnwrap(fresh.withLock { $0 }).get()
        for name in ["weekly-summary-ar", "charts", "weekly-summary-fr", "carekit-style", "weekly-summary"] {
            let earlier = try DocumentDecoder.decode(try Data(contentsOf: samples.appendingPathComponent(name + ".yaml")), format: .yaml)
            _ = try earlier.pdf(options: TestSupport.sampleOptions)
        }
        XCTAssertEqual(try document.pdf(options: TestSupport.sampleOptions), first, "the thread's earlier documents changed this one")
        XCTAssertTrue(PangoTextEngine.forCurrentThread(rightToLeft: false) === PangoTextEngine.forCurrentThread(rightToLeft: false))
        XCTAssertFalse(PangoTextEngine.forCurrentThread(rightToLeft: false) === PangoTextEngine.forCurrentThread(rightToLeft: true))
    }

    func testTheTextEnginesKeptLinesAreBounded() {
        let engine = PangoTextEngine()
        for number in 0..<(PangoTextEngine.cachedLineLimit + 100) {
            _ = engine.measure("line \(number)", font: FontSpec(size: 10))
        }
        XCTAssertLessThanOrEqual(engine.cachedLineCount, PangoTextEngine.cachedLineLimit)
        XCTAssertGreaterThan(engine.cachedLineCount, 0)
        // Wrapped paragraphs: the same runs at the same width are laid out once; another width,
        // another layout; and the kept ones are bounded too.
        let runs = [TextRun("A paragraph that wraps over several lines at this width, "), TextRun("bold", bold: true)]
        let first = engine.paragraph(runs, font: FontSpec(size: 10), width: 120)
        XCTAssertTrue(first as AnyObject === engine.paragraph(runs, font: FontSpec(size: 10), width: 120) as AnyObject)
        XCTAssertFalse(first as AnyObject === engine.paragraph(runs, font: FontSpec(size: 10), width: 121) as AnyObject)
        XCTAssertGreaterThan(first.lineExtents.count, 1)
        for number in 0..<(PangoTextEngine.cachedParagraphLimit + 10) {
            _ = engine.paragraph([TextRun("paragraph \(number)")], font: FontSpec(size: 10), width: 200)
        }
        XCTAssertLessThanOrEqual(engine.cachedParagraphCount, PangoTextEngine.cachedParagraphLimit)
        // Fonts too: a thread's engine serves many documents, and a size is any number.
        let reference = engine.lineWidth("Width", font: FontSpec(size: 10))
        for tenth in 0..<(PangoTextEngine.keptFontLimit + 50) {
            _ = engine.lineWidth("Sized", font: FontSpec(size: 6 + Double(tenth) / 10))
        }
        XCTAssertLessThanOrEqual(engine.keptFontCount, PangoTextEngine.keptFontLimit)
        XCTAssertEqual(engine.lineWidth("Width", font: FontSpec(size: 10)), reference)
    }

    func testTheFileDigestContinuedFromTheBodysIsTheWholeFilesSHA256() throws {
        // A batch's manifest lists each PDF's SHA-256, continued from the body's digest taken for
        // /ID: it must be the digest of the whole file; an encrypted file is written again after
        // its body, so it has none and the file is read again.
        let document = try TestSupport.sampleDocument()
        let prepared = try PreparedDocument(document, base: .standard, assets: .files(relativeTo: TestSupport.samples))
        let plain = try PDFRenderer().renderWithReport(prepared)
        let digest = try XCTUnwrap(plain.sha256, "the plain file's digest is taken while writing")
        XCTAssertEqual(SHA256Digest.hex(digest: digest), SHA256Digest.hex(plain.data))
        var protected = document
        protected.protection = Protection(userPassword: "secret", ownerPassword: "owner")
        let encrypted = try PDFRenderer().renderWithReport(
            try PreparedDocument(protected, base: .standard, assets: .files(relativeTo: TestSupport.samples)))
        XCTAssertNil(encrypted.sha256, "an encrypted file is not its body followed by the trailer")
    }

    func testStreamsCairoLeavesUncompressedAreCompressedByTheFinishingStep() throws {
        // `folio` lets Cairo write its streams uncompressed (CAIRO_DEBUG_PDF) for the finishing
        // step to compress once: the PDF must look and read the same, every stream compressed.
        var untagged = try TestSupport.sampleDocument()
        untagged.metadata.tagged = false
        for document in [try TestSupport.sampleDocument(), untagged] {
            let compressedByCairo = try document.pdf(options: TestSupport.sampleOptions)
            PDFRenderer.compressStreamsOnce()
            let compressedOnce: Data
            do {
                defer { unsetenv("CAIRO_DEBUG_PDF") }
                compressedOnce = try document.pdf(options: TestSupport.sampleOptions)
            }
            XCTAssertEqual(try TestSupport.pageTexts(compressedOnce), try TestSupport.pageTexts(compressedByCairo))
            XCTAssertEqual(try TestSupport.rasterize(compressedOnce, dpi: 40), try TestSupport.rasterize(compressedByCairo, dpi: 40))
            let file = try TestSupport.temporaryFile(compressedOnce, name: "once.pdf")
            XCTAssertEqual(try TestSupport.run("qpdf", ["--check", file.path]).status, 0)
            // Every stream has a filter but the XMP packet, which PDF/A wants readable as it is.
            let json = try TestSupport.run("qpdf", ["--json=2", "--json-key=qpdf", file.path]).stdout
            let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            let objects = try XCTUnwrap((root["qpdf"] as? [Any])?.last as? [String: Any])
            var streams = 0
            for (name, value) in objects {
                guard let stream = (value as? [String: Any])?["stream"] as? [String: Any],
                    let dictionary = stream["dict"] as? [String: Any]
                else { continue }
                streams += 1
                if dictionary["/Type"] as? String == "/Metadata" { continue }
                XCTAssertEqual(dictionary["/Filter"] as? String, "/FlateDecode", "\(name) is not compressed: \(dictionary)")
            }
            XCTAssertGreaterThan(streams, 10)
            XCTAssertLessThanOrEqual(compressedOnce.count, compressedByCairo.count + compressedByCairo.count / 20)
        }
    }

    func testMarkupCharactersAppearLiterally() throws {
        let document = Document(
            title: "Escapes",
            elements: [
                .paragraph(Paragraph("<script>alert(1)</script>")),
                .table(Table(header: ["Cell"], rows: [["&<>\"'"]])),
            ])
        let text = try TestSupport.pageTexts(try document.pdf()).joined()
        XCTAssertTrue(text.contains("<script>alert(1)</script>"))
        XCTAssertTrue(text.contains("&<>\"'"))
    }

    func testLinksAreClickable() throws {
        let document = Document(
            title: "Links",
            elements: [
                .paragraph(Paragraph("Read the [care plan](https://example.org/plan?a=1&b=2) or **mail** [us](mailto:team@example.org)."))
            ])
        let pdf = try document.pdf()
        let raw = try TestSupport.readablePDF(pdf)
        XCTAssertTrue(raw.contains("/URI (https://example.org/plan?a=1&b=2)"), "no link annotation")
        XCTAssertTrue(raw.contains("/URI (mailto:team@example.org)"))
        XCTAssertTrue(try TestSupport.pageTexts(pdf)[0].contains("Read the care plan or mail us."))
    }

    func testSubtitleIsNeverTheLastThingOnAPage() throws {
        var elements: [Block] = []
        for section in 0..<30 {
            elements.append(.subtitle(Subtitle("Section heading \(section)")))
            elements.append(.paragraph(Paragraph(String(repeating: "Words of the section body. ", count: 4 + section % 7 * 9))))
        }
        let pages = try TestSupport.pageTexts(try Document(title: "Keep with next", elements: elements).pdf())
        XCTAssertGreaterThan(pages.count, 3)
        for (index, page) in pages.enumerated() {
            let lines = page.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            // The last line is the footer; the one before is the last content line.
            let lastContent = lines.dropLast().last ?? ""
            XCTAssertFalse(lastContent.hasPrefix("Section heading"), "page \(index + 1) ends with \(lastContent)")
        }
        let all = pages.joined()
        for section in 0..<30 { XCTAssertTrue(all.contains("Section heading \(section)")) }
    }

    func testLongTableSplitsWithItsHeaderRepeated() throws {
        let rows = (1...150).map { ["Row \($0)", "\($0 * 7) mg", "Value \($0)"] }
        let document = Document(title: "Table", elements: [.table(Table(header: ["Medicine", "Amount", "Notes"], rows: rows))])
        let pages = try TestSupport.pageTexts(try document.pdf())
        XCTAssertGreaterThan(pages.count, 2)
        var seen: [Int] = []
        for page in pages {
            XCTAssertTrue(page.contains("Medicine") && page.contains("Amount"), "header not repeated")
            for line in page.split(separator: "\n") {
                let words = line.split(separator: " ")
                if words.count >= 2, words[0] == "Row", let number = Int(words[1]) { seen.append(number) }
            }
        }
        XCTAssertEqual(seen, Array(1...150), "rows lost, repeated or out of order")
    }

    func testPageBreakAndCustomPageSize() throws {
        let document = Document(
            title: "Breaks", page: PageSetup(size: .custom(width: 400, height: 300), orientation: .landscape, margins: .init(all: 30)),
            elements: [.paragraph(Paragraph("First")), .pageBreak, .paragraph(Paragraph("Second"))])
        let pdf = try document.pdf()
        let pages = try TestSupport.pageTexts(pdf)
        XCTAssertEqual(pages.count, 2)
        XCTAssertTrue(pages[1].contains("Second") && !pages[0].contains("Second"))
        XCTAssertEqual(try TestSupport.pdfInfo(pdf)["Page size"], "400 x 300 pts")
    }

    func testImageTallerThanAPageIsScaledOntoOnePage() throws {
        // A 100 × 3000 pixel PNG, made by rendering a tall page with Folio and pdftoppm.
        let tall = Document(
            title: "Tall", page: PageSetup(size: .custom(width: 100, height: 3000), margins: .init(all: 10)),
            elements: [])
        let pdfFile = try TestSupport.temporaryFile(try tall.pdf(), name: "tall.pdf")
        let pngBase = pdfFile.deletingLastPathComponent().appendingPathComponent("tall")
        XCTAssertEqual(try TestSupport.run("pdftoppm", ["-r", "72", "-png", "-singlefile", pdfFile.path, pngBase.path]).status, 0)
        let png = try Data(contentsOf: pngBase.appendingPathExtension("png"))
        XCTAssertEqual(ImageData(bytes: png)?.pixelHeight, 3000)

        let document = Document(
            title: "Scaled",
            elements: [
                .paragraph(Paragraph("Before the picture.")),
                .image(ImageBlock(source: .data(png), alt: "tall strip", caption: "A tall strip")),
                .paragraph(Paragraph("After the picture.")),
            ])
        let pages = try TestSupport.pageTexts(try document.pdf())
        XCTAssertEqual(pages.count, 3, "the picture moves to its own page, shrunk to fit")
        XCTAssertTrue(pages[1].contains("A tall strip"))
        XCTAssertTrue(pages[2].contains("After the picture."))
    }

    func testAPictureDecodedOnceInAProcessDrawsTheSameInEveryLaterDocument() throws {
        // A PNG no other test draws (its text is random), made with Folio and pdftoppm.
        let marker = UUID().uuidString
        let source = Document(
            title: marker, page: PageSetup(size: .custom(width: 300, height: 100), margins: .init(all: 6)),
            elements: [.paragraph(Paragraph("**\(marker)**"))])
        let pdfFile = try TestSupport.temporaryFile(try source.pdf(), name: "picture.pdf")
        let pngBase = pdfFile.deletingLastPathComponent().appendingPathComponent("picture")
        XCTAssertEqual(try TestSupport.run("pdftoppm", ["-r", "72", "-png", "-singlefile", pdfFile.path, pngBase.path]).status, 0)
        let png = try Data(contentsOf: pngBase.appendingPathExtension("png"))
        var metadata = Metadata()
        metadata.creationDate = Date(timeIntervalSince1970: 1_700_000_000)
        let document = Document(
            title: "Logo", metadata: metadata,
            elements: [.image(ImageBlock(source: .data(png), width: .cm(6), alt: "logo")), .paragraph(Paragraph("Text."))])
        let kept = DecodedPixelStore.count
        let decoded = try document.pdf()
        XCTAssertEqual(DecodedPixelStore.count, kept + 1, "the decoded pixels are kept")
        let copied = try document.pdf()
        XCTAssertEqual(DecodedPixelStore.count, kept + 1, "and used again, not decoded a second time")
        XCTAssertEqual(decoded, copied, "the document drawn from the kept pixels is the same file, byte for byte")
        let file = try TestSupport.temporaryFile(copied, name: "logo.pdf")
        let list = try TestSupport.run("pdfimages", ["-list", file.path]).text
        let picture = try XCTUnwrap(ImageData(bytes: png))
        let rows = list.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.filter { $0.count > 4 && $0[2] == "image" }
        XCTAssertEqual(rows.map { [$0[3], $0[4]] }, [["\(picture.pixelWidth)", "\(picture.pixelHeight)"]], list)
    }

    func testJPEGImagesAreEmbeddedAsJPEG() throws {
        let base = try TestSupport.temporaryDirectory()
        let source = base.appendingPathComponent("page.pdf")
        try Document(
            title: "Photo",
            page: PageSetup(
                size: .custom(width: 200, height: 150), orientation: .landscape,
                margins: .init(all: 10)), elements: []
        )
        .pdf().write(to: source)
        XCTAssertEqual(
            try TestSupport.run(
                "pdftoppm",
                [
                    "-r", "72", "-jpeg", "-singlefile", source.path,
                    base.appendingPathComponent("photo").path,
                ]
            ).status, 0)
        let yaml = "title: With photo\nelements:\n  - {type: image, path: photo.jpg, width: 5cm, alt: A photo}\n"
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let pdf = try document.pdf(options: RenderOptions(baseDirectory: base))
        let file = try TestSupport.temporaryFile(pdf, name: "photo.pdf")
        let list = try TestSupport.run("pdfimages", ["-list", file.path]).text
        XCTAssertTrue(list.contains("jpeg"), list)
        XCTAssertTrue(list.contains(" 200   150 "), list)
    }
}
