import Foundation
import XCTest

@testable import Folio
@testable import FolioCharts
@testable import FolioModel
@testable import FolioTemplate

/// Built-in words in the document's language, its decimal separator, and right-to-left layout.
final class LocalizationTests: XCTestCase {
    private func document(_ yaml: String) throws -> Document {
        try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
    }

    /// A report in `language` with every built-in word Folio writes by itself.
    private func report(language: String, extra: String = "") -> String {
        """
        title: Report
        metadata: {language: \(language)}
        \(extra)
        elements:
          - {type: message, kind: tip, title: Hydration}
          - {type: message, kind: alert, title: Fever}
          - type: chart
            kind: bar
            title: Pain
            categories: [A, B]
            series: [{title: Pain, values: [2.5, 6.5]}]
            dataTable: true
          - {type: chart, kind: pie, title: Empty, segments: [{title: X, value: 0}]}
          - type: table
            caption: Readings
            header: [Day, Value]
            rows:
        \((1...80).map { "        - [Day \($0), \"\($0)\"]" }.joined(separator: "\n"))
        """
    }

    func testEveryLanguageTranslatesEveryKeyWithTheSamePlaceholders() {
        func placeholders(_ text: String) -> Set<String> {
            var found = Set<String>()
            var rest = text[...]
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                found.insert(String(rest[open...close]))
                rest = rest[rest.index(after: close)...]
            }
            return found
        }
        for language in BuiltInStrings.languages {
            let strings = BuiltInStrings.forLanguage(language)
            XCTAssertEqual(strings.language, language)
            for key in BuiltInStrings.Key.allCases {
                let english = BuiltInStrings.english[key]
                XCTAssertFalse(strings[key].isEmpty, "\(language).\(key)")
                XCTAssertEqual(placeholders(strings[key]), placeholders(english), "\(language).\(key): \(strings[key])")
                // "Total" and "Subtotal" are French, Spanish and Portuguese too; "Minimum", "Median", "Maximum" French and German;
                // "Notes" French.
                if language != "en"
                    && ![.category, .segment, .ring, .onePoint, .points, .total, .subtotal, .minimum, .maximum, .median, .footnotes]
                        .contains(key)
                {
                    XCTAssertNotEqual(strings[key], english, "\(language).\(key) is not translated")
                }
            }
        }
        XCTAssertEqual(BuiltInStrings.forLanguage("fr-CA").language, "fr")
        XCTAssertEqual(BuiltInStrings.forLanguage("xx").language, "en")
        XCTAssertTrue(BuiltInStrings.forLanguage("he").isRightToLeft)
        XCTAssertTrue(BuiltInStrings.forLanguage("ar-EG").isRightToLeft)
    }

    func testNumbersUseTheLanguagesDecimalSeparator() {
        XCTAssertEqual(NumberFormat(.french).string(6.5, decimals: 1), "6,5")
        XCTAssertEqual(NumberFormat(.german).string(-0.04, decimals: 1), "0,0")
        XCTAssertEqual(NumberFormat(.german).string(0.125, format: .percent(decimals: 1), fallbackDecimals: 0), "12,5%")
        XCTAssertEqual(NumberFormat(.english).string(6.5, decimals: 1), "6.5")
        XCTAssertEqual(NumberFormat(.french).dateString(1_763_164_800, pattern: "d MMMM"), "15 novembre")
    }

    func testAFrenchReportSaysEverythingInFrenchInBothFormats() throws {
        let document = try document(report(language: "fr"))
        let pdf = TestSupport.normalized(try TestSupport.pdfText(try document.pdf()))
        // French sets a narrow no-break space before a colon.
        for word in ["Conseil : Hydration", "Alerte : Fever", "Page 1 sur ", "Readings (suite)", "Aucune donnée", "6,5", "2,5"] {
            XCTAssertTrue(pdf.contains(word), "PDF lacks \(word)")
        }
        XCTAssertFalse(pdf.contains("Tip:") || pdf.contains("Page 1 of"), pdf)
        let html = try document.html()
        for word in [
            "Conseil\u{202F}: ", "Alerte\u{202F}: ", "<summary>Données</summary>", "Aucune donnée", ">6,5<",
            "Graphique à barres, Pain, 2 catégories, de A à B. Pain : valeur la plus basse 2,5 (A), la plus haute 6,5 (B).",
            "<th scope=\"col\">Catégorie</th>",
        ] {
            XCTAssertTrue(html.contains(word), "HTML lacks \(word)")
        }
    }

    func testADocumentReplacesSingleWordsAndMisspelledKeysAreErrors() throws {
        let document = try document(report(language: "de", extra: "strings: {tip: Hinweis, pageFooter: \"{page}/{pages}\"}"))
        let pdf = try TestSupport.pdfText(try document.pdf())
        XCTAssertTrue(pdf.contains("Hinweis: Hydration"))
        XCTAssertTrue(pdf.contains("Warnung: Fever"), "the rest stays German")
        let pages = try TestSupport.pageTexts(try document.pdf()).count
        XCTAssertTrue(pdf.contains("1/\(pages)"), pdf)
        XCTAssertThrowsError(try self.document(report(language: "de", extra: "strings: {tipp: Hinweis}"))) { error in
            XCTAssertTrue("\(error)".hasPrefix("strings.tipp: unknown key"), "\(error)")
        }
        XCTAssertThrowsError(try self.document(report(language: "de", extra: "strings: {tip: [a]}"))) { error in
            XCTAssertTrue("\(error)".hasPrefix("strings.tip:"), "\(error)")
        }
    }

    func testRightToLeftReportsRunFromTheRightInBothFormats() throws {
        let yaml = """
            title: تقرير
            metadata: {language: ar}
            footer: "p{page}"
            elements:
              - {type: widgets, items: [{title: First, value: "1"}, {title: Second, value: "2"}]}
              - type: table
                header: [Left, Right]
                rows: [["Alpha", "12.5"]]
            """
        let document = try document(yaml)
        let words = try TestSupport.run(
            "pdftotext", ["-bbox", try TestSupport.temporaryFile(try document.pdf(), name: "rtl.pdf").path, "-"]
        ).text
        func x(_ word: String) throws -> Double {
            let match = try XCTUnwrap(words.firstMatch(of: try Regex(#"<word xMin="([\d.]+)"[^>]*>"# + word + "</word>")))
            return try XCTUnwrap(match.output[1].substring.flatMap { Double($0) })
        }
        XCTAssertGreaterThan(try x("First"), try x("Second"), "the first tile is on the right")
        XCTAssertGreaterThan(try x("Left"), try x("Right"), "the first column is on the right")
        XCTAssertGreaterThan(try x("Alpha"), try x("12.5"))
        XCTAssertLessThan(try x("p1"), 100, "the page number is on the left")
        let html = try document.html()
        XCTAssertTrue(html.contains("<html lang=\"ar\" dir=\"rtl\">"))
        XCTAssertTrue(html.contains("lang=\"ar\" dir=\"rtl\">"))
        XCTAssertTrue(html.contains("<td dir=\"rtl\">12.5</td>"), "a number in a right-to-left table starts at the right")
        XCTAssertTrue(html.contains("<td>Alpha</td>"), "Latin text keeps its own direction")
    }

    func testTextDirectionFollowsTheFirstStrongCharacter() {
        XCTAssertEqual(TextDirection.of("12.5 مرحبا"), .rightToLeft)
        XCTAssertEqual(TextDirection.of("3 Hello مرحبا"), .leftToRight)
        XCTAssertNil(TextDirection.of("51% – ١٢"))
        XCTAssertEqual(TextDirection.of("שלום"), .rightToLeft)
        XCTAssertEqual(TextDirection.of("患者"), .leftToRight)
    }
}

/// Chinese, Japanese and Korean share Han characters whose forms differ by region (#42): the
/// document's language picks Noto CJK's Simplified, Traditional or Japanese forms.
final class CJKFormsIntegrationTests: XCTestCase {
    func testTheDocumentLanguagePicksTheRegionsGlyphForms() throws {
        try TestSupport.integrationOnly()
        let expected = [
            "zh-Hans": "CJKsc", "zh-CN": "CJKsc", "zh": "CJKsc", "zh-Hant": "CJKtc", "zh-TW": "CJKtc", "zh-HK": "CJKhk", "ja": "CJKjp",
        ]
        for (language, font) in expected.sorted(by: { $0.key < $1.key }) {
            let yaml = "metadata: {language: \(language)}\nelements:\n  - {type: paragraph, text: \"骨 直 角 化 写 门 海 今 令\"}"
            let pdf = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml).pdf()
            let file = try TestSupport.temporaryFile(pdf, name: "cjk.pdf")
            let fonts = try TestSupport.run("pdffonts", [file.path]).text
            XCTAssertTrue(fonts.contains(font), "\(language): \(fonts)")
        }
    }

    func testChineseInADocumentOfAnotherLanguageIsSetInChineseForms() throws {
        // fontconfig lists the Japanese face first: an English or Arabic report quoting a Chinese
        // patient got Japanese forms. Chinese text anywhere (a paragraph, a cell, a heading, a chart
        // label, beside English words) is set in Chinese forms; Japanese (with kana) keeps its own,
        // and so does a passage whose language is given.
        try TestSupport.integrationOnly()
        func fonts(_ yaml: String) throws -> String {
            let pdf = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml).pdf()
            return try TestSupport.run("pdffonts", [try TestSupport.temporaryFile(pdf, name: "cjk.pdf").path]).text
        }
        for language in ["en", "ar", "de-CH"] {
            for element in [
                "{type: paragraph, text: \"骨 直 角 化 写 门 海 今 令\"}",
                "{type: paragraph, text: \"Her daughter wrote: 妈妈今天睡得很好，直到早上。\"}",
                "{type: subtitle, text: \"出院 直 骨\"}",
                "{type: table, header: [Name, 备注], rows: [[王伟, 骨折直角]]}",
                "{type: chart, kind: bar, title: 疼痛, categories: [周一, 周二], series: [{title: 直, values: [1, 2]}]}",
            ] {
                let found = try fonts("metadata: {language: \(language)}\nelements:\n  - \(element)")
                XCTAssertTrue(found.contains("CJKsc"), "\(language) \(element): \(found)")
                XCTAssertFalse(found.contains("CJKjp"), "\(language) \(element): \(found)")
            }
        }
        let japanese = try fonts("elements:\n  - {type: paragraph, text: \"骨が直角に折れました。\"}")
        XCTAssertTrue(japanese.contains("CJKjp") && !japanese.contains("CJKsc"), japanese)
        let given = try fonts("elements:\n  - {type: paragraph, text: \"Quoted: [骨 直 角]{lang=zh-Hant}\"}")
        XCTAssertTrue(given.contains("CJKtc") && !given.contains("CJKsc"), given)
    }
}
