import Foundation
import XCTest

@testable import Folio
@testable import FolioData
@testable import FolioTemplate

/// `$include` (#43): shared parts of templates, put in place structurally, relative to the file
/// that includes them; errors in them named at the included file's line; cycles, paths outside
/// the folder and bad files refused in one line naming both files.
final class IncludeTests: XCTestCase {
    /// A folder with `files` (path → text) written in it.
    private func folder(_ files: [String: String]) throws -> URL {
        let root = try TestSupport.temporaryDirectory()
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    private let main = """
        title: Weekly
        elements:
          - $include: parts/banner.yaml
          - type: paragraph
            text: Middle
          - $include: parts/footer.yaml
          - type: paragraph
            text: End
        """
    private let banner = "type: paragraph\ntext: Banner\n"
    private let footer = "- type: paragraph\n  text: Footer one\n- type: paragraph\n  text: Footer two\n"

    func testAnIncludedMappingIsOneItemAndAnIncludedListGivesItsItems() throws {
        let root = try folder(["main.yaml": main, "parts/banner.yaml": banner, "parts/footer.yaml": footer])
        let source = try SourceDocument.read(root.appendingPathComponent("main.yaml").path)
        let document = try DocumentDecoder.decode(source.tree)
        let texts = document.elements.compactMap { element -> String? in
            if case .paragraph(let paragraph) = element { return paragraph.text.source }
            return nil
        }
        XCTAssertEqual(texts, ["Banner", "Middle", "Footer one", "Footer two", "End"])
        XCTAssertEqual(source.origins.includedFiles.count, 2)
        // A value anywhere: the page header from a file.
        let header = try folder(["doc.yaml": "title: T\npage:\n  $include: page.json\nelements: []\n", "page.json": #"{"size": "a5"}"#])
        let withPage = try SourceDocument.read(header.appendingPathComponent("doc.yaml").path)
        XCTAssertEqual(withPage.tree["page"]?["size"], .string("a5"))
    }

    func testFieldsArePlacedInTheFileThatHoldsThem() throws {
        let root = try folder(["main.yaml": main, "parts/banner.yaml": banner, "parts/footer.yaml": footer])
        let path = root.appendingPathComponent("main.yaml").path
        let origins = try SourceDocument.read(path).origins
        func place(_ field: String) -> String? {
            origins.place(of: field, inputText: { try? String(contentsOfFile: path, encoding: .utf8) }).map {
                "\(($0.file as NSString).lastPathComponent):\($0.position)"
            }
        }
        XCTAssertEqual(place("title"), "main.yaml:1:1")
        XCTAssertEqual(place("elements[0].text"), "banner.yaml:2:1")
        XCTAssertEqual(place("elements[1].text"), "main.yaml:5:5")
        XCTAssertEqual(place("elements[3].text"), "footer.yaml:4:3")
        // After the two spliced items, the input's own items again: its fourth item is the fifth.
        XCTAssertEqual(place("elements[4].text"), "main.yaml:8:5")
        // The included value as a whole is placed at its `$include`.
        XCTAssertEqual(place("elements[0]"), "main.yaml:3:5")
    }

    func testIncludesNestRelativeToTheIncludingFile() throws {
        let root = try folder([
            "t.yaml": "title: T\nelements:\n  - $include: parts/a.yaml\n",
            "parts/a.yaml": "- $include: common/b.yaml\n- type: paragraph\n  text: A\n",
            "parts/common/b.yaml": "type: paragraph\ntext: B\n",
        ])
        let source = try SourceDocument.read(root.appendingPathComponent("t.yaml").path)
        XCTAssertEqual(source.tree.value(at: "elements.0.text"), .string("B"))
        XCTAssertEqual(source.tree.value(at: "elements.1.text"), .string("A"))
    }

    /// Every refusal is one line naming the including file's field and the included file.
    func testCyclesOutsidePathsAndBadFilesAreRefusedNamingBothFiles() throws {
        let root = try folder([
            "cycle.yaml": "title: T\nelements:\n  - $include: parts/c1.yaml\n",
            "parts/c1.yaml": "$include: c2.yaml\n",
            "parts/c2.yaml": "$include: c1.yaml\n",
            "outside.yaml": "title: T\nelements:\n  - $include: ../elsewhere.yaml\n",
            "absolute.yaml": "title: T\nelements:\n  - $include: /etc/hostname\n",
            "broken.yaml": "title: T\nelements:\n  - $include: parts/broken.yaml\n",
            "parts/broken.yaml": "type: paragraph\ntext: [unclosed\n",
            "beside.yaml": "title: T\nelements:\n  - $include: parts/c1.yaml\n    text: also\n",
            "missing.yaml": "title: T\nelements:\n  - $include: parts/none.yaml\n",
            "linked.yaml": "title: T\nelements:\n  - $include: parts/link.yaml\n",
            "self.yaml": "title: T\nelements:\n  - $include: self.yaml\n",
        ])
        try Data("type: paragraph\ntext: secret\n".utf8).write(
            to: root.deletingLastPathComponent().appendingPathComponent("elsewhere.yaml"))
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("parts/link.yaml").path,
            withDestinationPath: root.deletingLastPathComponent().appendingPathComponent("elsewhere.yaml").path)
        func failure(_ name: String) -> FolioError? {
            do {
                _ = try SourceDocument.read(root.appendingPathComponent(name).path)
                return nil
            } catch {
                return error as? FolioError
            }
        }
        let cycle = try XCTUnwrap(failure("cycle.yaml"))
        XCTAssertTrue(cycle.message.contains("parts/c2.yaml includes") && cycle.message.contains("parts/c1.yaml"), "\(cycle)")
        XCTAssertEqual(cycle.file.map { ($0 as NSString).lastPathComponent }, "c2.yaml")
        XCTAssertEqual(cycle.position?.description, "1:1")
        XCTAssertTrue(failure("self.yaml")?.message.contains("which includes it again") ?? false)
        for name in ["outside.yaml", "linked.yaml"] {
            let outside = try XCTUnwrap(failure(name))
            XCTAssertEqual(outside.path, "elements[0].$include")
            XCTAssertTrue(outside.message.contains("is outside the folder of"), "\(outside)")
            XCTAssertEqual(outside.position?.description, "3:5")
            XCTAssertNil(outside.file, "the input holds the include")
        }
        XCTAssertTrue(failure("absolute.yaml")?.message.contains("is an absolute path") ?? false)
        let broken = try XCTUnwrap(failure("broken.yaml"))
        XCTAssertEqual(broken.file.map { ($0 as NSString).lastPathComponent }, "broken.yaml")
        XCTAssertEqual(broken.position?.line, 3)
        XCTAssertTrue(broken.message.hasPrefix("the included file is not valid YAML"), broken.message)
        XCTAssertTrue(failure("beside.yaml")?.message.hasPrefix("stands alone in its mapping") ?? false)
        XCTAssertTrue(failure("missing.yaml")?.message.contains("parts/none.yaml") ?? false)
        for error in [cycle, broken, try XCTUnwrap(failure("outside.yaml"))] {
            XCTAssertFalse("\(error)".contains("\n"))
        }
    }

    func testIncludesAreBounded() throws {
        // A file including itself twice per level would double at each step; the count stops it.
        var files = ["t.yaml": "title: T\nelements:\n  - $include: p0.yaml\n"]
        for level in 0..<12 { files["p\(level).yaml"] = "- $include: p\(level + 1).yaml\n- $include: p\(level + 1).yaml\n" }
        files["p12.yaml"] = "- type: paragraph\n  text: leaf\n"
        let root = try folder(files)
        XCTAssertThrowsError(try SourceDocument.read(root.appendingPathComponent("t.yaml").path)) { error in
            XCTAssertTrue("\(error)".contains("more than \(IncludeResolver.mostIncludes) files are included"), "\(error)")
        }
    }

    func testATemplateBindsWhatItIncludes() throws {
        let root = try folder([
            "t.yaml": "title: \"For {{name}}\"\nelements:\n  - $include: parts/greeting.yaml\n",
            "parts/greeting.yaml": "- type: paragraph\n  text: \"Dear {{name}}\"\n",
        ])
        let template = try DocumentTemplate.read(root.appendingPathComponent("t.yaml").path).template
        let document = try template.document(for: .object([("name", .string("Ann *bold*"))]))
        guard case .paragraph(let paragraph)? = document.elements.first else { return XCTFail("no paragraph") }
        XCTAssertEqual(paragraph.text.source, #"Dear Ann \*bold\*"#, "bound as the rest: the value escaped, never markup")
    }

    func testADocumentWithoutIncludesIsReadAsBefore() throws {
        let root = try folder(["plain.yaml": "title: T\nelements: []\n"])
        let source = try SourceDocument.read(root.appendingPathComponent("plain.yaml").path)
        XCTAssertFalse(source.origins.hasIncludes)
        XCTAssertEqual(source.tree["title"], .string("T"))
    }
}
