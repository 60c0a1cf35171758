import Folio
import Foundation

/// Reads `--theme` files.
enum ThemeLoader {
    /// The default theme with the file's settings, its logo relative to the file; the default theme without a file.
    static func load(_ path: String?) throws -> Theme {
        guard let path else { return .standard }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FolioError(path: "--theme", "cannot read \(path)")
        }
        let tree: TreeValue
        if DocumentDecoder.Format(fileName: path) == .json {
            tree = try JSONTreeParser.parse(data)
        } else {
            tree = try YAMLTree.parse(String(decoding: data, as: UTF8.self))
        }
        let spec: ThemeSpec
        do {
            spec = try DocumentDecoder.decoder.decode(ThemeSpec.self, from: Data(tree.json.utf8))
        } catch let error as DecodingError {
            let described = DocumentDecoder.describe(error)
            throw FolioError(path: "--theme" + (described.path.isEmpty ? "" : " \(described.path)"), described.message)
        }
        try spec.validate(path: "--theme")
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let logo = try spec.logo.map {
            try ImageLoader.load(ImageBlock(source: .file($0)), path: "--theme", baseDirectory: folder, field: "--theme logo")
        }
        return Theme.standard.applying(spec, logo: logo)
    }
}
