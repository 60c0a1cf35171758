import ArgumentParser
import Folio
import FolioFiles
import Foundation

/// `--template FILE`, the HTML page shell, the same for `render` and `serve`.
struct PageShellOption: ParsableArguments {
    @Option(
        name: .customLong("template"),
        help: "HTML pages only: a Mustache page shell to use instead of the built-in one (see Templates/page.mustache).")
    var path: String?

    /// The shell's text, read and checked (a syntax error names its line and column); nil without one.
    func load() throws -> String? { try PageShellOption.load(path: path) }

    /// The text of the shell at `path`, read and checked; nil for nil.
    static func load(path: String?) throws -> String? {
        guard let path else { return nil }
        let bytes = try BoundedFile.read(path, limit: 1 << 20, field: "--template", what: "template", regularOnly: true)
        guard let text = String(validatingUTF8Bytes: bytes) else {
            throw FolioError(path: "--template", "\(path) is not UTF-8 text")
        }
        try HTMLRenderer.checkPageTemplate(text)
        return text
    }
}
