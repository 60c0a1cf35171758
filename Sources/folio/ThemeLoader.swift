import Folio
import Foundation

/// Reads `--theme` files.
enum ThemeLoader {
    /// The default theme with the file's settings, its logo relative to the file; the default theme without a file.
    static func load(_ path: String?) throws -> Theme {
        guard let path else { return .standard }
        let data = try BoundedFile.read(path, limit: InputLimits.documentBytes, field: "--theme", what: "theme", regularOnly: true)
        let spec: ThemeSpec
        do {
            spec = try DocumentDecoder.decode(
                ThemeSpec.self, from: try DocumentDecoder.tree(data, format: DocumentDecoder.Format(fileName: path)))
        } catch let error as FolioError {
            throw FolioError(path: "--theme" + (error.path.isEmpty ? "" : " \(error.path)"), error.message)
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        return try Theme.standard.applying(spec, assets: .files(relativeTo: folder), field: "--theme")
    }
}
