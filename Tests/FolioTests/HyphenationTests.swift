import Foundation
import XCTest

@testable import Folio
@testable import FolioPango
@testable import FolioTemplate

/// Justified text is hyphenated in the document's language (#42): no word gap of a justified
/// line is over twice the normal space, in English, French and German (measured on the PDF's words).
final class HyphenationTests: XCTestCase {
    static let paragraphs: [(language: String, text: String)] = [
        (
            "en",
            "Over the last week the patient completed most of the treatment plan. Pain peaked mid-week after a long shift and eased over the weekend as stretching sessions resumed. Medication adherence stayed above the care team's threshold on five of seven days; the two missed evening doses coincided with late appointments, and a reminder has been scheduled. Heart rate during the Saturday session tracked the expected curve closely."
        ),
        (
            "fr",
            "Au cours de la semaine dernière, la patiente a suivi l'essentiel du plan de traitement. La douleur a atteint son maximum en milieu de semaine après une longue garde, puis s'est atténuée pendant le week-end lorsque les séances d'étirement ont repris. L'observance médicamenteuse est restée au-dessus du seuil fixé par l'équipe soignante cinq jours sur sept ; les deux doses du soir oubliées coïncidaient avec des rendez-vous tardifs, et un rappel a été programmé."
        ),
        (
            "de",
            "Die Patientin hat in der vergangenen Woche den größten Teil des Behandlungsplans abgeschlossen. Die Schmerzen erreichten nach einer langen Schicht in der Wochenmitte ihren Höhepunkt und ließen am Wochenende nach, als die Dehnungsübungen wieder aufgenommen wurden. Die Medikamententreue lag an fünf von sieben Tagen über dem Schwellenwert des Behandlungsteams; die beiden versäumten Abenddosen fielen mit späten Terminen zusammen, und eine Erinnerungsfunktion wurde eingerichtet."
        ),
    ]

    /// The gaps between consecutive words of each line of `pdf`'s first page, top to bottom.
    private func lineGaps(_ pdf: Data) throws -> [[Double]] {
        let words = try TestSupport.words(pdf)
        var lines: [(y: Double, words: [(xMin: Double, xMax: Double)])] = []
        for word in words {
            if let last = lines.last, abs(last.y - word.yMin) < 1 {
                lines[lines.count - 1].words.append((word.xMin, word.xMax))
            } else {
                lines.append((word.yMin, [(word.xMin, word.xMax)]))
            }
        }
        return lines.map { line in zip(line.words, line.words.dropFirst()).map { $1.xMin - $0.xMax } }
    }

