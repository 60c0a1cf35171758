import FolioModel
import Foundation

/// Which file holds each field of a document read with `$include`s, and where: so that an error
/// about `elements[5].title` names the included `parts/footer.yaml` at its line, not the file that
/// included it.
package struct SourceOrigins: Sendable {
    /// A file the document was read from: the input, or a file it includes.
    package struct File: Sendable {
        /// The file's path as errors show it: as given on the command line, or, for an included
        /// file, joined to the folder of the file that includes it (`Templates/parts/banner.yaml`).
        package let shownPath: String
        /// Its text, kept for placing errors (nil for the input itself, which its reader keeps).
        let text: String?
    }

    /// Where the fields under a resolved path come from: a file and the path in it.
    struct Origin: Sendable {
        let file: File
        let steps: [SourceLocator.Step]
        /// The `$include` that brought the file in, when the fields are an included file's: where
        /// an error about the included value as a whole is shown.
        let site: (file: File, steps: [SourceLocator.Step])?
    }

    /// The input itself.
    package let input: File
    /// Where fields come from, by the resolved path at which their file's content starts.
    var origins: [[SourceLocator.Step]: Origin] = [:]
    /// Every file the input includes, by its real path (what a preview watches).
    package private(set) var includedFiles: [String] = []

    /// The origins of a document read from `input` alone; `text`, the input's text, when kept.
    package init(input: String, text: String? = nil) {
        self.input = File(shownPath: input, text: text)
    }

    /// Notes that the content at `path` of the resolved document is `steps` of `file`.
    mutating func note(_ path: [SourceLocator.Step], from file: File, at steps: [SourceLocator.Step], site: (File, [SourceLocator.Step])?) {
        origins[path] = Origin(file: file, steps: steps, site: site)
    }

    /// Notes a file the input includes.
    mutating func noteIncluded(_ realPath: String) {
        if !includedFiles.contains(realPath) { includedFiles.append(realPath) }
    }

    /// Whether any field comes from a file other than the input.
    package var hasIncludes: Bool { !includedFiles.isEmpty }

    /// The file and the place in it of the field at `path` of the resolved document (or of the
    /// nearest enclosing field the file holds); nil when no file holds it. `inputText` gives the
    /// input's own text, read only when the field is the input's.
    package func place(of path: String, inputText: () -> String?) -> (file: String, position: SourcePosition)? {
        guard let steps = SourceLocator.steps(of: path), !steps.isEmpty else { return nil }
        var origin: Origin?
        var rest = steps[...]
        if !origins.isEmpty {
            for length in stride(from: steps.count, through: 0, by: -1) {
                if let found = origins[Array(steps.prefix(length))] {
                    origin = found
                    rest = steps[length...]
                    break
                }
            }
        }
        guard let origin else { return located(Array(steps), in: input, inputText: inputText) }
        let inFile = origin.steps + rest
        if !inFile.isEmpty, let place = located(inFile, in: origin.file, inputText: inputText) { return place }
        // The included value as a whole (or a field its file does not hold): at the `$include`.
        guard let site = origin.site else { return nil }
        return located(site.steps, in: site.file, inputText: inputText)
    }

    /// The file and place of `error`: where its text is at fault (a syntax error), else where the
    /// field it names is written.
    package func place(of error: FolioError, inputText: () -> String?) -> (file: String, position: SourcePosition)? {
        if let position = error.position { return (error.file ?? input.shownPath, position) }
        guard !error.path.isEmpty else { return nil }
        return place(of: error.path, inputText: inputText)
    }

    private func located(_ steps: [SourceLocator.Step], in file: File, inputText: () -> String?) -> (
        file: String, position: SourcePosition
    )? {
        guard let text = file.text ?? inputText(), let position = SourceLocator.locate(steps, in: text) else { return nil }
        return (file.shownPath, position)
    }
}
