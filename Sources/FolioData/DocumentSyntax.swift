import FolioFiles
import FolioModel
import Foundation

/// How documents, templates and themes are written: JSON or YAML read into a tree (with the bound
/// on its values shared by the files it includes), and decoding failures said as one line naming
/// the field, such as `elements[3].rows[2]: expected an array of strings`. `DocumentDecoder`
/// (FolioTemplate) reads whole documents with it.
public enum DocumentSyntax {
    /// The input syntax.
    public enum Format: String, Sendable, CaseIterable {
        case json, yaml

        /// The format for a file name's extension; YAML for anything else but `.json`.
        public init(fileName: String) {
            self = fileName.lowercased().hasSuffix(".json") ? .json : .yaml
        }
    }

    /// Decodes any model value (a `ThemeSpec`, a `Chart`, a `Document` as written) from a tree,
    /// errors naming the field; `quotingHint` adds YAML advice to "expected a string, found a
    /// number". Unknown keys are errors, or warnings with `lenient`.
    package static func decode<T: Decodable>(
        _ type: T.Type, from tree: TreeValue, quotingHint: Bool = true,
        lenient: Bool = false, warning: ((FolioError) -> Void)? = nil
    ) throws -> T {
        do {
            return try TreeDecoder.decode(type, from: tree) { unknown in
                guard lenient else { throw unknown }
                warning?(unknown)
            }
        } catch let error as DecodingError {
            throw describe(error, quotingHint: quotingHint)
        }
    }

    /// The input parsed into a tree: JSON keeps its key order, YAML its scalars' types. The bytes are
    /// consumed: YAML's are let go of once they are text (a long document is not held twice). Its
    /// values are counted in `budget` (which the files it includes then share).
    package static func tree(_ data: consuming Data, format: Format, budget: TreeBudget = TreeBudget()) throws -> TreeValue {
        guard data.count <= InputLimits.documentBytes else {
            throw FolioError(path: "", "the input has \(data.count) bytes; at most \(InputLimits.documentBytes) are allowed")
        }
        let tree: TreeValue
        switch format {
        case .json:
            do {
                tree = try JSONTreeParser.parse(data)
            } catch let error as FolioError {
                throw error.rephrased("the input is not valid JSON: \(error.message)")
            }
        case .yaml:
            let decoded = String(validatingUTF8Bytes: data)
            data = Data()
            guard let text = decoded else { throw FolioError(path: "", "the input is not UTF-8 text") }
            do {
                tree = try YAMLTree.parse(text, budget: budget)
            } catch let exceeded as TreeBudget.Exceeded {
                throw FolioError(path: "", exceeded.message)
            } catch let error as FolioError {
                throw error
            } catch {
                throw FolioError(path: "", "the input is not valid YAML: \(conciseDescription(error))")
            }
        }
        guard case .object = tree else {
            throw FolioError(path: "", "the document must be a mapping with a title and elements")
        }
        return tree
    }

    /// The dotted path of a coding path: `elements[3].series[1].values`.
    package static func path(_ codingPath: [CodingKey]) -> String {
        var result = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue.hasPrefix("Index") || Int(key.stringValue) == index {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return result
    }

    /// A one-line message for a decoding error, naming the field.
    package static func describe(_ error: DecodingError, quotingHint: Bool = false) -> FolioError {
        switch error {
        case .typeMismatch(let type, let context):
            if context.debugDescription.hasPrefix("expected") {
                return FolioError(path: path(context.codingPath), context.debugDescription)
            }
            var message = "expected \(typeName(type))"
            if let found = foundKind(context.debugDescription) {
                message += ", found \(found)"
                if quotingHint, typeName(type) == "a string", found == "a number" || found == "a boolean" {
                    message += " (in YAML, put it in quotes)"
                }
            }
            return FolioError(path: path(context.codingPath), message)
        case .valueNotFound(let type, let context):
            return FolioError(path: path(context.codingPath), "expected \(typeName(type)), found null")
        case .keyNotFound(let key, let context):
            if context.debugDescription.hasPrefix("an ") {
                return FolioError(path: path(context.codingPath), context.debugDescription)
            }
            return FolioError(path: path(context.codingPath + [key]), "is required")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                let underlying = (context.underlyingError).map(conciseDescription) ?? context.debugDescription
                return FolioError(path: "", "the input is not valid: \(underlying)")
            }
            return FolioError(path: path(context.codingPath), context.debugDescription)
        @unknown default:
            return FolioError(path: "", "\(error)")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch "\(type)" {
        case "String": return "a string"
        case "Double", "Float", "Int": return "a number"
        case "Bool": return "true or false"
        case "Array<String>": return "an array of strings"
        case "Array<Double>": return "an array of numbers"
        case let name where name.hasPrefix("Array"): return "an array"
        case let name where name.hasPrefix("Dictionary"): return "an object"
        default: return "an object"
        }
    }

    /// "a string" from Foundation's "…but found a string instead." and similar texts.
    private static func foundKind(_ description: String) -> String? {
        guard let range = description.range(of: "but found ") else { return nil }
        var rest = description[range.upperBound...]
        if let end = rest.range(of: " instead") { rest = rest[..<end.lowerBound] }
        let kind = rest.trimmingCharacters(in: .whitespaces)
        switch kind {
        case "": return nil
        case "number", "string", "array", "object", "bool": return (kind == "array" || kind == "object" ? "an " : "a ") + kind
        case "dictionary": return "an object"
        case "null", "nil": return "null"
        default: return kind
        }
    }

    private static func conciseDescription(_ error: Error) -> String {
        let text = "\(error)"
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }
}

extension String {
    /// The text of `data` if it is valid UTF-8 without NUL characters, else nil; a byte order mark
    /// at its start is not part of the text.
    package init?(validatingUTF8Bytes data: Data) {
        let bytes = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else { return nil }
        self = text
    }
}
