import FolioData
import FolioModel
import Foundation

/// A FHIR narrative (`text.div`, restricted XHTML) read into Folio's own blocks, never passed on
/// as markup: `{paragraph: text}`, `{list: [items]}` and `{table: {header, rows}}`. Only the words
/// are kept: a link keeps its text (no address), an image its `alt` text (nothing fetches),
/// scripts and styles are dropped, character references are decoded.
struct FHIRNarrative {
    /// The most blocks a narrative yields; the rest are dropped (a section's narrative is a summary).
    static let maximumBlocks = 2_000
    /// The most characters one paragraph, item or cell keeps.
    static let maximumText = 20_000
    /// The most of a narrative read (Unicode scalars): a section's summary, not a document of its own.
    static let maximumScalars = 1_000_000

    private(set) var blocks: [TreeValue] = []
    private var text = ""
    private var listItems: [String] = []
    private var listDepth = 0
    private var ordered: [Bool] = []
    private var itemText: String?
    private var table: (header: [String]?, rows: [[String]], headerRow: Bool)?
    private var row: [String]?
    private var rowIsHeader = true
    private var cell: String?
    private var inHead = false
    private var skipping: String?
    /// Empty cells still owed after a cell that spans several columns.
    private var pendingSpan = 0

    /// The blocks of `xhtml`.
    static func blocks(of xhtml: String) -> [TreeValue] {
        var reader = FHIRNarrative()
        reader.read(xhtml)
        return reader.blocks
    }

    /// The words of `xhtml` as one line of text (for a short narrative shown inline).
    static func plainText(of xhtml: String) -> String {
        blocks(of: xhtml).map { block -> String in
            if case .string(let text)? = block["paragraph"] { return text }
            if case .array(let items)? = block["list"] { return items.map(\.text).joined(separator: "; ") }
            if let table = block["table"] {
                let rows = [table["header"]].compactMap { $0 } + FHIRResource.array(table, "rows")
                return rows.map { row -> String in
                    guard case .array(let cells) = row else { return "" }
                    return cells.map(\.text).filter { !$0.isEmpty }.joined(separator: ", ")
                }.joined(separator: "; ")
            }
            return ""
        }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    private mutating func read(_ xhtml: String) {
        let scalars = Array(xhtml.unicodeScalars.prefix(FHIRNarrative.maximumScalars))
        var index = 0
        var pending = ""
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "<" else {
                pending.unicodeScalars.append(scalar)
                index += 1
                continue
            }
            if !pending.isEmpty {
                addText(FHIRNarrative.decoded(pending))
                pending = ""
            }
            // A comment, a CDATA section or a declaration: skipped whole.
            if FHIRNarrative.starts(scalars, at: index, with: "<!--") {
                index = FHIRNarrative.find(scalars, "-->", from: index + 4).map { $0 + 3 } ?? scalars.count
                continue
            }
            if FHIRNarrative.starts(scalars, at: index, with: "<!") || FHIRNarrative.starts(scalars, at: index, with: "<?") {
                index = FHIRNarrative.find(scalars, ">", from: index).map { $0 + 1 } ?? scalars.count
                continue
            }
            // A tag: its name and attributes up to the '>' outside quotes.
            var end = index + 1
            var quote: Unicode.Scalar?
            while end < scalars.count {
                let c = scalars[end]
                if let open = quote {
                    if c == open { quote = nil }
                } else if c == "\"" || c == "'" {
                    quote = c
                } else if c == ">" {
                    break
                }
                end += 1
            }
            let inside = String(String.UnicodeScalarView(scalars[(index + 1)..<min(end, scalars.count)]))
            handleTag(inside)
            index = end + 1
        }
        if !pending.isEmpty { addText(FHIRNarrative.decoded(pending)) }
        closeTable()
        closeList()
        flushParagraph()
    }

    private static func starts(_ scalars: [Unicode.Scalar], at index: Int, with prefix: String) -> Bool {
        let wanted = Array(prefix.unicodeScalars)
        guard index + wanted.count <= scalars.count else { return false }
        return (0..<wanted.count).allSatisfy { scalars[index + $0] == wanted[$0] }
    }

