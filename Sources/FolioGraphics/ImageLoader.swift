import Foundation
import FolioModel

/// Reads an image block's bytes and checks that they are a PNG or JPEG.
public enum ImageLoader {
    /// The image of `block`, with files resolved against `baseDirectory`;
    /// errors name `path` (such as `elements[1]`) and the bad field.
    public static func load(_ block: ImageBlock, path: String, baseDirectory: URL?, field fieldName: String? = nil) throws -> ImageData {
        let bytes: Data
        let field: String
        switch block.source {
        case .data(let data):
            bytes = data
            field = fieldName ?? "\(path).data"
        case .file(let file):
            field = fieldName ?? "\(path).path"
            let url = file.hasPrefix("/") ? URL(fileURLWithPath: file)
                : (baseDirectory?.appendingPathComponent(file) ?? URL(fileURLWithPath: file))
            bytes = try BoundedFile.read(url.path, limit: InputLimits.imageBytes, field: field, what: "image file", shownAs: file,
                                       regularOnly: true)
        }
        guard let image = ImageData(bytes: bytes) else {
            throw FolioError(path: field, "not a PNG or JPEG image")
        }
        if let problem = image.problem { throw FolioError(path: field, problem) }
        return image
    }
}
