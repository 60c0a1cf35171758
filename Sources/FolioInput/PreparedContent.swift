import FolioGraphics
import FolioModel
import Foundation

/// A kind of block whose model names bytes to read and check before layout (an image's file or
/// data, an SVG picture's markup or file): `PreparedDocument` asks every block that conforms,
/// and layout and the HTML writer then take what it prepared by the block's path.
package protocol PreparedContent: BlockContent {
    /// Reads and checks what the block at `path` needs, into `preparation`; errors name the field.
    func prepare(at path: String, into preparation: inout Preparation) throws
}

extension Block {
    /// This block's preparation, or nil for a kind that reads nothing. A switch, not a cast to
    /// `PreparedContent`: the compiler points to it when a kind is added (a test checks it answers
    /// for every kind that conforms), and a cold process does not scan every protocol conformance
    /// the first time it meets each kind.
    package var prepared: (any PreparedContent)? {
        switch self {
        case .image(let value): return value
        case .svg(let value): return value
        case .pdf(let value): return value
        case .subtitle, .paragraph, .table, .chart, .message, .widgets, .pageBreak, .section, .columns, .custom, .barcode, .list, .contents:
            return nil
        }
    }
}

/// What preparing a document reads: images and sanitised SVG pictures by their block's path.
package struct Preparation {
    /// Where files may be read from.
    package let assets: AssetAccess
    /// The width of the page's text column, the widest a block is drawn.
    package let columnWidth: Double
    /// Every image block's image, by the block's path.
    package var images: [String: ImageData] = [:]
    /// Every svg block's sanitised picture, by the block's path.
    package var pictures: [String: SanitizedSVG] = [:]
    /// Image files already read, by their path: a logo on every page is read once.
    package var imageFiles: [String: ImageData] = [:]
    /// Whether every font an appended PDF's pages use must be embedded (a tagged or archival PDF).
    package var requiresEmbeddedFonts = true
    /// Every pdf block's chosen pages, by the block's path.
    package var appendedPDFs: [String: ImportedPDF] = [:]
    /// How many pages the pdf blocks so far place.
    package var appendedPages = 0
}

extension ImageBlock: PreparedContent {
    /// Reads the image (a file once however often it is used) and checks its header.
    package func prepare(at path: String, into preparation: inout Preparation) throws {
        if case .file(let file) = source, let known = preparation.imageFiles[file] {
            preparation.images[path] = known
            return
        }
        let data = try ImageLoader.load(self, path: path, assets: preparation.assets)
        if case .file(let file) = source { preparation.imageFiles[file] = data }
        preparation.images[path] = data
    }
}

extension SVGBlock: PreparedContent {
    /// Reads the picture and sanitises it for the widest it can be drawn: its width, in the column.
    package func prepare(at path: String, into preparation: inout Preparation) throws {
        let width = width?.points
        switch source {
        case .markup(let markup):
            preparation.pictures[path] = try SanitizedSVG.sanitize(
                Data(markup.utf8), path: "\(path).svg", width: width, columnWidth: preparation.columnWidth)
        case .file(let file):
            let bytes = try preparation.assets.read(file, field: "\(path).path", limit: InputLimits.svgBytes)
            preparation.pictures[path] = try SanitizedSVG.sanitize(
                bytes, path: "\(path).path", width: width, columnWidth: preparation.columnWidth)
        }
    }
}
