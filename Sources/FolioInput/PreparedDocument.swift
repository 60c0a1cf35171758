import FolioGraphics
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
    /// The document's date in this render (`DocumentDate`): its PDF metadata and `{date}`.
    package let date: Date
    /// Every image block's image, by the block's path (`elements[3]`, `elements[2].items[1]`).
    private let images: [String: ImageData]
    /// Every svg block's sanitised picture, by the block's path.
    private let pictures: [String: SanitizedSVG]
    /// Every pdf block's chosen pages, by the block's path.
    private let appendedPDFs: [String: ImportedPDF]
    /// The files the PDF carries (`attachments`), read, in order.
    package let attachedFiles: [AttachedFile]

    /// Validates `document`, builds its theme over `base` and reads its images as `assets` allows.
    /// Errors name the field (`elements[3].path: …`, `theme.logo: …`).
    package init(_ document: Document, base: Theme, assets: AssetAccess) throws {
        try document.validate()
        date = try DocumentDate.resolve(document.metadata)
        let theme = try base.applying(document.theme, assets: assets, field: "theme")
        var preparation = Preparation(
            assets: assets,
            columnWidth: document.page.pageSize.width - document.page.margins.left.points - document.page.margins.right.points)
        preparation.requiresEmbeddedFonts = document.metadata.tagged || document.metadata.conformance != .accessible
        func load(_ block: Block, path: String) throws {
            guard let content = block.content else { return }
            if let prepared = block.prepared {
                try RenderDeadline.check(at: "reading \(path)")
                try prepared.prepare(at: path, into: &preparation)
            }
            for (nested, field) in content.nestedBlocks { try load(nested, path: "\(path).\(field)") }
        }
        for (index, block) in document.elements.enumerated() { try load(block, path: "elements[\(index)]") }
        self.document = document
        self.theme = theme
        images = preparation.images
        pictures = preparation.pictures
        appendedPDFs = preparation.appendedPDFs
        attachedFiles = try document.attachments.enumerated().map { index, attachment in
            let field = "attachments[\(index)]"
            switch attachment.source {
            case .data(let bytes): return AttachedFile(attachment: attachment, bytes: bytes)
            case .file(let file):
                let bytes = try assets.read(file, field: "\(field).path", limit: Attachment.maximumBytes)
                return AttachedFile(attachment: attachment, bytes: bytes)
            case .record:
                throw FolioError(
                    path: "\(field).from",
                    "\"from: record\" attaches the data record of a template rendered with data (folio render --data, folio batch)")
            }
        }
    }

    /// The chosen pages of the pdf block at `path`, read and checked when the document was prepared.
    package func appendedPDF(at path: String) throws -> ImportedPDF {
        guard let pdf = appendedPDFs[path] else { throw FolioError(path: path, "the PDF was not read before rendering") }
        return pdf
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

/// A file the PDF carries, with its bytes.
package struct AttachedFile: Sendable {
    /// What is attached, and how.
    package let attachment: Attachment
    /// The file's bytes.
    package let bytes: Data
}
