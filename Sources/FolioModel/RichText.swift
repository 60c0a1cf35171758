/// One run of inline text with the same style.
public struct TextRun: Sendable, Hashable {
    public var text: String
    public var bold: Bool
    public var italic: Bool
    /// Target URL when the run is a link.
    public var link: String?

    public init(_ text: String, bold: Bool = false, italic: Bool = false, link: String? = nil) {
        self.text = text; self.bold = bold; self.italic = italic; self.link = link
    }
}

/// Inline text with **bold**, *italic*, `[links](https://…)` and line breaks,
/// written in documents as a small Markdown subset.
///
/// `\n` is a line break; a backslash before `*`, `[`, `]`, `(`, `)` or `\` keeps it literal.
public struct RichText: Sendable, Hashable, Codable, ExpressibleByStringLiteral {
    /// The text as written, markup included.
    public var source: String
    /// The parsed runs, in order.
    public let runs: [TextRun]

    public init(_ source: String) {
        self.source = source
        self.runs = RichText.parse(source)
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// The text without markup, as a reader sees it.
    public var plainText: String { runs.map(\.text).joined() }

    public init(from decoder: Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(source)
    }

    public static func == (lhs: RichText, rhs: RichText) -> Bool { lhs.source == rhs.source }
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }

    static func parse(_ source: String) -> [TextRun] {
        var parser = MarkupParser(Array(source))
        return parser.parse()
    }
}

/// Turns the Markdown subset of `RichText` into runs in one pass.
private struct MarkupParser {
    let chars: [Character]
    var index = 0
    var runs: [TextRun] = []
    var buffer = ""
    var bold = false
    var italic = false

    init(_ chars: [Character]) { self.chars = chars }

    mutating func parse() -> [TextRun] {
        while index < chars.count {
            let c = chars[index]
            if c == "\\", index + 1 < chars.count, "*[]()\\_".contains(chars[index + 1]) {
                buffer.append(chars[index + 1]); index += 2
            } else if c == "*", peek(1) == "*", bold || hasClosing("**") {
                flush(); bold.toggle(); index += 2
            } else if c == "*", peek(1) == "*" {
                buffer += "**"; index += 2
            } else if c == "*", italic || hasClosing("*") {
                flush(); italic.toggle(); index += 1
            } else if c == "[", let link = parseLink() {
                flush()
                runs.append(TextRun(link.text, bold: bold, italic: italic, link: link.url))
            } else {
                buffer.append(c); index += 1
            }
        }
        flush()
        return runs
    }

    func peek(_ offset: Int) -> Character? {
        index + offset < chars.count ? chars[index + offset] : nil
    }

    /// Whether the marker that opens here is closed later, so a lone `*` stays literal.
    func hasClosing(_ marker: String) -> Bool {
        let m = Array(marker)
        var i = index + m.count
        guard i < chars.count, chars[i] != " " else { return false }
        while i + m.count <= chars.count {
            if Array(chars[i..<i + m.count]) == m, chars[i - 1] != " " {
                if m.count == 1 && i + 1 < chars.count && chars[i + 1] == "*" { i += 2; continue }
                return true
            }
            i += 1
        }
        return false
    }

    mutating func parseLink() -> (text: String, url: String)? {
        guard let close = chars[index...].firstIndex(of: "]"), close + 1 < chars.count,
              chars[close + 1] == "(", let end = chars[(close + 1)...].firstIndex(of: ")") else { return nil }
        let text = String(chars[(index + 1)..<close])
        let url = String(chars[(close + 2)..<end]).trimmingWhitespace()
        guard !text.isEmpty, !url.isEmpty else { return nil }
        index = end + 1
        return (text, url)
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        runs.append(TextRun(buffer, bold: bold, italic: italic))
        buffer = ""
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}
