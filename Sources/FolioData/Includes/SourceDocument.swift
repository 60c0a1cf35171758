import FolioFiles
import FolioModel
import Foundation

/// A document or template as read from its file, with the files it includes (`$include`) in
/// place, and where each of its fields is written, for errors that name the file and line.
package struct SourceDocument: Sendable {
    /// The parsed input, includes resolved.
    package let tree: TreeValue
    /// Which file holds each field.
    package let origins: SourceOrigins

    /// Reads the document or template at `path` (JSON for a `.json` name, else YAML), at most
    /// `InputLimits.documentBytes` of it and of the files it includes together; errors name
    /// `field` and call the file `what`.
    package static func read(_ path: String, what: String = "input", field: String = "", regularOnly: Bool = false) throws -> SourceDocument
    {
        try SourceDocument(
            data: try BoundedFile.read(path, limit: InputLimits.documentBytes, field: field, what: what, regularOnly: regularOnly),
            path: path)
    }

    /// The document in `data`, read from `path` (the folder its includes are read from).
    package init(data: Data, path: String) throws {
        let format = DocumentSyntax.Format(fileName: path)
        // Only a text naming the key can include anything: others are parsed as before, not walked.
        let includes = data.range(of: Data(IncludeResolver.key.utf8)) != nil
        let text = includes ? String(validatingUTF8Bytes: data) : nil
        let budget = TreeBudget()
        let parsed = try DocumentSyntax.tree(data, format: format, budget: budget)
        guard includes else {
            tree = parsed
            origins = SourceOrigins(input: path)
            return
        }
        guard let text, let realPath = realpath(path, nil) else {
            throw FolioError(path: "", "cannot find the folder of \"\(path)\" to include files from")
        }
        defer { free(realPath) }
        var resolver = IncludeResolver(input: path, realPath: String(cString: realPath), text: text, budget: budget)
        (tree, origins) = try resolver.resolve(parsed, inputRealPath: String(cString: realPath))
    }
}