    private static func find(_ scalars: [Unicode.Scalar], _ text: String, from start: Int) -> Int? {
        var index = start
        while index < scalars.count {
            if starts(scalars, at: index, with: text) { return index }
            index += 1
        }
        return nil
    }

    private mutating func handleTag(_ inside: String) {
        let closing = inside.hasPrefix("/")
        let body = closing ? inside.dropFirst() : Substring(inside)
        let name = String(body.prefix { !$0.isWhitespace && $0 != "/" }).lowercased()
        let selfClosing = inside.hasSuffix("/")
        if let skipped = skipping {
            if closing, name == skipped { skipping = nil }
            return
        }
        if !closing, ["script", "style", "head", "title"].contains(name), !selfClosing {
            skipping = name
            return
        }
        switch name {
        case "br":
            if cell != nil || itemText != nil { addText(" ") } else { flushParagraph() }
        case "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "section", "article", "hr", "dl", "dt", "dd":
            if cell != nil || itemText != nil { addText(" ") } else { flushParagraph() }
        case "ul", "ol":
            if closing {
                finishItem()
                listDepth = max(0, listDepth - 1)
                _ = ordered.popLast()
                if listDepth == 0 { closeList() }
            } else {
                if listDepth == 0 { flushParagraph() } else { finishItem() }
                listDepth += 1
                ordered.append(name == "ol")
            }
        case "li":
            finishItem()
            if !closing {
                if listDepth == 0 {
                    flushParagraph()
                    listDepth = 1
                    ordered = [false]
                }
                let number = (ordered.last ?? false) ? "\(listItems.count + 1). " : ""
                itemText = String(repeating: "  ", count: max(0, listDepth - 1)) + number
            }
        case "table":
            if closing {
                closeTable()
            } else if table == nil {
                flushParagraph()
                table = (nil, [], false)
            }
        case "thead":
            inHead = !closing
        case "tr":
            finishRow()
            if !closing, table != nil {
                row = []
                rowIsHeader = true
            }
        case "td", "th":
            finishCell()
            if !closing, table != nil {
                if row == nil {
                    row = []
                    rowIsHeader = true
                }
                if name == "td" { rowIsHeader = false }
                cell = ""
                // A cell spanning columns: its words in the first, the others left empty.
                if let span = FHIRNarrative.attribute("colspan", in: inside).flatMap({ Int($0) }), span > 1 {
                    pendingSpan = min(span, 50) - 1
                }
            }
        case "caption":
            if closing, table != nil { flushParagraph() }
        case "img":
            if let alt = FHIRNarrative.attribute("alt", in: inside), !alt.isEmpty { addText(" \(FHIRNarrative.decoded(alt)) ") }
        default:
            break
        }
    }

