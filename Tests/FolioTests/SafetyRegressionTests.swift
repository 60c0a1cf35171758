import Foundation
import XCTest

@testable import Folio
@testable import FolioData
@testable import FolioFHIR
@testable import FolioFiles
@testable import FolioHTML
@testable import FolioServer
@testable import FolioTemplate

/// The hostile round's smaller findings, each as its input: secrets in messages, secret files as
/// people write them, a page shell nested past the stack, byte order marks, EAN-13 lengths, dates
/// from SOURCE_DATE_EPOCH, protected HTML, bidirectional controls from data, unclosed CSV quotes,
/// a Bundle whose entry is an object, a theme in the service's template folder.
final class SafetyRegressionTests: XCTestCase {
    static let planted = "Pl4nted-S3cret-pw"

    // MARK: no secret in a message

    func testAYAMLSyntaxErrorSaysWhereNeverWhatTheLineHolds() {
        let inputs = [
            "title: x\nprotection: {userPassword: \(Self.planted)\nelements: []",
            "title: x\nprotection:\n  userPassword: \"\(Self.planted)\n",
            "protection: {userPassword: \(Self.planted)}}\n",
            "protection:\n  userPassword: \(Self.planted)\n  - x",
            "protection: {userPassword: '\(Self.planted)', userPassword: again}",
            "protection: [\(Self.planted)",
            "\t protection: \(Self.planted)",
            "protection: &a \(Self.planted)\nx: *b",
        ]
        for input in inputs {
            XCTAssertThrowsError(try DocumentDecoder.decode(Data(input.utf8), format: .yaml), input) { error in
                let message = "\(error)"
                XCTAssertFalse(message.contains(Self.planted), "\(input.debugDescription) → \(message)")
                XCTAssertFalse(message.contains("\n"), "one line: \(message)")
            }
        }
        XCTAssertThrowsError(try DocumentDecoder.decode(Data(inputs[0].utf8), format: .yaml)) {
            XCTAssertTrue("\($0)".hasPrefix("the input is not valid YAML: line 3, column "), "\($0)")
        }
    }

    // MARK: secret files

    func testASecretFileIsItsFirstLineHoweverLinesEnd() throws {
        let cases: [([UInt8], String)] = [
            (Array("secret\n".utf8), "secret"), (Array("secret\r\n".utf8), "secret"), (Array("secret\r".utf8), "secret"),
            (Array("secret".utf8), "secret"), (Array("secret\r\nsecond line\r\n".utf8), "secret"),
            (Array("secret\rsecond".utf8), "secret"), ([0xEF, 0xBB, 0xBF] + Array("s3cret é\r\n".utf8), "s3cret é"),
            (Array(" spaced pass \n".utf8), " spaced pass "),
        ]
        for (bytes, expected) in cases {
            XCTAssertEqual(try SecretFile.secret(in: Data(bytes), option: "--password-file", what: "password file"), expected, "\(bytes)")
        }
        for bytes: [UInt8] in [[0xFF, 0xFE, 0x41], Array("\n".utf8), Array("\r\nsecret".utf8), [0xEF, 0xBB, 0xBF], [0x61, 0x00, 0x62]] {
            XCTAssertThrowsError(try SecretFile.secret(in: Data(bytes), option: "--password-file", what: "password file")) {
                XCTAssertTrue("\($0)".hasPrefix("--password-file: the password file's first line is"), "\($0)")
            }
        }
    }

    // MARK: page shell nesting

