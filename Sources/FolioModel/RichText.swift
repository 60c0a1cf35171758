/// One run of inline text with the same style.
package struct TextRun: Sendable, Hashable {
    /// The run's text.
    package var text: String
    /// Bold.
    package var bold: Bool
    /// Italic.
    package var italic: Bool
    /// Where the run links to, when it is a link (checked: see `LinkTarget`).
    package var link: LinkTarget?
    /// A link target the text wrote that is no link a document may hold (`javascript:…`): the run is
    /// plain text, and validation names the field.
    package var rejectedLink: String?
    /// The run's language when its author marked it (`[texte]{lang=fr}`): a passage a screen
    /// reader reads in that language.
    package var language: String?
    /// The footnote this run cites (`[^id]`): written as the note's number, raised, a link to the note.
    package var footnote: String?

    /// A run of `text`.
    package init(_ text: String, bold: Bool = false, italic: Bool = false, link: LinkTarget? = nil, language: String? = nil) {
        self.text = text
        self.bold = bold
        self.italic = italic
        self.link = link
        self.language = language
    }
}

/// Inline text with **bold**, *italic*, `[links](https://…)`, passages in another language (`[texte]{lang=fr}`),
/// footnote citations (`[^id]`, the note in the document's `footnotes`) and line breaks,
/// written in documents as a small Markdown subset. An address written out (`https://…` or
/// `<https://…>`) is a link to itself.
///
/// `\n` is a line break; a backslash before `*`, `[`, `]`, `(`, `)`, `_`, `:` or `\` keeps it
/// literal (and is dropped from a link's address, where values bound from a template land escaped).
public struct RichText: Sendable, Hashable, Codable, ExpressibleByStringLiteral {
    /// The text as written, markup included.
    public var source: String
    /// The parsed runs, in order.
    package let runs: [TextRun]

    /// Text read as markup: **bold**, *italic*, [links](url).
    public init(_ source: String) {
        self.source = source
        self.runs = RichText.parse(source)
    }

    /// Text read as markup.
    public init(stringLiteral value: String) { self.init(value) }

    /// `literal` with every markup character escaped, so it reads as itself: `[Pay](https://x)`
    /// and `https://x` stay text, not links (`:` is escaped too). Template values are bound into
    /// rich text through this.
    public static func escaped(_ literal: String) -> String { escaped(literal, keepingAddresses: false) }

    /// `literal` with its markup escaped but an address written out in it still a link (`:` left
    /// as it is): a table cell's value, where an address has always been a link.
    public static func escapedKeepingAddresses(_ literal: String) -> String { escaped(literal, keepingAddresses: true) }

    private static func escaped(_ literal: String, keepingAddresses: Bool) -> String {
        // Every markup character is ASCII, so the text is escaped byte by byte: a backslash before
        // an ASCII byte keeps the UTF-8 valid (walking characters cost 30 times as much).
        func isMarkup(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "*"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "\\"), UInt8(ascii: "_"):
                return true
            case UInt8(ascii: ":"), UInt8(ascii: "@"): return !keepingAddresses
            default: return false
            }
        }
        let bytes = literal.utf8
        guard bytes.contains(where: isMarkup) else { return literal }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 8)
        for byte in bytes {
            if isMarkup(byte) { result.append(UInt8(ascii: "\\")) }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The text without markup, as a reader sees it.
    package var plainText: String { runs.map(\.text).joined() }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(source)
    }

    /// Whether two texts have the same markup.
    public static func == (lhs: RichText, rhs: RichText) -> Bool { lhs.source == rhs.source }
    /// Hashes the markup.
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }

    static func parse(_ source: String) -> [TextRun] {
        // Text without a character that can begin markup or an address (`*`, `[`, `\\`, `<`, the
        // `:` of every `https://` and the `@` of an e-mail address) is one run of itself: it shares the source's storage instead of
        // being copied character by character (a long document's text is held once, not twice).
        let plain = source.utf8.allSatisfy { byte in
            byte != UInt8(ascii: "*") && byte != UInt8(ascii: "[") && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "<")
                && byte != UInt8(ascii: ":") && byte != UInt8(ascii: "@")
        }
        if plain { return source.isEmpty ? [] : [TextRun(source)] }
        var parser = MarkupParser(Array(source.unicodeScalars))
        return parser.parse()
    }

    /// A table cell's runs: its inline markup (`**bold**`, `*italic*`, `[links](…)`, addresses) read as
    /// in a paragraph. Most cells hold no markup character and are one run, found without parsing.
    package static func cellRuns(_ cell: String) -> [TextRun] {
        mayHoldMarkup(cell) ? RichText(cell).runs : [TextRun(cell)]
    }

    /// Whether `text` holds what markup starts with: `*`, `[`, `\\`, or an address's `://` (a time's
    /// `10:30` is not). One pass over the bytes.
    package static func mayHoldMarkup(_ text: String) -> Bool {
        var colons = 0
        var slashes = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "*"), UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "@"): return true
            case UInt8(ascii: ":"):
                colons = 1
                slashes = 0
            case UInt8(ascii: "/") where colons == 1:
                slashes += 1
                if slashes == 2 { return true }
            default:
                colons = 0
                slashes = 0
            }
        }
        return false
    }

    /// Plain text as runs: no markup, but an address written out is a link to
    /// itself, as in rich text.
    package static func linkingAddresses(_ plain: String) -> [TextRun] {
        guard plain.contains("://") || plain.contains("@") else { return [TextRun(plain)] }
        var parser = MarkupParser(Array(plain.unicodeScalars), markup: false)
        return parser.parse()
    }
}

