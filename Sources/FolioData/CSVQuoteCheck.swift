import FolioModel
import Foundation

/// Finds a quoted CSV field that is never closed, which CSV.swift reads to the end of the file as one
/// field: the rows after it would vanish into it without a word. One pass over the file's bytes in
/// fixed memory, following CSV.swift's rules (a field is quoted when its first character is `"`;
/// inside it `""` is a quote, and a `"` followed by a comma, a line end or the end closes it).
enum CSVQuoteCheck {
    private enum State {
        case fieldStart, unquoted, quoted, afterQuote
    }

    /// The line (from 1) where a quoted field that the file never closes begins, or nil.
    static func unclosedQuoteLine(path: String) throws -> Int? {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FolioError(path: "", "cannot read data file \(path): \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        var state = State.fieldStart
        var line = 1
        var openedOn = 1
        var first = true
        while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
            var bytes = chunk[...]
            if first, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            first = false
            for byte in bytes {
                if byte == 0x0A { line += 1 }
                let lineEnd = byte == 0x0A || byte == 0x0D
                switch state {
                case .fieldStart:
                    if byte == 0x22 {
                        state = .quoted
                        openedOn = line
                    } else if byte != 0x2C && !lineEnd {
                        state = .unquoted
                    }
                case .unquoted:
                    if byte == 0x2C || lineEnd { state = .fieldStart }
                case .quoted:
                    if byte == 0x22 { state = .afterQuote }
                case .afterQuote:
                    state = byte == 0x2C || lineEnd ? .fieldStart : .quoted
                }
            }
        }
        return state == .quoted ? openedOn : nil
    }
}