    /// An attribute's value in a tag's text.
    private static func attribute(_ name: String, in tag: String) -> String? {
        // Searched in the tag itself (an index into a lowercased copy need not be one into the tag).
        guard
            let range = [" ", "\t", "\n"].lazy.compactMap({ tag.range(of: "\($0)\(name)=", options: .caseInsensitive) }).first
        else { return nil }
        let rest = tag[range.upperBound...]
        guard let quote = rest.first else { return nil }
        if quote == "\"" || quote == "'" {
            let value = rest.dropFirst().prefix { $0 != quote }
            return String(value)
        }
        return String(rest.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" })
    }

    private mutating func addText(_ words: String) {
        guard skipping == nil else { return }
        func extend(_ target: inout String) {
            let room = FHIRNarrative.maximumText - target.count
            if room > 0 { target += words.prefix(room) }
        }
        if var current = cell {
            extend(&current)
            cell = current
        } else if var current = itemText {
            extend(&current)
            itemText = current
        } else {
            // Running text, or text between a table's cells (a caption): a paragraph before the table's rows.
            extend(&text)
        }
    }

    private mutating func append(_ block: TreeValue) {
        if blocks.count < FHIRNarrative.maximumBlocks { blocks.append(block) }
    }

    private mutating func flushParagraph() {
        let words = FHIRNarrative.collapsed(text)
        text = ""
        if !words.isEmpty { append(.object([("paragraph", .string(words))])) }
    }

    private mutating func finishItem() {
        guard let item = itemText else { return }
        itemText = nil
        let words = FHIRNarrative.collapsed(item, keepingIndent: true)
        if !words.trimmingCharacters(in: .whitespaces).isEmpty { listItems.append(words) }
    }

    private mutating func closeList() {
        finishItem()
        listDepth = 0
        ordered = []
        guard !listItems.isEmpty else { return }
        append(.object([("list", .array(listItems.map(TreeValue.string)))]))
        listItems = []
    }

    private mutating func finishCell() {
        guard let words = cell else { return }
        cell = nil
        row?.append(FHIRNarrative.collapsed(words))
        if pendingSpan > 0 {
            row?.append(contentsOf: [String](repeating: "", count: pendingSpan))
            pendingSpan = 0
        }
    }

    private mutating func finishRow() {
        finishCell()
        guard let cells = row else { return }
        row = nil
        guard !cells.isEmpty, var current = table else { return }
        if current.header == nil, current.rows.isEmpty, rowIsHeader || inHead {
            current.header = cells
        } else if cells.contains(where: { !$0.isEmpty }) {
            current.rows.append(cells)
        }
        table = current
    }

    private mutating func closeTable() {
        finishRow()
        guard let finished = table else { return }
        table = nil
        flushParagraph()
        let width = max(finished.header?.count ?? 0, finished.rows.map(\.count).max() ?? 0)
        guard width > 0, !finished.rows.isEmpty || finished.header != nil else { return }
        func padded(_ cells: [String]) -> TreeValue {
            .array((cells + [String](repeating: "", count: width - cells.count)).map(TreeValue.string))
        }
        // A table of a header row alone is an empty table: no narrative (its section says why it is empty).
        if finished.rows.isEmpty { return }
        var members: [(key: String, value: TreeValue)] = []
        if let header = finished.header { members.append(("header", padded(header))) }
        members.append(("rows", .array(finished.rows.map(padded))))
        append(.object([("table", .object(members))]))
    }

    /// Runs of white space as one space, trimmed (an item's leading indent kept).
    private static func collapsed(_ text: String, keepingIndent: Bool = false) -> String {
        var indent = ""
        var body = Substring(text)
        if keepingIndent {
            indent = String(text.prefix { $0 == " " })
            body = body.dropFirst(indent.count)
        }
        var result = ""
        var space = false
        for character in body {
            if character.isWhitespace {
                space = !result.isEmpty
            } else {
                if space { result.append(" ") }
                space = false
                result.append(character)
            }
        }
        return indent + result
    }

    /// Text with its character references decoded (`&amp;`, `&#233;`, `&#xE9;`, `&nbsp;` …); an
    /// unknown or malformed reference is kept as written.
    static func decoded(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") else {
                result.append(character)
                index = text.index(after: index)
                continue
            }
            let name = text[text.index(after: index)..<semicolon]
            if let scalar = reference(String(name)) {
                result.unicodeScalars.append(scalar)
                index = text.index(after: semicolon)
            } else {
                result.append(character)
                index = text.index(after: index)
            }
        }
        return result
    }

    private static let named: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "ndash": "\u{2013}", "mdash": "\u{2014}",
        "deg": "\u{B0}", "micro": "\u{B5}", "plusmn": "\u{B1}", "middot": "\u{B7}", "bull": "\u{2022}", "hellip": "\u{2026}",
        "le": "\u{2264}", "ge": "\u{2265}", "times": "\u{D7}", "copy": "\u{A9}", "reg": "\u{AE}", "euro": "\u{20AC}",
    ]

    private static func reference(_ name: String) -> Unicode.Scalar? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(allowed)
        }
        if name.hasPrefix("#") { return UInt32(name.dropFirst()).flatMap(allowed) }
        return named[name]
    }

    /// A code point a reference may stand for: not NUL, not a surrogate, not a C0 or C1 control
    /// other than a tab or a line end.
    private static func allowed(_ value: UInt32) -> Unicode.Scalar? {
        guard let scalar = Unicode.Scalar(value), value != 0 else { return nil }
        if value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D { return nil }
        if (0x7F...0x9F).contains(value) { return nil }
        return scalar
    }
}