/// Turns the Markdown subset of `RichText` into runs in one pass. Whether a marker is
/// closed later, and where the next `]` and `)` are, is precomputed from the end, so the
/// parse is linear in the text's length whatever its markup.
private struct MarkupParser {
    /// The characters a backslash keeps literal.
    static let escapable = Set("*[]()\\_:@".unicodeScalars)
    /// The text as Unicode scalars: every marker is ASCII, and scalars compare far faster than characters.
    let chars: [Unicode.Scalar]
    /// Whether `*`, `[…](…)` and backslashes are markup; without, only addresses become links.
    let markup: Bool
    /// Whether the text has an `@` at all: only then is a word tried as an e-mail address.
    private let hasAt: Bool
    var index = 0
    var runs: [TextRun] = []
    var buffer = ""
    var bold = false
    var italic = false
    /// `closesSingle[i]`: scanning from `i`, a `*` not after a space (and not part of `**`) comes.
    private let closesSingle: [Bool]
    /// `closesDouble[i]`: scanning from `i`, a `**` not after a space comes.
    private let closesDouble: [Bool]
    /// The first `]` and non-white-space character at or after each index (`count` when none).
    private let nextBracket: [Int], nextNonSpace: [Int]
    /// For each `(`, the index of the `)` that closes it (parentheses nest, as in
    /// `https://en.wikipedia.org/wiki/Care_(medicine)`), or -1.
    private let closingParen: [Int]

    init(_ chars: [Unicode.Scalar], markup: Bool = true) {
        self.chars = chars
        self.markup = markup
        hasAt = chars.contains("@")
        let n = chars.count
        var single = [Bool](repeating: false, count: n + 2)
        var double = [Bool](repeating: false, count: n + 2)
        var bracket = [Int](repeating: n, count: n + 1)
        var nonSpace = [Int](repeating: n, count: n + 1)
        var i = n - 1
        while i >= 0 {
            let afterSpace = i > 0 && chars[i - 1] == " "
            if chars[i] == "*", !afterSpace {
                single[i] = i + 1 < n && chars[i + 1] == "*" ? single[i + 2] : true
            } else {
                single[i] = single[i + 1]
            }
            double[i] = (chars[i] == "*" && i + 1 < n && chars[i + 1] == "*" && !afterSpace) || double[i + 1]
            bracket[i] = chars[i] == "]" ? i : bracket[i + 1]
            nonSpace[i] = chars[i].hasWhiteSpaceProperty ? nonSpace[i + 1] : i
            i -= 1
        }
        closesSingle = single
        closesDouble = double
        nextBracket = bracket
        nextNonSpace = nonSpace
        var closing = [Int](repeating: -1, count: n)
        var open: [Int] = []
        var k = 0
        while k < n {
            if chars[k] == "\\", k + 1 < n {
                k += 2
                continue
            }
            if chars[k] == "(" { open.append(k) } else if chars[k] == ")", let start = open.popLast() { closing[start] = k }
            k += 1
        }
        closingParen = closing
    }

