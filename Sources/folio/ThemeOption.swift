import ArgumentParser
import Folio
import FolioData
import FolioFiles
import FolioTemplate
import Foundation

/// `--theme FILE`, the same for `render`, `batch` and `serve`.
struct ThemeOption: ParsableArguments {
    @Option(
        help: "A theme file (YAML or JSON, see Templates/theme.yaml): colours, fonts, sizes, logo. A document's own theme applies over it."
    )
    var theme: String?

    /// The standard theme with the file's settings, its logo relative to the file; the standard theme without a file.
    func load() throws -> Theme { try ThemeOption.load(path: theme) }

    /// The standard theme with the settings of the file at `path`; the standard theme for nil.
    static func load(path: String?) throws -> Theme {
        guard let path else { return .standard }
        let data = try BoundedFile.read(path, limit: InputLimits.documentBytes, field: "--theme", what: "theme", regularOnly: true)
        let spec: ThemeSpec
        do {
            spec = try DocumentDecoder.decode(
                ThemeSpec.self, from: try DocumentDecoder.tree(data, format: DocumentDecoder.Format(fileName: path)))
        } catch let error as FolioError {
            // Said at the theme file's line: its syntax error's, or the field's.
            var themeError = FolioError(
                path: "--theme" + (error.path.isEmpty ? "" : " \(error.path)"),
                error.message.replacingOccurrences(of: "the input", with: "the theme"))
            themeError.position =
                error.position
                ?? (error.path.isEmpty ? nil : String(data: data, encoding: .utf8).flatMap { SourceLocator.locate(error.path, in: $0) })
            themeError.file = themeError.position == nil ? nil : path
            throw themeError
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        return try Theme.standard.applying(spec, assets: .files(relativeTo: folder), field: "--theme")
    }
}
