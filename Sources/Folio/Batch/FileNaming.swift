import Foundation

/// Output file names from a pattern and a record, made safe for any file system.
enum FileNaming {
    /// `pattern` bound to `record`, sanitised, with `format`'s extension.
    static func name(pattern: String, record: TreeValue, number: Int, format: OutputFormat) throws -> String {
        var base = try DocumentTemplate.interpolate(pattern, record: record, number: number, templatePath: "--name")
        for ext in [".pdf", ".html", ".htm"] where base.lowercased().hasSuffix(ext) {
            base = String(base.dropLast(ext.count))
        }
        return sanitized(base) + "." + format.rawValue
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
