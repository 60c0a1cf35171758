import Foundation
import XCTest

@testable import Folio

/// PDFs made elsewhere placed into a document (`pdf` blocks), checked as the clinic assembling a
/// packet and the specialist reading it would: every page counted, the appended text where it was
/// in its own file, bookmarks reaching the appended pages, each page a Figure with its text
/// alternative, the packet passing qpdf and both PDF/UA checkers; hostile files refused in one line
/// naming the field, nothing written.
final class AppendedPDFIntegrationTests: XCTestCase {
    static let appended = TestSupport.samples.appendingPathComponent("appended")

    /// Renders `document` (YAML) from a folder holding copies of the sample's appended PDFs and
    /// `extra` files; the result of `folio render`, and the PDF when one was written.
    private func render(_ document: String, extra: [String: Data] = [:]) throws -> (output: TestSupport.Output, pdf: Data?) {
        let folder = try TestSupport.temporaryDirectory()
        for name in ["lab-report.pdf", "consent.pdf"] {
            try FileManager.default.copyItem(at: Self.appended.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        for (name, data) in extra { try data.write(to: folder.appendingPathComponent(name)) }
        let input = folder.appendingPathComponent("packet.yaml")
        try Data(document.utf8).write(to: input)
        let output = folder.appendingPathComponent("packet.pdf")
        let result = try TestSupport.run(TestSupport.folioBinary.path, ["render", input.path, "-o", output.path])
        return (result, try? Data(contentsOf: output))
    }

    /// The patient packet sample: the summary's page, the lab report's two pages at their own size,
    /// the consent framed on a page of the document; "Page N of M" counts all four.
    func testPacketSampleCountsEveryPageAndPassesTheCheckers() throws {
        let folder = try TestSupport.temporaryDirectory()
        let output = folder.appendingPathComponent("packet.pdf")
        let result = try TestSupport.run(
            TestSupport.folioBinary.path,
            ["render", TestSupport.samples.appendingPathComponent("patient-packet.yaml").path, "-o", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let pdf = try Data(contentsOf: output)
        let pages = try TestSupport.pageTexts(pdf)
        XCTAssertEqual(pages.count, 4)
        XCTAssertTrue(pages[0].contains("Page 1 of 4"), pages[0])
        XCTAssertTrue(pages[1].contains("Northside Laboratory — Chemistry panel"), pages[1])
        XCTAssertTrue(pages[1].contains("Haemoglobin A1c"), pages[1])
        XCTAssertTrue(pages[2].contains("Interpretation: HbA1c above target"), pages[2])
        // Whole appended pages have no running header or footer of the packet.
        XCTAssertFalse(pages[1].contains("Page 2 of 4") || pages[1].contains("Riverside Clinic"), pages[1])
        XCTAssertTrue(pages[3].contains("I, Maria Example, agree"), pages[3])
        XCTAssertTrue(pages[3].contains("Page 4 of 4"), pages[3])
        let check = try TestSupport.run("qpdf", ["--check", output.path])
        XCTAssertEqual(check.status, 0, check.text + check.stderr)
        try TestSupport.assertPassesPDFUACheckers([output.path])

        // The bookmarks reach the appended pages; each appended page is a Figure whose alternative
        // is the block's, numbered among its pages.
        let script = """
            import sys, pikepdf
            pdf = pikepdf.open(sys.argv[1])
            pages = {page.objgen: index + 1 for index, page in enumerate(pdf.pages)}
            with pdf.open_outline() as outline:
                def walk(items):
                    for item in items:
                        print("bookmark", pages[item.destination[0].objgen], item.title)
                        walk(item.children)
                walk(outline.root)
            def elements(node):
                kids = node.get("/K")
                if kids is None: return
                for kid in (kids if isinstance(kids, pikepdf.Array) else [kids]):
                    if isinstance(kid, pikepdf.Dictionary) and kid.get("/S") is not None:
                        if kid.S == "/Figure": print("figure", str(kid.get("/Alt", "")))
                        elements(kid)
            elements(pdf.Root.StructTreeRoot)
            """
        let read = try TestSupport.run(try TestSupport.python(), ["-c", script, output.path])
        XCTAssertEqual(read.status, 0, read.stderr)
        let lines = read.text.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("bookmark 2 Laboratory report, Nov 20, 2026"), read.text)
        XCTAssertTrue(lines.contains("bookmark 4 Consent to share health information"), read.text)
        let figures = lines.filter { $0.hasPrefix("figure ") }
        XCTAssertEqual(figures.filter { $0.contains("Northside Laboratory chemistry panel") }.count, 2, read.text)
        XCTAssertTrue(figures.contains { $0.hasSuffix("Validated by Dr. J. Lee. (1/2)") }, read.text)
        XCTAssertTrue(figures.contains { $0.hasSuffix("Validated by Dr. J. Lee. (2/2)") }, read.text)
        XCTAssertTrue(figures.contains { $0.contains("Consent signed by Maria Example") }, read.text)
    }

    /// A whole appended page keeps its size and its text stays where its own file has it.
    func testWholePagesKeepTheirSizeAndTheirTextWhereItWas() throws {
        let (output, pdf) = try render(
            """
            title: Packet
            elements:
              - {type: paragraph, text: Summary first.}
              - {type: pdf, path: lab-report.pdf, pages: "2", alt: The lab report's second page}
              - {type: pdf, path: consent.pdf, alt: The consent form}
            """)
        XCTAssertEqual(output.status, 0, output.stderr)
        let packet = try XCTUnwrap(pdf)
        let original = try Data(contentsOf: Self.appended.appendingPathComponent("lab-report.pdf"))
        func box(_ words: [(text: String, xMin: Double, yMin: Double, xMax: Double)], _ word: String) -> (Double, Double)? {
            words.first { $0.text == word }.map { ($0.xMin, $0.yMin) }
        }
        let placed = try XCTUnwrap(box(try TestSupport.words(packet, page: 2), "Interpretation:"))
        let source = try XCTUnwrap(box(try TestSupport.words(original, page: 2), "Interpretation:"))
        XCTAssertEqual(placed.0, source.0, accuracy: 0.01)
        XCTAssertEqual(placed.1, source.1, accuracy: 0.01)
        let file = try TestSupport.temporaryFile(packet, name: "sizes.pdf")
        let sizes = try TestSupport.run("pdfinfo", ["-f", "1", "-l", "3", file.path]).text
        XCTAssertTrue(sizes.contains("Page    2 size:  595.276 x 841.89 pts"), sizes)
        XCTAssertTrue(sizes.contains("Page    3 size:  612 x 792 pts (letter)"), sizes)
        XCTAssertEqual(try TestSupport.pageTexts(packet).count, 3)
    }

    /// The appended pages' links to web addresses stay over their words, whole or framed (scaled):
    /// each an annotation with the address as its description and a Link element; the checkers pass.
    func testLinksStayOverTheirWords() throws {
        for fit in ["page", "frame"] {
            let (output, pdf) = try render(
                "title: Packet\nelements:\n  - {type: pdf, path: lab-report.pdf, pages: \"2\", fit: \(fit), alt: The lab report's second page}\n"
            )
            XCTAssertEqual(output.status, 0, output.stderr)
            let packet = try XCTUnwrap(pdf)
            let file = try TestSupport.temporaryFile(packet, name: "links-\(fit).pdf")
            let script = """
                import sys, pikepdf
                pdf = pikepdf.open(sys.argv[1])
                page = pdf.pages[1]
                height = float(page.MediaBox[3])
                for annotation in page.get("/Annots", []):
                    if "/A" in annotation and annotation.A.get("/S") == "/URI":
                        x0, y0, x1, y1 = [float(v) for v in annotation.Rect]
                        print(str(annotation.A.URI), x0, height - y1, x1, height - y0, str(annotation.get("/Contents", "")))
                """
            let read = try TestSupport.run(try TestSupport.python(), ["-c", script, file.path])
            XCTAssertEqual(read.status, 0, read.stderr)
            let links = read.text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            XCTAssertEqual(links.count, 2, "\(fit): \(read.text)")
            XCTAssertTrue(links.allSatisfy { $0.first == "https://northside-lab.example/results/R-4471" && $0.last == $0.first }, read.text)
            // Each word of the address is under one of its link's rectangles.
            let words = try TestSupport.words(packet, page: 2).filter { $0.text.contains("R-4471") || $0.text.contains("northside-lab") }
            XCTAssertEqual(words.count, 2, "\(words)")
            for word in words {
                let middle = ((word.xMin + word.xMax) / 2, word.yMin + 4)
                let covered = links.contains { link in
                    guard let x0 = Double(link[1]), let y0 = Double(link[2]), let x1 = Double(link[3]), let y1 = Double(link[4]) else {
                        return false
                    }
                    return middle.0 >= x0 && middle.0 <= x1 && middle.1 >= y0 - 1 && middle.1 <= y1 + 1
                }
                XCTAssertTrue(covered, "\(fit): \(word.text) at \(middle) is under no link: \(read.text)")
            }
            try TestSupport.assertPassesPDFUACheckers([file.path])
        }
    }

    /// A tagged PDF (one Folio made) appended whole: its own marked content is taken out (its MCIDs
    /// would point into a structure tree that is not copied), its words stay, and the packet passes the
    /// checkers; a long footnote carried over to the next page's foot does not share that page with
    /// an appended page, which keeps a page of its own.
    func testATaggedPDFAppendedLosesItsMarksButNotItsWords() throws {
        let made = try render("title: Made by Folio\nelements:\n  - {type: paragraph, text: Tagged words to keep.}\n")
        XCTAssertEqual(made.output.status, 0, made.output.stderr)
        let tagged = try XCTUnwrap(made.pdf)
        let readable = try TestSupport.readablePDF(tagged)
        XCTAssertTrue(readable.contains("/StructTreeRoot") && readable.contains("/MCID"), "the PDF appended is tagged")
        var generator = SeededGenerator(seed: 3)
        let pool = ["walked", "slept", "pain", "eased", "dose", "missed", "evening", "morning"]
        let note = (0..<900).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }.joined(separator: " ")
        let (output, pdf) = try render(
            """
            title: Packet
            footnotes: {long: "\(note)."}
            elements:
              - {type: paragraph, text: "A claim[^long]."}
              - {type: pdf, path: tagged.pdf, alt: A note made by Folio}
            """, extra: ["tagged.pdf": tagged])
        XCTAssertEqual(output.status, 0, output.stderr)
        let packet = try XCTUnwrap(pdf)
        let pages = try TestSupport.pageTexts(packet)
        let appended = try XCTUnwrap(pages.firstIndex { $0.contains("Tagged words to keep.") })
        XCTAssertFalse(pages[appended].contains("(continued)"), "the appended page shares its page with a note")
        XCTAssertTrue(pages[..<appended].contains { $0.contains("1 (continued)") }, "the long note goes on before the appended page")
        let file = try TestSupport.temporaryFile(packet, name: "tagged-inside.pdf")
        XCTAssertEqual(try TestSupport.run("qpdf", ["--check", file.path]).status, 0)
        try TestSupport.assertPassesPDFUACheckers([file.path])
    }

    /// Without an `alt`, each page's own text (read by poppler) is its alternative, in the PDF and in
    /// the HTML; a page without text is then refused in one line.
    func testWithoutAnAltEachPagesTextIsItsAlternative() throws {
        let (output, pdf) = try render("title: Packet\nelements:\n  - {type: pdf, path: lab-report.pdf}\n")
        XCTAssertEqual(output.status, 0, output.stderr)
        let file = try TestSupport.temporaryFile(try XCTUnwrap(pdf), name: "text-alternatives.pdf")
        let script = """
            import sys, pikepdf
            def walk(node):
                kids = node.get("/K")
                if kids is None: return
                for kid in (kids if isinstance(kids, pikepdf.Array) else [kids]):
                    if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
                        if kid.S == "/Figure": print(str(kid.get("/Alt", "")))
                        walk(kid)
            pdf = pikepdf.open(sys.argv[1])
            walk(pdf.Root.StructTreeRoot)
            """
        let read = try TestSupport.run(try TestSupport.python(), ["-c", script, file.path])
        let alternatives = read.text.split(separator: "\n").map(String.init)
        guard alternatives.count == 2 else { return XCTFail("expected two Figures: \(read.text) \(read.stderr)") }
        XCTAssertTrue(alternatives[0].hasPrefix("Northside Laboratory — Chemistry panel Patient: Maria Example"), alternatives[0])
        // Cells and rows poppler runs together are set apart, as a reader hears them.
        XCTAssertTrue(alternatives[0].contains("Haemoglobin A1c 7.4 % 4.0–5.6 H Glucose, fasting 8.1 mmol/L"), alternatives[0])
        XCTAssertTrue(alternatives[0].contains("Creatinine 88 µmol/L 60–110 eGFR 74"), alternatives[0])
        XCTAssertTrue(alternatives[1].contains("Interpretation: HbA1c above target"), alternatives[1])
        try TestSupport.assertPassesPDFUACheckers([file.path])

        let folder = try TestSupport.temporaryDirectory()
        let blank = folder.appendingPathComponent("blank.pdf")
        let made = try TestSupport.run(
            try TestSupport.python(), ["-c", "import sys, pikepdf\np = pikepdf.new()\np.add_blank_page()\np.save(sys.argv[1])", blank.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let refused = try render(
            "title: T\nelements:\n  - {type: pdf, path: blank.pdf}\n", extra: ["blank.pdf": try Data(contentsOf: blank)])
        XCTAssertTrue(
            refused.output.stderr.contains("elements[0].path: page 1 of blank.pdf has no text to read out"), refused.output.stderr)
        XCTAssertNil(refused.pdf)
    }

    /// A page turned by /Rotate is shown turned, at its turned size.
    func testRotatedPagesAreShownTurned() throws {
        let folder = try TestSupport.temporaryDirectory()
        let rotated = folder.appendingPathComponent("rotated.pdf")
        let made = try TestSupport.run(
            "qpdf", ["--rotate=+90", Self.appended.appendingPathComponent("consent.pdf").path, rotated.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let (output, pdf) = try render(
            "title: Packet\nelements:\n  - {type: pdf, path: rotated.pdf, alt: \"The consent form, turned\"}\n",
            extra: ["rotated.pdf": try Data(contentsOf: rotated)])
        XCTAssertEqual(output.status, 0, output.stderr)
        let file = try TestSupport.temporaryFile(try XCTUnwrap(pdf), name: "turned.pdf")
        let sizes = try TestSupport.run("pdfinfo", ["-f", "2", "-l", "2", file.path]).text
        XCTAssertTrue(sizes.contains("Page    2 size:  792 x 612 pts"), sizes)
        // Turned clockwise, the form's first line runs down the page's right side: pdftotext
        // still reads it, and its words stand in the right half.
        let words = try TestSupport.words(try XCTUnwrap(pdf), page: 2)
        let consent = try XCTUnwrap(words.first { $0.text == "Consent" })
        XCTAssertGreaterThan(consent.xMin, 396)
    }

    /// Hostile appended PDFs are refused with one line naming the field, and nothing is written.
    func testHostilePDFsAreRefusedNamingTheField() throws {
        let consent = Self.appended.appendingPathComponent("consent.pdf").path
        let folder = try TestSupport.temporaryDirectory()
        let encrypted = folder.appendingPathComponent("encrypted.pdf")
        XCTAssertEqual(try TestSupport.run("qpdf", ["--encrypt", "user", "owner", "256", "--", consent, encrypted.path]).status, 0)
        let ownerOnly = folder.appendingPathComponent("owner-only.pdf")
        XCTAssertEqual(try TestSupport.run("qpdf", ["--encrypt", "", "owner", "256", "--", consent, ownerOnly.path]).status, 0)
        let lab = try Data(contentsOf: Self.appended.appendingPathComponent("lab-report.pdf"))
        let script = """
            import sys, pikepdf
            folder, consent = sys.argv[1], sys.argv[2]
            pdf = pikepdf.open(consent)
            pdf.Root.OpenAction = pikepdf.Dictionary(S=pikepdf.Name.JavaScript, JS=pikepdf.String("app.alert(1)"))
            pdf.save(folder + "/open-action.pdf")
            pdf = pikepdf.open(consent)
            action = pikepdf.Dictionary(S=pikepdf.Name.JavaScript, JS=pikepdf.String("app.alert(1)"))
            link = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[0, 0, 10, 10], A=action)
            pdf.pages[0].Annots = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(link)]))
            pdf.save(folder + "/link-script.pdf")
            pdf = pikepdf.open(consent)
            launch = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[0, 0, 10, 10],
                                        A=pikepdf.Dictionary(S=pikepdf.Name.Launch, F=pikepdf.String("calc.exe")))
            pdf.pages[0].Annots = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(launch)]))
            pdf.save(folder + "/launch.pdf")
            pdf = pikepdf.open(consent)
            pdf.Root.Pages.Kids.append(pdf.Root.Pages)
            pdf.Root.Pages.Count = 2
            pdf.save(folder + "/loop.pdf")
            many = pikepdf.new()
            for _ in range(10000): many.add_blank_page()
            many.save(folder + "/many.pdf")
            """
        let made = try TestSupport.run(try TestSupport.python(), ["-c", script, folder.path, consent])
        XCTAssertEqual(made.status, 0, made.stderr)
        let cases: [(name: String, data: Data, reason: String)] = [
            ("encrypted.pdf", try Data(contentsOf: encrypted), "it is encrypted"),
            ("owner-only.pdf", try Data(contentsOf: ownerOnly), "it is encrypted"),
            ("truncated.pdf", lab.prefix(lab.count * 2 / 3), "it is not a PDF that can be read"),
            ("not-a-pdf.pdf", Data("%PDF-1.7\nhello".utf8), "it is not a PDF that can be read"),
            ("open-action.pdf", try Data(contentsOf: folder.appendingPathComponent("open-action.pdf")), "it runs an action when opened"),
            ("link-script.pdf", try Data(contentsOf: folder.appendingPathComponent("link-script.pdf")), "it holds JavaScript"),
            ("launch.pdf", try Data(contentsOf: folder.appendingPathComponent("launch.pdf")), "it holds an action that launches a program"),
            ("loop.pdf", try Data(contentsOf: folder.appendingPathComponent("loop.pdf")), "it is damaged"),
            ("many.pdf", try Data(contentsOf: folder.appendingPathComponent("many.pdf")), "it has 10000 pages; at most 2000"),
        ]
        for (name, data, reason) in cases {
            let (output, pdf) = try render(
                "title: Packet\nelements:\n  - {type: paragraph, text: Summary.}\n  - {type: pdf, path: \(name), alt: A report}\n",
                extra: [name: data])
            XCTAssertNotEqual(output.status, 0, name)
            XCTAssertNil(pdf, "\(name): a PDF was written")
            let lines = output.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, output.stderr)
            XCTAssertTrue(output.stderr.contains("elements[1].path: \(name) is refused: \(reason)"), "\(name): \(output.stderr)")
        }
    }

    /// r66: appended PDFs are checked as deeply as images are. A font program of random bytes is
    /// refused naming the page and the font (FreeType opens every embedded program); 40 pages sharing
    /// one 60 MB content stream are bounded for the file as a whole (13 s before); without an alt,
    /// the text poppler would read — a page's own and its forms', however often drawn — is bounded
    /// before it is read (over 90 s before).
    func testAppendedPDFsAreCheckedAsDeeplyAsImages() throws {
        let folder = try TestSupport.temporaryDirectory()
        let script = """
            import sys, os, zlib, pikepdf
            from pikepdf import Name, Dictionary, Array, Stream
            folder = sys.argv[1]
            def font(pdf, program, name):
                stream = Stream(pdf, program); stream.Length1 = len(program)
                descriptor = Dictionary(Type=Name.FontDescriptor, FontName=Name("/" + name), Flags=32, FontBBox=Array([0, 0, 1000, 1000]),
                                        ItalicAngle=0, Ascent=800, Descent=-200, CapHeight=700, StemV=80, FontFile2=stream)
                return Dictionary(Type=Name.Font, Subtype=Name.TrueType, BaseFont=Name("/" + name), FirstChar=32, LastChar=126,
                                  Widths=Array([500] * 95), FontDescriptor=descriptor)
            def page(pdf, content, resources):
                pdf.pages.append(pikepdf.Page(Dictionary(Type=Name.Page, MediaBox=Array([0, 0, 612, 792]), Contents=content, Resources=resources)))
            dejavu = open("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "rb").read()
            pdf = pikepdf.new()
            page(pdf, Stream(pdf, b"BT /F1 12 Tf 72 720 Td (Results) Tj ET"), Dictionary(Font=Dictionary(F1=font(pdf, os.urandom(4000), "Random"))))
            pdf.save(folder + "/random-font.pdf")
            pdf = pikepdf.new()
            line = b"BT /F1 12 Tf 72 720 Td (Results) Tj ET\\n"
            shared = Stream(pdf, zlib.compress(line * (60_000_000 // len(line)), 9)); shared.Filter = Name.FlateDecode
            resources = Dictionary(Font=Dictionary(F1=font(pdf, dejavu, "DejaVuSans")))
            for _ in range(40): page(pdf, shared, resources)
            pdf.save(folder + "/shared-content.pdf")
            pdf = pikepdf.new()
            form = Stream(pdf, "\\n".join(f"BT /F1 8 Tf 72 720 Td (w{i}) Tj ET" for i in range(100)).encode())
            form.Type = Name.XObject; form.Subtype = Name.Form; form.BBox = Array([0, 0, 612, 792])
            form.Resources = Dictionary(Font=Dictionary(F1=font(pdf, dejavu, "DejaVuSans")))
            page(pdf, Stream(pdf, b"/Fm Do\\n" * 200), Dictionary(XObject=Dictionary(Fm=form)))
            pdf.save(folder + "/drawn-often.pdf")
            """
        let made = try TestSupport.run(try TestSupport.python(), ["-c", script, folder.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let cases: [(name: String, alt: String, reason: String)] = [
            (
                "random-font.pdf", ", alt: A report",
                "random-font.pdf is refused: page 1 uses the font Random, whose embedded program is damaged"
            ),
            (
                "shared-content.pdf", ", alt: A report",
                "shared-content.pdf is refused: the content of its pages inflates to more than 128 MB in all (at page 3)"
            ),
            ("drawn-often.pdf", "", "drawn-often.pdf has no alt, and its pages show text in 20000 pieces (20000 on one page)"),
        ]
        for (name, alt, reason) in cases {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let (output, pdf) = try render("title: Packet\nelements:\n  - {type: pdf, path: \(name)\(alt)}\n", extra: [name: data])
            XCTAssertNotEqual(output.status, 0, name)
            XCTAssertNil(pdf, "\(name): a PDF was written")
            XCTAssertEqual(output.stderr.split(separator: "\n").count, 1, output.stderr)
            XCTAssertTrue(output.stderr.contains("elements[0].path: \(reason)"), "\(name): \(output.stderr)")
        }
        // The same form drawn a few times is read, and its words are the page's alternative.
        let fewer = try TestSupport.run(
            try TestSupport.python(), ["-c", script.replacingOccurrences(of: "* 200", with: "* 2"), folder.path])
        XCTAssertEqual(fewer.status, 0, fewer.stderr)
        let (output, pdf) = try render(
            "title: Packet\nelements:\n  - {type: pdf, path: drawn-often.pdf}\n",
            extra: ["drawn-often.pdf": try Data(contentsOf: folder.appendingPathComponent("drawn-often.pdf"))])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertNotNil(pdf)
    }

    /// Damaged copies of the sample PDFs (bytes changed, cut short, zeroed): each is refused in one line
    /// naming the field, or appended into a PDF that qpdf finds sound; never a crash.
    func testDamagedPDFsAreRefusedInOneLineOrAppendedSoundly() throws {
        let sources = try ["lab-report.pdf", "consent.pdf"].map { try Data(contentsOf: Self.appended.appendingPathComponent($0)) }
        var generator = SeededGenerator(seed: 45)
        var refused = 0
        for round in 0..<40 {
            var bytes = [UInt8](sources[round % 2])
            switch round % 4 {
            case 0:
                for _ in 0..<(1 + Int(generator.next() % 12)) {
                    bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
            case 1: bytes = Array(bytes.prefix(Int(generator.next() % UInt64(bytes.count))))
            case 2:
                let start = Int(generator.next() % UInt64(bytes.count))
                for index in start..<min(start + 200, bytes.count) { bytes[index] = 0 }
            default:
                let from = Int(generator.next() % UInt64(bytes.count - 64))
                let to = Int(generator.next() % UInt64(bytes.count - 64))
                bytes.replaceSubrange(to..<(to + 64), with: bytes[from..<(from + 64)])
            }
            let (output, pdf) = try render(
                "title: T\nelements:\n  - {type: pdf, path: damaged.pdf, alt: A report}\n", extra: ["damaged.pdf": Data(bytes)])
            if output.status == 0 {
                let file = try TestSupport.temporaryFile(try XCTUnwrap(pdf), name: "sound-\(round).pdf")
                XCTAssertEqual(try TestSupport.run("qpdf", ["--check", file.path]).status, 0, "round \(round)")
            } else {
                refused += 1
                XCTAssertEqual(output.status, 1, "round \(round): \(output.stderr)")
                XCTAssertEqual(output.stderr.split(separator: "\n").count, 1, "round \(round): \(output.stderr)")
                XCTAssertTrue(output.stderr.contains("elements[0].path: damaged.pdf is refused: "), "round \(round): \(output.stderr)")
                XCTAssertNil(pdf)
            }
        }
        XCTAssertGreaterThan(refused, 10)
    }

    /// A tagged document refuses a page whose font is not embedded (PDF/UA needs every font
    /// embedded); an untagged one takes it.
    func testFontsNotEmbeddedAreRefusedInTaggedDocuments() throws {
        let script = """
            import sys
            from reportlab.pdfgen import canvas
            page = canvas.Canvas(sys.argv[1]); page.drawString(72, 700, "Standard font"); page.showPage(); page.save()
            """
        let folder = try TestSupport.temporaryDirectory()
        let path = folder.appendingPathComponent("helvetica.pdf")
        let made = try TestSupport.run(try TestSupport.python(), ["-c", script, path.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let data = try Data(contentsOf: path)
        let tagged = try render("title: T\nelements:\n  - {type: pdf, path: helvetica.pdf, alt: A note}\n", extra: ["helvetica.pdf": data])
        XCTAssertTrue(
            tagged.output.stderr.contains(
                "elements[0].path: helvetica.pdf is refused: page 1 uses the font Helvetica without embedding it"), tagged.output.stderr)
        XCTAssertNil(tagged.pdf)
        let untagged = try render(
            "title: T\nmetadata: {tagged: false}\nelements:\n  - {type: pdf, path: helvetica.pdf, alt: A note}\n",
            extra: ["helvetica.pdf": data])
        XCTAssertEqual(untagged.output.status, 0, untagged.output.stderr)
        XCTAssertTrue(try TestSupport.pdfText(try XCTUnwrap(untagged.pdf)).contains("Standard font"))
    }

    /// A filled form field (an annotation's appearance, which is not copied) is kept as page content:
    /// the consent's filled-in name is on the appended page.
    func testFilledFormFieldsStayOnThePage() throws {
        let script = """
            import sys
            from reportlab.pdfgen import canvas
            page = canvas.Canvas(sys.argv[1])
            page.drawString(72, 720, "Consent form")
            page.acroForm.textfield(name="signer", value="Maria Example", x=72, y=650, width=200, height=20, borderWidth=0)
            page.showPage()
            page.save()
            """
        let folder = try TestSupport.temporaryDirectory()
        let path = folder.appendingPathComponent("form.pdf")
        let made = try TestSupport.run(try TestSupport.python(), ["-c", script, path.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let (output, pdf) = try render(
            "title: T\nmetadata: {tagged: false}\nelements:\n  - {type: pdf, path: form.pdf, alt: The filled consent form}\n",
            extra: ["form.pdf": try Data(contentsOf: path)])
        XCTAssertEqual(output.status, 0, output.stderr)
        let pages = try TestSupport.pageTexts(try XCTUnwrap(pdf))
        XCTAssertTrue(pages.last?.contains("Maria Example") == true, "\(pages)")
    }

    /// A layer its file hides (optional content off by default) stays hidden; a shown one shows.
    func testHiddenLayersStayHidden() throws {
        let script = """
            import sys, pikepdf
            from pikepdf import Name, Dictionary, Array
            pdf = pikepdf.new()
            pdf.add_blank_page(page_size=(612, 792))
            page = pdf.pages[0]
            font = pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica))
            hidden = pdf.make_indirect(Dictionary(Type=Name.OCG, Name=pikepdf.String("Draft notes")))
            shown = pdf.make_indirect(Dictionary(Type=Name.OCG, Name=pikepdf.String("Values")))
            pdf.Root.OCProperties = Dictionary(OCGs=Array([hidden, shown]), D=Dictionary(OFF=Array([hidden]), ON=Array([shown])))
            page.Resources = Dictionary(Font=Dictionary(F1=font), Properties=Dictionary(oc1=hidden, oc2=shown))
            page.Contents = pdf.make_stream(
                b"BT /F1 14 Tf 72 720 Td (Always shown) Tj ET /OC /oc1 BDC BT /F1 14 Tf 72 690 Td (Hidden draft) Tj ET EMC "
                b"/OC /oc2 BDC BT /F1 14 Tf 72 660 Td (Layer shown) Tj ET EMC")
            pdf.save(sys.argv[1])
            """
        let folder = try TestSupport.temporaryDirectory()
        let path = folder.appendingPathComponent("layers.pdf")
        let made = try TestSupport.run(try TestSupport.python(), ["-c", script, path.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let (output, pdf) = try render(
            "title: T\nmetadata: {tagged: false}\nelements:\n  - {type: pdf, path: layers.pdf, alt: A page with layers}\n",
            extra: ["layers.pdf": try Data(contentsOf: path)])
        XCTAssertEqual(output.status, 0, output.stderr)
        let appended = try XCTUnwrap(try TestSupport.pageTexts(try XCTUnwrap(pdf)).last)
        XCTAssertTrue(appended.contains("Always shown") && appended.contains("Layer shown"), appended)
        XCTAssertFalse(appended.contains("Hidden draft"), appended)
    }

    /// Page ranges: pages named, ranges, open ranges; a page the file lacks or words that are no
    /// range name the `pages` field.
    func testPageRangesChooseAndAreChecked() throws {
        let block = AppendedPDF(path: "lab.pdf", pages: "3, 1-2, 5-", alt: "x")
        XCTAssertEqual(try block.chosenPages(of: 6, field: "p"), [2, 0, 1, 4, 5])
        XCTAssertEqual(try AppendedPDF(path: "lab.pdf", alt: "x").chosenPages(of: 3, field: "p"), [0, 1, 2])
        XCTAssertThrowsError(try AppendedPDF(path: "lab.pdf", pages: "4", alt: "x").chosenPages(of: 3, field: "elements[2].pages")) {
            XCTAssertEqual("\($0)", "elements[2].pages: page 4 does not exist: lab.pdf has 3 pages")
        }
        for wrong in ["0", "3-1", "two", "1-2-3", "-2", ""] where !wrong.isEmpty {
            XCTAssertThrowsError(try AppendedPDF(path: "lab.pdf", pages: wrong, alt: "x").validate(path: "elements[2]"), wrong) {
                XCTAssertTrue("\($0)".hasPrefix("elements[2].pages: "), "\($0)")
            }
        }
    }
}
