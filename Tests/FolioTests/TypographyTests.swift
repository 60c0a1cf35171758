import Foundation
import XCTest

@testable import Folio
@testable import FolioCharts
@testable import FolioModel

/// Text set as a typographer would in each language (#42).
final class TypographyTests: XCTestCase {
    private func set(_ text: String, _ language: String = "en", quotes: Bool = true) -> String {
        Typography.set([TextRun(text)], language: language, quotes: quotes).map(\.text).joined()
    }

    func testANumberStaysWithItsUnit() {
        XCTAssertEqual(set("Take 400 mg twice"), "Take 400\u{00A0}mg twice")
        XCTAssertEqual(set("glucose 5.4 mmol/L, 37.5 °C, 12 %"), "glucose 5.4\u{00A0}mmol/L, 37.5\u{00A0}°C, 12\u{00A0}%")
        XCTAssertEqual(set("2 patients and 3 nurses"), "2 patients and 3 nurses", "a noun is not a unit")
        XCTAssertEqual(set("500 mg", quotes: false), "500\u{00A0}mg", "cells keep units too")
    }

    func testChineseAndJapanesePunctuationIsFullWidth() {
        XCTAssertEqual(set("疼痛减轻了, 明天复查.", "zh"), "疼痛减轻了，明天复查。")
        XCTAssertEqual(set("今日は晴れ, 明日は雨.", "ja"), "今日は晴れ、明日は雨。")
        XCTAssertEqual(set("体温37.5 °C, 正常", "zh"), "体温37.5\u{00A0}°C, 正常", "after a number or a Latin letter, ASCII stays")
        XCTAssertEqual(set("疼痛, 好", "en"), "疼痛, 好", "only in a Chinese or Japanese document")
    }

    func testADashStaysWithTheWordBeforeIt() {
        XCTAssertEqual(set("Summaries — Riverside ward"), "Summaries\u{00A0}— Riverside ward")
        XCTAssertEqual(set("10 – 12 mg"), "10\u{00A0}– 12\u{00A0}mg")
    }

    /// A heading of two lines is balanced, its last line not one word under a full one (#42).
    func testAWrappedHeadingIsBalanced() throws {
        let title = "Weekly summaries of the care team for the whole Riverside ward"
        let document = Document(title: title, elements: [.paragraph(Paragraph("Text."))])
        let words = try TestSupport.words(try document.pdf()).filter {
            $0.yMin < 200 && title.split(separator: " ").map(String.init).contains($0.text)
        }
        var lines: [Double: (min: Double, max: Double)] = [:]
        for word in words {
            let key = (word.yMin / 4).rounded()
            lines[key] = (min(lines[key]?.min ?? word.xMin, word.xMin), max(lines[key]?.max ?? word.xMax, word.xMax))
        }
        XCTAssertEqual(lines.count, 2, "\(words)")
        let widths = lines.sorted { $0.key < $1.key }.map { $0.value.max - $0.value.min }
        XCTAssertGreaterThan(widths[1], widths[0] * 0.6, "the last line is not a short leftover: \(widths)")
    }

    func testQuotesAndApostrophesAreTypographicByLanguage() {
        XCTAssertEqual(set(#"She said "better" today; don't worry"#), "She said \u{201C}better\u{201D} today; don\u{2019}t worry")
        XCTAssertEqual(set(#"Er sagte "besser""#, "de"), "Er sagte \u{201E}besser\u{201C}")
        XCTAssertEqual(set(#"Il a dit "mieux" aujourd'hui"#, "fr"), "Il a dit \u{AB}\u{202F}mieux\u{202F}\u{BB} aujourd\u{2019}hui")
        XCTAssertEqual(set(#"5'10" tall"#, quotes: false), #"5'10" tall"#, "cells hold data: quotes as written")
        let link = [TextRun("https://x.example/a'b", link: LinkTarget("https://x.example/a'b"))]
        XCTAssertEqual(Typography.set(link, language: "en"), link, "an address is left alone")
    }

    func testFrenchSpacesItsPunctuationButNotAddresses() {
        XCTAssertEqual(set("Attention! Vraiment? Oui; dose: 5", "fr"), "Attention\u{202F}! Vraiment\u{202F}? Oui\u{202F}; dose\u{202F}: 5")
        XCTAssertEqual(set("Note : texte", "fr"), "Note\u{202F}: texte")
        XCTAssertEqual(set("voir https://x.example", "fr"), "voir https://x.example")
        XCTAssertEqual(set("Attention! Really?", "en"), "Attention! Really?", "English sets no space")
        XCTAssertEqual(BuiltInStrings.french.labelSeparator, "\u{202F}: ")
    }

    func testAnAbbreviatedNameIsNotFollowedByASecondStop() {
        let french = NumberFormat(.french)
        // 2026-11-15 was a Sunday: French abbreviates it "dim." already.
        XCTAssertEqual(french.dateString(1_795_305_600, pattern: "EEE."), "dim.")
        XCTAssertEqual(NumberFormat(.english).dateString(1_795_305_600, pattern: "EEE."), "Sun.")
    }
}
