import FolioModel
import Foundation

/// A document validated once, with its theme built and every image, SVG picture (sanitised) and the theme's logo read
/// and checked once: what the PDF and HTML renderers take, so layout and writing never touch
/// the file system and a PDF and an HTML of one record share one validation and one read.
package struct PreparedDocument: Sendable {
    /// The validated document.
    package let document: Document
    /// The base theme with the document's `theme` settings and logo applied.
    package let theme: Theme
    /// Every image block's image, by the block's path (`elements[3]`, `elements[2].items[1]`).
    private let images: [String: ImageData]
    /// Every svg block's sanitised picture, by the block's path.
    private let pictures: [String: SanitizedSVG]

    /// Validates `document`, builds its theme over `base` and reads its images as `assets` allows.
    /// Errors name the field (`elements[3].path: …`, `theme.logo: …`).
    package init(_ document: Document, base: Theme, assets: AssetAccess) throws {
        try document.validate()
        let theme = try base.applying(document.theme, assets: assets, field: "theme")
        var images: [String: ImageData] = [:]
        var filesRead: [String: ImageData] = [:]
        var pictures: [String: SanitizedSVG] = [:]
        let columnWidth = document.page.pageSize.width - document.page.margins.left.points - document.page.margins.right.points
        func load(_ block: Block, path: String) throws {
            switch block {
            case .image, .svg: try RenderDeadline.check(at: "reading \(path)")
            default: break
            }
            switch block {
            case .image(let image):
                if case .file(let file) = image.source, let known = filesRead[file] {
                    images[path] = known
                    return
                }
                let data = try ImageLoader.load(image, path: path, assets: assets)
                if case .file(let file) = image.source { filesRead[file] = data }
                images[path] = data
            case .svg(let svg):
                // The widest it can be drawn: its width, in the page's text column.
                let width = svg.width?.points
                switch svg.source {
                case .markup(let markup):
                    pictures[path] = try SanitizedSVG.sanitize(
                        Data(markup.utf8), path: "\(path).svg", width: width, columnWidth: columnWidth)
                case .file(let file):
                    let bytes = try assets.read(file, field: "\(path).path", limit: InputLimits.svgBytes)
                    pictures[path] = try SanitizedSVG.sanitize(bytes, path: "\(path).path", width: width, columnWidth: columnWidth)
                }
            case .columns(let columns):
                for (index, item) in columns.items.enumerated() { try load(item, path: "\(path).items[\(index)]") }
            default:
                break
            }
        }
        for (index, block) in document.elements.enumerated() { try load(block, path: "elements[\(index)]") }
        self.document = document
        self.theme = theme
        self.images = images
        self.pictures = pictures
    }

    /// The sanitised picture of the svg block at `path`, read and cleaned when the document was prepared.
    package func picture(at path: String) throws -> SanitizedSVG {
        guard let picture = pictures[path] else { throw FolioError(path: path, "the SVG was not read before rendering") }
        return picture
    }

    /// The image of the image block at `path`, read when the document was prepared.
    package func image(at path: String) throws -> ImageData {
        guard let image = images[path] else { throw FolioError(path: path, "the image was not read before rendering") }
        return image
    }
}
