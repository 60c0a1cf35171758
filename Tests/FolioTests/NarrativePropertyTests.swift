import Foundation
import PropertyBased
import Testing

@testable import Folio
@testable import FolioFHIR
@testable import FolioTemplate

/// r65: every narrative shape the FHIR reader emits renders in the stock patient summary — tables
/// with and without a header row, header cells in the body, empty cells, spanning cells, rows of
/// different widths, tables of one row, nested lists, line breaks, character references — and its
/// words reach both outputs. (A table without a header row failed the whole patient's summary.)
@Suite struct NarrativePropertyTests {
    private static let template = TestSupport.root.appendingPathComponent("Templates/patient-summary.yaml")
    private static let sample = TestSupport.root.appendingPathComponent("Samples/ips-summary.json")

    /// A section narrative made from `plan`, and the words a reader must find of it.
    static func narrative(_ plan: [Int]) -> (xhtml: String, words: [String]) {
        var words: [String] = []
        var plan = plan[...]
        func next(_ range: Int) -> Int {
            guard let value = plan.popFirst() else { return 0 }
            return abs(value) % range
        }
        func word() -> String {
            let made = "w\(words.count)x\(next(1000))"
            words.append(made)
            return made
        }
        func cell(_ tag: String) -> String {
            switch next(6) {
            case 0: return "<\(tag)></\(tag)>"
            case 1: return "<\(tag) colspan=\"2\">\(word())</\(tag)>"
            case 2: return "<\(tag)>\(word()) &amp; \(word())<br/>\(word())</\(tag)>"
            default: return "<\(tag)>\(word())</\(tag)>"
            }
        }
        func row(_ tag: String) -> String { "<tr>" + (0...next(4)).map { _ in cell(next(5) == 0 ? "th" : tag) }.joined() + "</tr>" }
        func list(depth: Int) -> String {
            let name = next(2) == 0 ? "ul" : "ol"
            let items = (0...next(3)).map { _ -> String in
                let nested = depth < 3 && next(3) == 0 ? list(depth: depth + 1) : ""
                return "<li>\(word())\(nested)</li>"
            }
            return "<\(name)>" + items.joined() + "</\(name)>"
        }
        var blocks: [String] = []
        for _ in 0...next(4) {
            switch next(7) {
            case 0: blocks.append("<p>\(word()) \(word())</p>")
            case 1: blocks.append(list(depth: 0))
            case 2:
                // A header row in a thead, then rows (one at least with words: a table of empty rows is an empty table).
                blocks.append(
                    "<table><thead>\(row("th"))</thead><tbody>" + (0...next(3)).map { _ in row("td") }.joined()
                        + "<tr><td>\(word())</td></tr></tbody></table>")
            case 3:
                // No header row at all.
                blocks.append("<table>" + (0...next(3)).map { _ in row("td") }.joined() + "<tr><td>\(word())</td></tr></table>")
            case 4:
                // A table of one row of headers only is an empty table: its words are not the section's.
                blocks.append("<table><tr><th>Substance</th><th></th></tr></table>")
            case 5: blocks.append("<div>\(word())<br/>\(word())</div>")
            default: blocks.append("<table><caption>\(word())</caption><tr><td>\(word())</td></tr><tr><td></td><td></td></tr></table>")
            }
        }
        return ("<div xmlns=\"http://www.w3.org/1999/xhtml\">" + blocks.joined() + "</div>", words)
    }

    /// The sample IPS Bundle with its last section's entries taken away and `xhtml` as its narrative.
    static func bundle(narrative xhtml: String) throws -> URL {
        let data = try Data(contentsOf: sample)
        guard var bundle = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            var entries = bundle["entry"] as? [[String: Any]],
            let index = entries.firstIndex(where: { ($0["resource"] as? [String: Any])?["resourceType"] as? String == "Composition" }),
            var composition = entries[index]["resource"] as? [String: Any], var sections = composition["section"] as? [[String: Any]],
            var last = sections.last
        else { throw FixtureError("Samples/ips-summary.json holds no Composition with sections") }
        last["entry"] = nil
        last["text"] = ["status": "generated", "div": xhtml]
        sections[sections.count - 1] = last
        composition["section"] = sections
        entries[index]["resource"] = composition
        bundle["entry"] = entries
        return try TestSupport.temporaryFile(JSONSerialization.data(withJSONObject: bundle), name: "bundle.json")
    }

    @Test func everyNarrativeShapeRendersWithItsWords() async throws {
        let template = try DocumentTemplate(data: try Data(contentsOf: Self.template), format: .yaml)
        await propertyCheck(count: 40, input: Gen.int(in: 0...10_000).array(of: 8...60)) { plan in
            let (xhtml, words) = Self.narrative(plan)
            do {
                let path = try Self.bundle(narrative: xhtml)
                let record = try RecordSelection.record(
                    in: path.path, fhir: try FHIRImportOptions(period: nil, zone: nil), id: nil, number: nil, note: { _ in })
                let document = try template.document(for: record)
                let options = RenderOptions(baseDirectory: TestSupport.root.appendingPathComponent("Templates"))
                let html = try document.html(options: options)
                let text = try TestSupport.pdfText(try document.pdf(options: options))
                for word in words {
                    #expect(html.contains(word), "\(word) of \(xhtml) is not in the HTML")
                    #expect(text.contains(word), "\(word) of \(xhtml) is not in the PDF")
                }
            } catch {
                Issue.record("\(xhtml): \(error)")
            }
        }
    }
}
