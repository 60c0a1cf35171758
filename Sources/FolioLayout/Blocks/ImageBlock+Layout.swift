import FolioGraphics
import FolioModel

extension ImageBlock: LaidOutBlock {
    /// The prepared image at its width (its own at 96 dpi, at most the column's), with its caption;
    /// a picture the backend cannot decode is an error naming its field.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        let data = try builder.prepared.image(at: path)
        let field: String
        if case .file = source { field = "\(path).path" } else { field = "\(path).data" }
        switch builder.pictures.decoding(data) {
        case .decoded: break
        case .corrupt: throw FolioError(path: field, "the image data is corrupt and cannot be decoded")
        case .outOfMemory:
            throw FolioError(
                path: field,
                "the image's \(data.pixelWidth)×\(data.pixelHeight) pixels need more memory than this process may use (a render worker's --memory-limit)"
            )
        }
        let alternative = builder.textAlternative(alt, of: "image", path: path)
        let natural = Double(data.pixelWidth) * 0.75
        let shownWidth = min(width?.points ?? natural, builder.width)
        let size = Size(shownWidth, shownWidth * Double(data.pixelHeight) / Double(data.pixelWidth))
        return [
            FigureFlowable(
                content: .image(data, size), title: nil, caption: builder.caption(caption), frameWidth: builder.width,
                textColor: builder.theme.text, captionColor: builder.theme.muted, alternative: alternative)
        ]
    }
}
