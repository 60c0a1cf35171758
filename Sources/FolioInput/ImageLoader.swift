import FolioGraphics
import FolioModel
import Foundation

/// Reads an image block's bytes and checks that they are a PNG or JPEG.
package enum ImageLoader {
    /// The image of `block`, with files resolved against `baseDirectory`;
    /// errors name `path` (such as `elements[1]`) and the bad field.
    package static func load(_ block: ImageBlock, path: String, baseDirectory: URL?, field fieldName: String? = nil) throws -> ImageData {
        try load(block, path: path, assets: .files(relativeTo: baseDirectory), field: fieldName)
    }

    /// The image of `block`, with files read as `assets` allows;
    /// errors name `path` (such as `elements[1]`) and the bad field.
    package static func load(_ block: ImageBlock, path: String, assets: AssetAccess, field fieldName: String? = nil) throws -> ImageData {
        let bytes: Data
        let field: String
        switch block.source {
        case .data(let data):
            bytes = data
            field = fieldName ?? "\(path).data"
        case .file(let file):
            field = fieldName ?? "\(path).path"
            bytes = try assets.read(file, field: field)
        }
        guard let image = ImageData(bytes: bytes) else {
            throw FolioError(path: field, "not a PNG or JPEG image")
        }
        if let problem = image.problem { throw FolioError(path: field, problem) }
        return image
    }
}