    mutating func parse() -> [TextRun] {
        while index < chars.count {
            let c = chars[index]
            if !markup {
                if c == "h" || c == "H" || c == "<", let target = parseBareURL() {
                    flush()
                    runs.append(TextRun(target.url, link: target))
                } else if hasAt, let (address, target) = parseBareEmail() {
                    flush()
                    runs.append(TextRun(address, link: target))
                } else {
                    buffer.unicodeScalars.append(c)
                    index += 1
                }
            } else if c == "\\", index + 1 < chars.count, MarkupParser.escapable.contains(chars[index + 1]) {
                buffer.unicodeScalars.append(chars[index + 1])
                index += 2
            } else if c == "*", peek(1) == "*", bold || hasClosing(double: true) {
                flush()
                bold.toggle()
                index += 2
            } else if c == "*", peek(1) == "*" {
                buffer += "**"
                index += 2
            } else if c == "*", italic || hasClosing(double: false) {
                flush()
                italic.toggle()
                index += 1
            } else if c == "[", peek(1) == "^", let note = parseFootnote() {
                flush()
                var run = TextRun(note, bold: bold, italic: italic)
                run.footnote = note
                runs.append(run)
            } else if c == "[", let link = parseLink() {
                flush()
                var run = TextRun(link.text, bold: bold, italic: italic, link: LinkTarget(link.url))
                if run.link == nil { run.rejectedLink = link.url }
                runs.append(run)
            } else if c == "[", let passage = parseLanguageSpan() {
                flush()
                runs.append(TextRun(passage.text, bold: bold, italic: italic, language: passage.language))
            } else if c == "h" || c == "H" || c == "<", let target = parseBareURL() {
                flush()
                runs.append(TextRun(target.url, bold: bold, italic: italic, link: target))
            } else if hasAt, let (address, target) = parseBareEmail() {
                flush()
                runs.append(TextRun(address, bold: bold, italic: italic, link: target))
            } else {
                buffer.unicodeScalars.append(c)
                index += 1
            }
        }
        flush()
        return runs
    }