    func testAPageShellNestedPastTheLimitIsRefusedBeforeParsing() throws {
        let deep = String(repeating: "{{#a}}", count: 100_000) + "x" + String(repeating: "{{/a}}", count: 100_000)
        let start = Date()
        XCTAssertThrowsError(try HTMLRenderer.checkPageTemplate(deep)) {
            XCTAssertEqual("\($0)", "--template: line 1, column 193: sections are nested more than 32 levels deep")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        let inverted = String(repeating: "{{^a}}\n", count: 40)
        XCTAssertThrowsError(try HTMLRenderer.checkPageTemplate(inverted)) { XCTAssertTrue("\($0)".contains("line 33, column 1"), "\($0)") }
        // A comment's text is not a tag (it ends at the first }}); a closed section does not count; 32 levels are fine.
        let fine =
            String(repeating: "{{! {{#a }}", count: 40) + String(repeating: "{{#a}}", count: 32) + String(repeating: "{{/a}}", count: 32)
            + String(repeating: "{{#b}}{{/b}}", count: 1000) + "<p>{{title}}</p>{{{report}}}"
        XCTAssertNoThrow(try HTMLRenderer.checkPageTemplate(fine))
        XCTAssertThrowsError(try HTMLRenderer.checkPageTemplate("{{=<% %>=}}<%#a%><%/a%>")) {
            XCTAssertTrue("\($0)".contains("set-delimiter tags are not supported"), "\($0)")
        }
    }

    // MARK: byte order marks

    func testAByteOrderMarkIsNotPartOfAnyText() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let json = try DocumentDecoder.decode(Data(bom + Array(#"{"title": "T", "elements": []}"#.utf8)), format: .json)
        XCTAssertEqual(json.title, "T")
        let yaml = try DocumentDecoder.decode(Data(bom + Array("title: T\nelements: []\n".utf8)), format: .yaml)
        XCTAssertEqual(yaml.title, "T")
        let lines = try TestSupport.temporaryFile(Data(bom + Array("{\"id\": 1}\n{\"id\": 2}\n".utf8)), name: "bom.jsonl")
        let reader = try RecordReader(path: lines.path)
        var ids: [TreeValue?] = []
        while let record = try reader.next() { ids.append(try record.value.get()["id"]) }
        XCTAssertEqual(ids, [.number(1), .number(2)], "the first record is read")
        let ndjson = try TestSupport.temporaryFile(
            Data(
                bom
                    + Array(
                        (FHIRIdentityTests.patient("p1", name: "Ana") + "\n"
                            + FHIRIdentityTests.heartRate(id: "o1", subject: "Patient/p1", value: 60)).utf8)),
            name: "bom.ndjson")
        let export = try FHIRExport(path: ndjson.path, options: try FHIRImportOptions(period: "2026-11-09/P7D", zone: "UTC"))
        var names: [TreeValue?] = []
        try export.forEachRecord { names.append($0.value(at: "patient.name")) }
        XCTAssertEqual(names, [.string("Ana")], "the Patient on the first line keeps its name: \(export.notes)")
    }

    // MARK: EAN-13

    func testAnEAN13HoldsTwelveOrThirteenDigits() throws {
        for data in ["12345", "1234567", "12345678", "40063813339", "40063813339312", "4006381333931+12"] {
            XCTAssertThrowsError(
                try DocumentDecoder.decode(Data("elements: [{type: barcode, symbology: ean13, data: \"\(data)\"}]".utf8), format: .yaml),
                data
            ) { XCTAssertTrue("\($0)".hasPrefix("elements[0].data: the data cannot be encoded in an EAN-13 barcode"), "\($0)") }
        }
        for data in ["400638133393", "4006381333931"] {
            XCTAssertNoThrow(
                try DocumentDecoder.decode(Data("elements: [{type: barcode, symbology: ean13, data: \"\(data)\"}]".utf8), format: .yaml))
        }
    }

    // MARK: protected HTML

    func testAProtectedDocumentIsNeverWrittenAsHTML() throws {
        let document = try DocumentDecoder.decode(
            Data("title: Private\nprotection: {userPassword: \(Self.planted)}\nelements: [{type: paragraph, text: Diagnosis}]".utf8),
            format: .yaml)
        for output in [HTMLRenderer.Output.page, .fragment, .shadow] {
            var options = RenderOptions()
            options.html = output
            XCTAssertThrowsError(try document.html(options: options)) { error in
                XCTAssertTrue("\(error)".hasPrefix("protection: a protected document is written as PDF only"), "\(error)")
                XCTAssertFalse("\(error)".contains(Self.planted))
            }
        }
        XCTAssertNoThrow(try document.pdf())
    }

    // MARK: bidirectional controls

    func testBidirectionalControlsFromDataTurnNothingAroundThem() throws {
        // A value between words is isolated; whatever a string opens is closed at its end and at each line break.
        let template = try DocumentTemplate(
            data: Data("title: T\nelements:\n  - {type: paragraph, text: \"Patient {{name}} done today\"}\n".utf8), format: .yaml)
        let bound = try template.document(for: .object([("name", .string("\u{202E}abc"))]))
        guard case .paragraph(let paragraph)? = bound.elements.first else { return XCTFail("a paragraph") }
        XCTAssertEqual(paragraph.text.plainText, "Patient \u{2068}\u{202E}abc\u{2069} done today")
        XCTAssertEqual("a\u{202E}b".replacingDisallowedCharacters, "a\u{202E}b\u{202C}")
        XCTAssertEqual("\u{2067}x\u{202B}y\nz".replacingDisallowedCharacters, "\u{2067}x\u{202B}y\u{202C}\u{2069}\nz")
        XCTAssertEqual("\u{202E}x\u{202C} done".replacingDisallowedCharacters, "\u{202E}x\u{202C} done", "a closed override is left alone")
        XCTAssertEqual(MarkupEscaping.escape("<\u{202E}x"), "&lt;\u{202E}x\u{202C}")
        // What a reader gets: the words after the value read forwards in the PDF and in HTML.
        let text = try TestSupport.pdfText(try bound.pdf())
        XCTAssertTrue(text.contains("Patient cba done today"), text)
        XCTAssertTrue(try bound.html().contains("Patient \u{2068}\u{202E}abc\u{2069} done today"))
    }

    // MARK: CSV

    func testAnUnclosedCSVQuoteIsAnErrorNamingItsLine() throws {
        let csv = try TestSupport.temporaryFile(Data("id,name\n1,Ana\n2,\"Ben\n3,Cy\n4,Dee\n".utf8), name: "open.csv")
        XCTAssertThrowsError(try RecordReader(path: csv.path)) {
            XCTAssertTrue("\($0)".contains("open.csv: line 3: a quoted field is never closed"), "\($0)")
        }
        let fine = try TestSupport.temporaryFile(Data("id,note\n1,\"two\nlines, \"\"quoted\"\"\"\n2,5'11\"\n".utf8), name: "fine.csv")
        let reader = try RecordReader(path: fine.path)
        var notes: [TreeValue?] = []
        while let record = try reader.next() { notes.append(try record.value.get()["note"]) }
        XCTAssertEqual(notes, [.string("two\nlines, \"quoted\""), .string("5'11\"")])
    }

    // MARK: FHIR Bundle

    func testABundleWhoseEntryIsNotAnArrayIsANote() throws {
        let options = try FHIRImportOptions(period: "2026-11-09/P7D", zone: "UTC")
        let export = try FHIRExport(
            bundle: Data(#"{"resourceType":"Bundle","type":"collection","entry":{"resource":{"resourceType":"Patient","id":"p"}}}"#.utf8),
            options: options)
        XCTAssertEqual(export.notes, ["the request body: Bundle.entry is not an array of entries, so nothing in it was read"])
        let mixed = try FHIRExport(
            bundle: Data(
                #"{"resourceType":"Bundle","type":"collection","entry":[7,{"resource":{"resourceType":"Patient","id":"p"}}]}"#.utf8),
            options: options)
        XCTAssertEqual(mixed.notes, ["the request body entry[0]: not an object; ignored"])
    }

    // MARK: the service's template folder

    func testTheServicesTemplateFolderSkipsTheTheme() throws {
        let library = try TemplateLibrary(directory: TestSupport.root.appendingPathComponent("Templates").path)
        XCTAssertEqual(library.names, ["fhir-weekly-summary", "medication-log", "patient-summary", "weekly-summary"])
    }
}