    private func render(_ text: String, language: String, align: String, columns: Bool = false) throws -> Data {
        let block = "{type: paragraph, align: \(align), text: \"\(text)\"}"
        let yaml =
            "metadata: {language: \(language)}\nelements:\n  - "
            + (columns ? "{type: columns, items: [\(block), {type: paragraph, text: \"Notes\"}]}" : block)
        return try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml).pdf(options: TestSupport.sampleOptions)
    }

    func testJustifiedLinesHaveNoGapOverTwiceTheNormalSpace() throws {
        try TestSupport.integrationOnly()  // libhyphen takes two seconds to load German
        for (language, text) in HyphenationTests.paragraphs {
            for columns in [false, true] {
                let plainGaps = try lineGaps(try render(text, language: language, align: "left", columns: columns)).flatMap { $0 }.sorted()
                let normal = plainGaps[plainGaps.count / 2]
                let justified = try lineGaps(try render(text, language: language, align: "justify", columns: columns))
                XCTAssertGreaterThan(justified.count, 3, "\(language): the paragraph should take several lines")
                // Every line but the last (which is not stretched); a narrow column's lines too.
                // Lines are broken first-fit (Pango's): a German line whose next word's last syllable
                // did not fit stretched to 2.2 times; it gets a little letter spacing instead.
                for (index, gaps) in justified.dropLast().enumerated() {
                    let widest = gaps.max() ?? 0
                    XCTAssertLessThanOrEqual(
                        widest, 2 * normal,
                        "\(language)\(columns ? " in a column" : ""), line \(index + 1): a gap of \(widest) pt against a space of \(normal) pt"
                    )
                }
            }
        }
    }

    /// Each word a justified line of `pdf` ends in a hyphen, joined to the rest of it on the next line,
    /// with where it broke: ("trattamento", 4) for "trat-" then "tamento".
    private func brokenWords(_ pdf: Data) throws -> [(word: String, at: Int)] {
        let words = try TestSupport.words(pdf)
        return zip(words, words.dropFirst()).compactMap { word, next in
            guard next.yMin > word.yMin + 1, let last = word.text.last, "-\u{2010}\u{AD}".contains(last) else { return nil }
            let head = word.text.dropLast().reversed().prefix { $0.isLetter }.reversed()
            let tail = next.text.prefix { $0.isLetter }
            return head.isEmpty || tail.isEmpty ? nil : (String(head + tail), head.count)
        }
    }

    /// Justified text breaks its words only where its own language's patterns allow: a document in
    /// a language with no built-in words (Italian, Dutch), a region's patterns (British English), and
    /// a paragraph whose `language` differs from the document's. Before, all of them were broken by
    /// English's patterns.
    func testWordsBreakByTheirParagraphsLanguage() throws {
        try TestSupport.integrationOnly()  // loads several dictionaries
        let italian = String(
            repeating:
                "La fisioterapista raccomanda esercizi di rafforzamento muscolare e una riabilitazione individualizzata, con valutazioni multidimensionali settimanali e documentazione particolareggiata; ",
            count: 3)
        let dutch =
            "In de afgelopen week heeft de patiënte het grootste deel van het behandelingsprogramma afgerond. De pijnklachten bereikten halverwege de week een hoogtepunt na een lange nachtdienst en namen in het weekend af toen de rekoefeningen werden hervat. De therapietrouw bleef op vijf van de zeven dagen boven de drempelwaarde van het behandelteam; de twee vergeten avonddoseringen vielen samen met langdurige afspraken, en er is een automatische herinnering ingesteld."
        let french = HyphenationTests.paragraphs[1].text
        let cases: [(document: String, paragraph: String?, patterns: String, text: String)] = [
            ("it", nil, "it", italian), ("nl-NL", nil, "nl", dutch), ("en", "fr", "fr", french), ("de", "it-IT", "it", italian),
        ]
        for (document, paragraph, patterns, text) in cases {
            let dictionary = try XCTUnwrap(Hyphenator.forLanguage(patterns), "\(patterns): make installs its dictionary")
            let own = paragraph.map { ", language: \($0)" } ?? ""
            let yaml = "metadata: {language: \(document)}\nelements:\n  - {type: paragraph, align: justify\(own), text: \"\(text)\"}"
            let pdf = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml).pdf(options: TestSupport.sampleOptions)
            let broken = try brokenWords(pdf)
            XCTAssertFalse(broken.isEmpty, "\(document)/\(paragraph ?? "-"): a justified paragraph this long hyphenates somewhere")
            for (word, at) in broken {
                let allowed = dictionary.hyphenated(word).split(separator: "\u{AD}").dropLast().reduce(into: [Int]()) {
                    $0.append(($0.last ?? 0) + $1.count)
                }
                XCTAssertTrue(
                    allowed.contains(at),
                    "\(document)/\(paragraph ?? "-"): \(word) broken after \(at) letters, where \(patterns)'s patterns allow \(allowed)")
            }
        }
    }

    func testBreakPointsFollowTheLanguageAndLeaveShortWordsAndAddressesAlone() throws {
        try TestSupport.integrationOnly()  // loads every dictionary
        let english = try XCTUnwrap(Hyphenator.forLanguage("en-US"))
        XCTAssertEqual(english.hyphenated("hyphenation").replacingOccurrences(of: "\u{AD}", with: "-"), "hy-phen-ation")
        XCTAssertEqual(english.hyphenated("a short note"), "a short note", "words under six letters stay whole")
        XCTAssertEqual(english.hyphenated([TextRun("https://example.org/documentation")]).first?.text, "https://example.org/documentation")
        let german = try XCTUnwrap(Hyphenator.forLanguage("de"))
        XCTAssertTrue(german.hyphenated("Behandlungsplans").contains("\u{AD}"))
        XCTAssertEqual(
            german.hyphenated("Größenänderung").replacingOccurrences(of: "\u{AD}", with: ""), "Größenänderung",
            "letters beyond ASCII survive")
        XCTAssertNil(Hyphenator.forLanguage("xx"), "no dictionary, no hyphenation")
        for language in ["es", "it", "pt", "nl", "en-US", "fr-CA"] {
            XCTAssertNotNil(Hyphenator.forLanguage(language), "\(language): make installs its hyphen-* dictionary")
        }
        XCTAssertNil(Hyphenator.forLanguage("../../etc/passwd"))
        // A link's description has no soft hyphen in it.
        let yaml =
            "metadata: {language: en}\nelements:\n  - {type: paragraph, align: justify, text: \"Read [the documentation](https://example.org/docs) carefully.\"}"
        let pdf = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml).pdf(options: TestSupport.sampleOptions)
        XCTAssertTrue(try TestSupport.readablePDF(pdf).contains("the documentation"))
    }
}
