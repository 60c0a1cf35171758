import FolioData
import FolioSheets
import FolioTemplate
import Foundation

/// Output file names from a pattern and a record, made safe for any file system.
struct FileNaming: Sendable {
    /// The `--name` pattern, parsed once for every record.
    private let pattern: TemplateText

    /// `pattern` parsed; an unclosed `{{` or an unknown filter is an error naming `--name`, before
    /// any record is read.
    init(pattern: String) throws {
        self.pattern = try TemplateText(pattern, path: "--name")
    }

    /// The paths the pattern reads (`patient.id`): all of them, so a record's own `$`-named member is
    /// kept too (`$number` finds the record's number first; keeping a member of that name costs nothing).
    var recordPaths: [String] { pattern.expressions.map(\.path) }

    /// The pattern bound to record number `number`, sanitised, with `format`'s extension.
    func name(record: TreeValue, number: Int, format: OutputFormat) throws -> String {
        var base = try pattern.evaluate(in: TemplateScope(record: record, number: number), path: "--name", kind: .plain).text
        for ext in [".pdf", ".html", ".htm"] where base.lowercased().hasSuffix(ext) {
            base = String(base.dropLast(ext.count))
        }
        return FileNaming.sanitized(base) + "." + format.rawValue
    }

    /// No path separators, no `..`, no leading dot, at most 180 bytes; C0 controls become `_`, and
    /// characters that would show the name as something else (C1 controls, bidirectional
    /// overrides such as U+202E, the byte-order mark) are removed.
    static func sanitized(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "/", "\\", ":", "*", "?", "\"", "<", ">", "|": result += "_"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "_"
                } else if !scalar.isInvisibleControl {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        while result.contains("..") { result = result.replacingOccurrences(of: "..", with: "_") }
        result = result.trimmingCharacters(in: .whitespaces)
        while result.hasPrefix(".") { result = "_" + result.dropFirst() }
        while result.utf8.count > 180 { result.removeLast() }
        return result.isEmpty ? "_" : result
    }
}