    func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < chars.count ? chars[index + offset] : nil
    }

    /// Whether the marker that opens here is closed later, so a lone `*` stays literal.
    func hasClosing(double: Bool) -> Bool {
        let i = index + (double ? 2 : 1)
        guard i < chars.count, chars[i] != " " else { return false }
        return double ? closesDouble[i] : closesSingle[i]
    }

    mutating func parseLink() -> (text: String, url: String)? {
        let close = nextBracket[index + 1 <= chars.count ? index + 1 : chars.count]
        guard close + 1 < chars.count, chars[close + 1] == "(" else { return nil }
        let end = closingParen[close + 1]
        // Text and URL must not be empty; checked before anything is copied.
        guard end > close + 1, close > index + 1, nextNonSpace[close + 2] < end else { return nil }
        let text = String(String.UnicodeScalarView(chars[(index + 1)..<close]))
        var address = String.UnicodeScalarView()
        var k = close + 2
        while k < end {
            if chars[k] == "\\", k + 1 < end, MarkupParser.escapable.contains(chars[k + 1]) { k += 1 }
            address.append(chars[k])
            k += 1
        }
        let url = String(address).trimmingWhitespace()
        index = end + 1
        return (text, url)
    }

    /// `[^id]` (Pandoc's and GitHub's footnote citation, not followed by `(`): the id, of letters,
    /// digits, `-` and `_`, at most 40. Advances past it; nil (and no move) when there is none here.
    mutating func parseFootnote() -> String? {
        let close = nextBracket[index + 1 <= chars.count ? index + 1 : chars.count]
        guard close > index + 2, close - index <= 42, close + 1 >= chars.count || chars[close + 1] != "(" else { return nil }
        let id = chars[(index + 2)..<close]
        guard Document.isFootnoteID(id) else { return nil }
        index = close + 1
        return String(String.UnicodeScalarView(id))
    }

    /// `[texte]{lang=fr}` (Pandoc's bracketed span): a passage in another language, its tag a BCP 47
    /// one (`lang="fr-CA"` quoted too); anything else stays text. Advances past it; nil (and no move) when there is none here.
    mutating func parseLanguageSpan() -> (text: String, language: String)? {
        let close = nextBracket[index + 1 <= chars.count ? index + 1 : chars.count]
        guard close > index + 1, close + 1 < chars.count, chars[close + 1] == "{" else { return nil }
        var end = close + 2
        while end < chars.count, end - close < 40, chars[end] != "}" { end += 1 }
        guard end < chars.count, chars[end] == "}" else { return nil }
        let attribute = String(String.UnicodeScalarView(chars[(close + 2)..<end])).trimmingWhitespace()
        guard attribute.hasPrefix("lang=") else { return nil }
        var tag = Substring(attribute.dropFirst(5))
        if tag.count >= 2, let first = tag.first, first == "\"" || first == "'", tag.last == first { tag = tag.dropFirst().dropLast() }
        guard Metadata.isLanguageTag(String(tag)) else { return nil }
        let text = String(String.UnicodeScalarView(chars[(index + 1)..<close]))
        index = end + 1
        return (text, String(tag))
    }

    /// An address written out, `https://…` or `<https://…>`, at the start of a word, is a link
    /// to itself (as in GitHub's Markdown): a reader can follow what the page shows. It ends at
    /// white space or a character no URL holds unescaped; closing punctuation and an unmatched
    /// `)` stay text. Advances past it; nil (and no move) when there is none here.
    mutating func parseBareURL() -> LinkTarget? {
        let angled = chars[index] == "<"
        let start = angled ? index + 1 : index
        if index > 0, !angled {
            // At the start of a word: after a space, an opening mark, or text of a script written
            // without spaces (Chinese, Japanese: "请参阅https://…") or any punctuation not ASCII ("（https://…").
            let before = chars[index - 1]
            guard
                before.hasWhiteSpaceProperty || "(\"'*".unicodeScalars.contains(before) || MarkupParser.endsAddress(before)
            else { return nil }
        }
        // `prefix` is lowercase ASCII; the scheme may be written in capitals (`HTTPS://`).
        func startsWith(_ prefix: String, at i: Int) -> Bool {
            var k = i
            for scalar in prefix.unicodeScalars {
                guard k < chars.count else { return false }
                let value = chars[k].value
                guard value == scalar.value || (65...90).contains(value) && value + 32 == scalar.value else { return false }
                k += 1
            }
            return true
        }
        guard startsWith("https://", at: start) || startsWith("http://", at: start) else { return nil }
        var end = start
        while end < chars.count {
            let scalar = chars[end]
            if scalar.hasWhiteSpaceProperty || scalar.value < 0x20 || "<>\"\\`*[]".unicodeScalars.contains(scalar)
                || MarkupParser.endsAddress(scalar)
            {
                break
            }
            end += 1
        }
        if angled {
            guard end < chars.count, chars[end] == ">" else { return nil }
        } else {
            // Sentence punctuation after an address is not part of it, nor a `)` it did not open.
            var opened = 0
            for k in start..<end {
                if chars[k] == "(" { opened += 1 } else if chars[k] == ")" { opened -= 1 }
            }
            while end > start {
                let last = chars[end - 1]
                if ".,;:!?'".unicodeScalars.contains(last) {
                    end -= 1
                } else if last == ")", opened < 0 {
                    opened += 1
                    end -= 1
                } else {
                    break
                }
            }
        }
        let url = String(String.UnicodeScalarView(chars[start..<end]))
        guard url.unicodeScalars.count > (url.lowercased().hasPrefix("https") ? 8 : 7), let target = LinkTarget(url) else { return nil }
        index = angled ? end + 1 : end
        return target
    }

    /// An e-mail address written out at the start of a word (`nurse@example.org`, its sentence's
    /// full stop not part of it): the address, and a `mailto:` link to it. Each word is scanned once.
    mutating func parseBareEmail() -> (String, LinkTarget)? {
        func isLocal(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._%+-".unicodeScalars.contains(scalar))
        }
        func isDomain(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == ".")
        }
        guard isLocal(chars[index]), chars[index] != "." else { return nil }
        if index > 0 {
            let before = chars[index - 1]
            guard before.hasWhiteSpaceProperty || "(\"'*".unicodeScalars.contains(before) || MarkupParser.endsAddress(before) else {
                return nil
            }
        }
        var at = index
        while at < chars.count, isLocal(chars[at]) { at += 1 }
        guard at < chars.count, chars[at] == "@", chars[at - 1] != "." else { return nil }
        var end = at + 1
        while end < chars.count, isDomain(chars[end]) { end += 1 }
        while end > at + 1, chars[end - 1] == "." || chars[end - 1] == "-" { end -= 1 }
        let domain = String(String.UnicodeScalarView(chars[(at + 1)..<end]))
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.count <= 63 }), (labels.last?.count ?? 0) >= 2,
            labels.last?.allSatisfy(\.isLetter) == true, end - index <= 254
        else { return nil }
        let address = String(String.UnicodeScalarView(chars[index..<end]))
        guard let target = LinkTarget("mailto:" + address) else { return nil }
        index = end
        return (address, target)
    }

    /// Whether `scalar` cannot be part of an address written out, though no space separates them:
    /// punctuation beyond ASCII (full-width `）`, `。`, `、`, curly quotes) and the letters of scripts
    /// written without spaces (CJK, kana, Hangul from U+2E80 on). Letters with accents stay part of it.
    static func endsAddress(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x80 else { return false }
        if scalar.value >= 0x2E80 { return true }
        switch scalar.properties.generalCategory {
        case .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation, .dashPunctuation:
            return true
        default:
            return false
        }
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
