import Foundation
import XCTest

@testable import Folio
@testable import FolioModel
@testable import FolioTemplate

/// A passage in another language says so (#42): an author's `language:` or a script that leaves no
/// doubt, as `/Lang` on its PDF element and `lang` on its HTML element.
final class PassageLanguageTests: XCTestCase {
    func testTheScriptNamesTheLanguageWhereItLeavesNoDoubt() {
        XCTAssertEqual(PassageLanguage.of("الألم في الساق 10.4", documentLanguage: "en"), "ar")
        XCTAssertEqual(PassageLanguage.of("患者本周完成了治疗", documentLanguage: "en"), "zh")
        XCTAssertEqual(PassageLanguage.of("今日はいい天気です", documentLanguage: "en"), "ja")
        XCTAssertEqual(PassageLanguage.of("안녕하세요", documentLanguage: "fr"), "ko")
        XCTAssertEqual(PassageLanguage.of("שלום", documentLanguage: "en"), "he")
        XCTAssertNil(PassageLanguage.of("Café crème", documentLanguage: "en"), "Latin letters serve many languages")
        XCTAssertNil(PassageLanguage.of("Привет", documentLanguage: "en"), "so do Cyrillic ones")
        XCTAssertNil(PassageLanguage.of("الألم", documentLanguage: "ar"), "the document's own")
        XCTAssertNil(PassageLanguage.of("治疗", documentLanguage: "ja"), "Chinese characters are Japanese text's too")
        XCTAssertNil(PassageLanguage.of("درد", documentLanguage: "fa"), "Arabic script is Persian's too")
        XCTAssertNil(PassageLanguage.of("Take 500 mg with 水", documentLanguage: "en"), "a word among others is not a passage")
    }

    func testPassagesCarryTheirLanguageInBothOutputs() throws {
        let yaml = """
            metadata: {language: en}
            elements:
              - {type: subtitle, text: العربية}
              - {type: paragraph, text: "سُجلت قيمة 10.4 ملمول/لتر"}
              - {type: paragraph, language: fr, text: "Le patient va mieux."}
              - {type: table, header: [Name, Note], rows: [[Ana, "患者本周完成了治疗"]]}
              - {type: list, items: ["안녕하세요", "Hello"]}
              - {type: table, rows: [[Take one tablet, {text: "Prenez un comprimé", language: fr-CA}]]}
              - {type: table, language: es, rows: [[Tome una tableta]]}
              - {type: paragraph, text: "She wrote [« je dors mieux »]{lang=fr} on Monday; see [the log](https://example.org/log)."}
            """
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let html = try document.html()
        for fragment in [
            #"<h1 class="folio-subtitle" lang="ar" dir="rtl">"#, #"<p lang="ar" dir="rtl">"#, #"<p lang="fr">"#, #"<td lang="zh">"#,
            #"<li lang="ko">"#,
            #"<td lang="fr-CA">Prenez"#, #"<td lang="es">Tome"#, #"She wrote <span lang="fr">« je dors mieux »</span> on Monday"#,
        ] {
            XCTAssertTrue(html.contains(fragment), "\(fragment) not in \(html)")
        }
        let file = try TestSupport.temporaryFile(try document.pdf(), name: "lang.pdf")
        let json = try TestSupport.run("qpdf", ["--json=2", "--json-key=qpdf", file.path]).text
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let objects = try XCTUnwrap((root["qpdf"] as? [Any])?.last as? [String: Any]).compactMapValues {
            ($0 as? [String: Any])?["value"] as? [String: Any]
        }
        let tagged = objects.values.compactMap { element -> String? in
            guard let type = element["/S"] as? String, let language = element["/Lang"] as? String else { return nil }
            return "\(type) \(language.replacingOccurrences(of: "u:", with: ""))"
        }
        XCTAssertEqual(
            Set(tagged), ["/Document en", "/H1 ar", "/P ar", "/P fr", "/TD zh", "/P ko", "/TD fr-CA", "/TD es", "/Span fr"], "\(tagged)")
        // The passage is a Span of its own, the words around it in Spans of theirs (no Quote is left).
        XCTAssertFalse(json.contains("/Quote"), "a passage kept the type it was drawn as")
        XCTAssertEqual(tagged.filter { $0.hasPrefix("/TD") }.count, 3, "a cell without its own language took one: \(tagged)")
        XCTAssertThrowsError(
            try DocumentDecoder.decode(Data(#"{"elements": [{"type": "paragraph", "text": "x", "language": "f r"}]}"#.utf8), format: .json)
                .validate()
        ) { XCTAssertTrue("\($0)".hasPrefix("elements[0].language: \"f r\" is not a BCP 47 language tag"), "\($0)") }
        XCTAssertThrowsError(
            try DocumentDecoder.decode(
                Data(#"{"elements": [{"type": "table", "rows": [["a", {"text": "b", "language": "?"}]]}]}"#.utf8), format: .json
            )
            .validate()
        ) { XCTAssertTrue("\($0)".hasPrefix("elements[0].rows[0][1].language: \"?\" is not a BCP 47"), "\($0)") }
    }
}
