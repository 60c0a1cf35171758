import Foundation
import PropertyBased
import Testing

@testable import Folio

/// Generated documents whose every string field holds an injection payload: in page, fragment
/// and shadow HTML no payload survives as markup, and no `javascript:` or `data:` link is
/// clickable in HTML or PDF. A document may also be refused, with one error naming a field.
struct InjectionPropertyTests {
    static let payloads = [
        "</style><script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "'><svg onload=alert(1)>",
        "</title><script>alert(2)</script>",
        "</template><script>alert(3)</script><template>",
        "<!-- --><![CDATA[ ]]>",
        "javascript:alert(1)",
        "data:text/html,<script>alert(4)</script>",
        "&lt;script&gt;&#60;script&#62;",
        "{{x}} ${x} `x`",
        "a\u{0}b\u{FFFE}c\u{7}<b>",
        "*[click](javascript:alert(5))*",
        "[click](https://example.org/\"onmouseover=\"alert(6))",
        "[click](data:text/html;base64,PHNjcmlwdD4=)",
        "x</desc></svg><script>alert(7)</script>",
        "\u{202E}evil\u{202C} <style>*{display:none}</style>",
    ]

    /// A document built from `plan`: each number picks a block kind and the payloads of its strings.
    static func document(_ plan: [Int]) -> Document {
        func payload(_ n: Int) -> String { payloads[abs(n) % payloads.count] }
        var elements: [Block] = []
        for (index, n) in plan.enumerated() {
            let p = { (k: Int) in payload(n / 16 + k + index) }
            switch n % 9 {
            case 0: elements.append(.subtitle(Subtitle(p(0))))
            case 1: elements.append(.paragraph(Paragraph(RichText(p(1) + " " + p(2)))))
            case 2: elements.append(.table(Table(header: [p(0), p(1)], rows: [[p(2), p(3)], [p(4)]], caption: p(5))))
            case 3: elements.append(.message(Message(title: p(0), text: RichText(p(1)), kind: .alert)))
            case 4: elements.append(.widgets(Widgets([.init(title: p(0), value: p(1), detail: p(2))])))
            case 5:
                elements.append(
                    .chart(
                        Chart(
                            title: p(0), caption: p(1), xAxis: ChartAxis(title: p(2)), yAxis: ChartAxis(title: p(3)),
                            thresholds: [ChartThreshold(kind: .greaterThan, value: 2, label: p(4))], alt: p(5),
                            dataTable: true,
                            .bar(BarChart(categories: [p(6), p(7)], series: [ChartSeries(title: p(8), values: [1, 3])])))))
            case 6:
                elements.append(
                    .chart(
                        Chart(
                            title: p(0),
                            .pie(
                                PieChart(segments: [
                                    ChartSegment(title: p(1), value: 2),
                                    ChartSegment(title: p(2), value: 1),
                                ])))))
            case 7: elements.append(.image(ImageBlock(source: .file("logo.png"), alt: p(0), caption: p(1))))
            default: elements.append(.section(Section(title: p(0), label: "S")))
            }
        }
        return Document(
            title: payload(plan.first ?? 0), header: payload((plan.first ?? 0) + 1), footer: payload(3) + " {page}",
            metadata: Metadata(author: payload(4), subject: payload(5), keywords: [payload(6)]), elements: elements)
    }

    /// The names of every attribute of every start tag, read as a browser tokenizes them
    /// (quoted values skipped), so text that merely looks like `onerror=` inside a value is not one.
    static func attributeNames(_ html: String) -> [String] {
        let b = Array(html.utf8)
        var names: [String] = []
        var i = 0
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D || c == 0x0C }
        while i < b.count {
            guard b[i] == UInt8(ascii: "<"), i + 1 < b.count, (b[i + 1] | 0x20) >= UInt8(ascii: "a"), (b[i + 1] | 0x20) <= UInt8(ascii: "z")
            else {
                i += 1
                continue
            }
            i += 1
            while i < b.count, !isSpace(b[i]), b[i] != UInt8(ascii: ">"), b[i] != UInt8(ascii: "/") { i += 1 }
            while i < b.count, b[i] != UInt8(ascii: ">") {
                if isSpace(b[i]) || b[i] == UInt8(ascii: "/") {
                    i += 1
                    continue
                }
                let start = i
                while i < b.count, !isSpace(b[i]), b[i] != UInt8(ascii: "="), b[i] != UInt8(ascii: ">"), b[i] != UInt8(ascii: "/") {
                    i += 1
                }
                names.append(String(decoding: b[start..<i], as: UTF8.self).lowercased())
                while i < b.count, isSpace(b[i]) { i += 1 }
                guard i < b.count, b[i] == UInt8(ascii: "=") else { continue }
                i += 1
                while i < b.count, isSpace(b[i]) { i += 1 }
                if i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") {
                    let quote = b[i]
                    i += 1
                    while i < b.count, b[i] != quote { i += 1 }
                    i += 1
                } else {
                    while i < b.count, !isSpace(b[i]), b[i] != UInt8(ascii: ">") { i += 1 }
                }
            }
        }
        return names
    }

    @Test func noPayloadSurvivesAsMarkup() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...10_000).array(of: 1...8)) { plan in
            let document = Self.document(plan)
            let options = { (output: HTMLRenderer.Output) in RenderOptions(baseDirectory: TestSupport.samples, html: output) }
            do {
                for output in HTMLRenderer.Output.allCases {
                    let html = try document.html(options: options(output))
                    let lower = html.lowercased()
                    #expect(!lower.contains("<script"), "a script element in \(output)")
                    #expect(!lower.contains("<img src=x"), "an injected image in \(output)")
                    #expect(!lower.contains("<svg onload"), "an injected SVG in \(output)")
                    #expect(!lower.contains("href=\"javascript:") && !lower.contains("href=\"data:"), "a script link in \(output)")
                    #expect(html.components(separatedBy: "</style>").count == 2, "the style element closed early in \(output)")
                    #expect(!html.contains("\u{0}") && !html.contains("\u{FFFE}"), "characters HTML forbids in \(output)")
                    let names = Self.attributeNames(html)
                    #expect(!names.contains { $0.hasPrefix("on") }, "an event handler attribute in \(output)")
                    #expect(!names.contains("style"), "a style attribute in \(output)")
                }
                // Read unpacked: Folio packs the annotations into compressed object streams.
                let pdf = try TestSupport.readablePDF(try document.pdf(options: options(.page)))
                #expect(pdf.contains("/Type /Catalog"), "the PDF was unpacked")
                #expect(!pdf.contains("/URI (javascript") && !pdf.contains("/URI (data:"), "a script link in the PDF")
            } catch let error as FolioError {
                // Refusing a document is fine when the error names a field and says why in one line.
                #expect(!error.path.isEmpty && !error.message.contains("\n"), "\(error)")
                #expect(error.message.contains("link"), "only a link may make these documents invalid: \(error)")
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }
}
