extension Paragraph {
    /// A piece of a paragraph as it is set: running text, or a list written as Markdown lines.
    public enum Part: Sendable, Hashable {
        /// Lines of running text (with their `\n` breaks).
        case text(RichText)
        /// Lines that start with `- `, `* `, `• `, `+ `, `1. ` or `1) ` (indented by two spaces or more to nest).
        case list(ListBlock)
    }

    /// The paragraph's pieces: its text, with each run of list lines (`- Walk`, `2. Stretch`) a list.
    /// A line indented under an item continues it; any other line ends the list. Most paragraphs
    /// have no such line and are one piece, found without copying.
    public var parts: [Part] { ParagraphListReader.parts(of: text) }
}

/// Reads the Markdown list lines of a paragraph's source into lists.
enum ParagraphListReader {
    /// One list line: its indent, whether it is numbered (and its number) and its text.
    private struct ListLine {
        let indent: Int
        let number: Int?
        let text: Substring
    }

    /// A list being read: its indent, whether numbered, its first number and its items.
    private struct OpenList {
        let indent: Int
        let ordered: Bool
        let start: Int
        var items: [ListBlock.Item] = []
        /// The last text item's source, still open to continuation lines.
        var pendingText: String?

        mutating func flushText() {
            if let pendingText { items.append(.text(RichText(pendingText))) }
            pendingText = nil
        }

        mutating func finished() -> ListBlock {
            flushText()
            return ListBlock(ordered: ordered, start: start, items: items)
        }
    }

    static func parts(of text: RichText) -> [Paragraph.Part] {
        let source = text.source
        guard mayHoldListLines(source) else { return [.text(text)] }
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.contains(where: { listLine($0) != nil }) else { return [.text(text)] }
        var parts: [Paragraph.Part] = []
        var plain: [Substring] = []
        var stack: [OpenList] = []

        /// Closes the innermost open list into the item of the list around it.
        func closeInnermost() {
            var inner = stack.removeLast()
            let list = inner.finished()
            stack[stack.count - 1].flushText()
            stack[stack.count - 1].items.append(.list(list))
        }
        func closeAll() {
            while stack.count > 1 { closeInnermost() }
            if var outer = stack.popLast() { parts.append(.list(outer.finished())) }
        }

        for line in lines {
            if let item = listLine(line) {
                if !plain.isEmpty {
                    parts.append(.text(RichText(plain.joined(separator: "\n"))))
                    plain = []
                }
                // Close the lists indented deeper than this line.
                while let last = stack.last, stack.count > 1, item.indent < last.indent { closeInnermost() }
                if let last = stack.last, item.indent >= last.indent + 2, stack.count < ListBlock.maximumDepth {
                    stack.append(OpenList(indent: item.indent, ordered: item.number != nil, start: item.number ?? 1))
                } else if let last = stack.last, (last.ordered != (item.number != nil)) && stack.count == 1 {
                    // A numbered list after a bulleted one (or the reverse) is another list.
                    closeAll()
                    stack.append(OpenList(indent: item.indent, ordered: item.number != nil, start: item.number ?? 1))
                } else if stack.isEmpty {
                    stack.append(OpenList(indent: item.indent, ordered: item.number != nil, start: item.number ?? 1))
                }
                stack[stack.count - 1].flushText()
                stack[stack.count - 1].pendingText = String(item.text)
            } else if let pending = stack.last?.pendingText, line.first == " ", !line.allSatisfy({ $0 == " " }) {
                // An indented line continues the item above it.
                stack[stack.count - 1].pendingText = pending + "\n" + line.drop(while: { $0 == " " })
            } else {
                closeAll()
                plain.append(line)
            }
        }
        closeAll()
        if !plain.isEmpty { parts.append(.text(RichText(plain.joined(separator: "\n")))) }
        return parts.filter {
            if case .text(let text) = $0 { return !text.source.allSatisfy(\.isWhitespace) }
            return true
        }
    }

    /// Whether `source` has a line starting (after spaces) with a character a list marker starts with.
    private static func mayHoldListLines(_ source: String) -> Bool {
        var lineStart = true
        for byte in source.utf8 {
            if lineStart {
                switch byte {
                case UInt8(ascii: " "): continue
                case UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+"), 0xE2, UInt8(ascii: "0")...UInt8(ascii: "9"): return true
                default: lineStart = false
                }
            }
            if byte == UInt8(ascii: "\n") { lineStart = true }
        }
        return false
    }

    /// `line` as a list line, or nil: spaces, a marker (`-`, `*`, `+`, `•`, or 1–9 digits and `.` or `)`),
    /// a space, and text.
    private static func listLine(_ line: Substring) -> ListLine? {
        let indent = line.prefix(while: { $0 == " " }).count
        let rest = line.dropFirst(indent)
        guard let first = rest.first else { return nil }
        var number: Int?
        var afterMarker: Substring
        if "-*+•".contains(first) {
            afterMarker = rest.dropFirst()
        } else {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            guard (1...9).contains(digits.count), let value = Int(digits) else { return nil }
            let tail = rest.dropFirst(digits.count)
            guard let mark = tail.first, mark == "." || mark == ")" else { return nil }
            number = value
            afterMarker = tail.dropFirst()
        }
        guard afterMarker.first == " " else { return nil }
        afterMarker = afterMarker.drop(while: { $0 == " " })
        guard !afterMarker.isEmpty else { return nil }
        return ListLine(indent: indent, number: number, text: afterMarker)
    }
}
