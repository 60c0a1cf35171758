import FolioData
import FolioModel
import Foundation

/// Reads documents from JSON or YAML and turns every decoding failure into a
/// `FolioError` that names the field, such as `elements[3].rows[2]: expected an array of strings`.
public enum DocumentDecoder {
    /// The input syntax: JSON, or YAML.
    public typealias Format = DocumentSyntax.Format

    /// Decodes and validates a document. A key no field has (`titel`) is an error with a
    /// suggestion, or, with `lenient`, a warning passed to `warning`.
    public static func decode(
        _ data: Data, format: Format, lenient: Bool = false,
        warning: ((FolioError) -> Void)? = nil
    ) throws -> Document {
        let document = try decodeForRendering(data, format: format, lenient: lenient, warning: warning)
        try document.validate()
        return document
    }

    /// Decodes a document without validating it, for a caller that renders it next: rendering
    /// validates once (`Document.prepared(options:)`), so a render validates one time, not two.
    package static func decodeForRendering(
        _ data: Data, format: Format, lenient: Bool = false,
        warning: ((FolioError) -> Void)? = nil
    ) throws -> Document {
        try decode(Document.self, from: try tree(data, format: format), quotingHint: format == .yaml, lenient: lenient, warning: warning)
    }

    /// Decodes the document `read` gives, letting go of its bytes once they are parsed: a long
    /// document's text is then held once (in the tree and the document, which share it), not
    /// also as the file it was read from.
    package static func decodeForRendering(
        reading read: () throws -> Data, format: Format, lenient: Bool = false,
        warning: ((FolioError) -> Void)? = nil
    ) throws -> Document {
        let tree = try tree(try read(), format: format)
        return try decode(Document.self, from: tree, quotingHint: format == .yaml, lenient: lenient, warning: warning)
    }

    /// Decodes and validates a document from a tree, such as a bound template.
    package static func decode(_ tree: TreeValue, lenient: Bool = false, warning: ((FolioError) -> Void)? = nil) throws -> Document {
        let document = try decode(Document.self, from: tree, lenient: lenient, warning: warning)
        try document.validate()
        return document
    }

    /// Decodes any model value (a `ThemeSpec`, a `Chart`) from a tree, errors naming the field;
    /// `quotingHint` adds YAML advice to "expected a string, found a number". Unknown keys are
    /// errors, or warnings with `lenient`. A document's tables of records are made into their rows
    /// once, here, for every output.
    package static func decode<T: Decodable>(
        _ type: T.Type, from tree: TreeValue, quotingHint: Bool = true,
        lenient: Bool = false, warning: ((FolioError) -> Void)? = nil
    ) throws -> T {
        let value = try DocumentSyntax.decode(type, from: tree, quotingHint: quotingHint, lenient: lenient, warning: warning)
        if let document = value as? Document, let expanded = try document.expandingReports() as? T { return expanded }
        return value
    }

    /// The input parsed into a tree (see `DocumentSyntax.tree`).
    package static func tree(_ data: consuming Data, format: Format, budget: TreeBudget = TreeBudget()) throws -> TreeValue {
        try DocumentSyntax.tree(data, format: format, budget: budget)
    }

    /// The dotted path of a coding path: `elements[3].series[1].values`.
    package static func path(_ codingPath: [CodingKey]) -> String { DocumentSyntax.path(codingPath) }

    /// A one-line message for a decoding error, naming the field.
    package static func describe(_ error: DecodingError, quotingHint: Bool = false) -> FolioError {
        DocumentSyntax.describe(error, quotingHint: quotingHint)
    }
}
