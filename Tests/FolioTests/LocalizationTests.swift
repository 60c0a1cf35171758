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
        // Cells run the report's way (right to left) whatever they start with, by inheriting it.
        XCTAssertTrue(html.contains("<td>12.5</td>"), "a number in a right-to-left table starts at the right")
        XCTAssertTrue(html.contains("<td>Alpha</td>"), "Latin text in a cell runs the report's way")
        XCTAssertFalse(html.contains("plaintext"), "no element takes its direction from its first letter")
    }

    func testParagraphsItemsAndCellsRunTheDocumentsWayOrTheirLanguagesNotTheirFirstLetters() throws {
        // #59: in an Arabic report a list item or cell starting with a drug's Latin name was set flush
        // left, 400 pt from its bullet, and read left to right; in PDF and HTML alike.
        let yaml = """
            metadata: {language: ar}
            page: {margins: 50}
            elements:
              - type: list
                items: ["Metformin 500 ملغ مرتين يوميا", "الراحة بعد التمرين"]
              - {type: table, header: [الدواء, الجرعة], rows: [[Metformin, 500 ملغ], [الأسبرين, 81 ملغ]]}
              - {type: paragraph, text: "Metformin هو الدواء الأساسي"}
              - {type: paragraph, language: en, text: "Written in English by the nurse"}
            """
        let document = try document(yaml)
        let pdf = try document.pdf()
        let words = try TestSupport.words(pdf)
        let right = try XCTUnwrap(TestSupport.pdfInfo(pdf)["Page size"].flatMap { Double($0.split(separator: " ")[0]) }) - 50
        func word(_ text: String, _ occurrence: Int = 0) throws -> (xMin: Double, xMax: Double) {
            let found = words.filter { $0.text == text }
            XCTAssertGreaterThan(found.count, occurrence, "\(text) not drawn")
            return (found[occurrence].xMin, found[occurrence].xMax)
        }
        let bullets = words.filter { $0.text == "•" }
        XCTAssertEqual(bullets.count, 2)
        for bullet in bullets { XCTAssertGreaterThan(bullet.xMin, right - 20, "bullets hang at the right") }
        // The item starting with Latin starts beside its bullet, at the right, as the Arabic one does.
        XCTAssertGreaterThan(try word("Metformin").xMax, right - 40, "the Latin-led item starts at its bullet")
        XCTAssertLessThan(try word("Metformin").xMax, bullets[0].xMin)
        // In the table's first column (on the right), the Latin name ends at the column's right edge.
        XCTAssertGreaterThan(try word("Metformin", 1).xMax, right - 15, "the Latin cell starts at its column's right")
        // The paragraph starting with Latin runs from the right margin; the English one from the left.
        XCTAssertGreaterThan(try word("Metformin", 2).xMax, right - 5)
        XCTAssertLessThan(try word("Written").xMin, 55, "a paragraph in English runs left to right")
        let html = try document.html()
        XCTAssertTrue(html.contains("<li>Metformin 500"), "the item runs the list's way: \(html)")
        XCTAssertTrue(html.contains("<td>Metformin</td>"))
        XCTAssertTrue(html.contains("<p>Metformin هو"))
        XCTAssertTrue(html.contains("<p lang=\"en\" dir=\"ltr\">Written"))
        XCTAssertFalse(html.contains("plaintext"))
    }

    func testAnArabicParagraphInAnEnglishReportRunsRightToLeftAndAMixedOneTheReportsWay() throws {
        let yaml = """
            page: {margins: 50}
            elements:
              - {type: paragraph, text: "سُجلت قيمة 10.4 ملمول/لتر ظهر يوم السبت"}
              - {type: paragraph, text: "مرحبا is how the patient greets the team every morning"}
            """
        let document = try document(yaml)
        let pdf = try document.pdf()
        let words = try TestSupport.words(pdf)
        let right = try XCTUnwrap(TestSupport.pdfInfo(pdf)["Page size"].flatMap { Double($0.split(separator: " ")[0]) }) - 50
        // The two paragraphs' lines, top to bottom (the page number is the last line).
        let lines = Dictionary(grouping: words) { ($0.yMin * 2).rounded() }.sorted { $0.key < $1.key }.map(\.value)
        XCTAssertGreaterThanOrEqual(lines.count, 2)
        XCTAssertGreaterThan(lines[0].map(\.xMax).max() ?? 0, right - 5, "the Arabic paragraph runs from the right")
        XCTAssertGreaterThan(lines[0].map(\.xMin).min() ?? 0, 100, "and is not set from the left")
        XCTAssertLessThan(lines[1].map(\.xMin).min() ?? 999, 55, "the English one from the left, Arabic first or not")
        let html = try document.html()
        XCTAssertTrue(html.contains("<p lang=\"ar\" dir=\"rtl\">سُجلت"), html)
        XCTAssertTrue(html.contains("<p>مرحبا is how"), html)
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
