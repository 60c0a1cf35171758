import Folio

/// The service's OpenAPI 3.1 description, `Sources/FolioServer/openapi.yaml`, built into the binary
/// and served at `/v1/openapi.yaml`, with the block types filled in from `Block.typeNames`: the one
/// list of kinds, so the schema never falls behind the model.
enum OpenAPIDocument {
    /// The line the block types replace.
    static let blockTypesMarker =
        "          # enum: the block types, filled in from Block.typeNames (FolioModel) when the service serves this document"

    /// The document's bytes, as served.
    static let yaml: [UInt8] = {
        let source = String(decoding: PackageResources.openapi_yaml, as: UTF8.self)
        let types = "          enum: [" + Block.typeNames.joined(separator: ", ") + "]"
        return Array(source.replacingOccurrences(of: blockTypesMarker, with: types).utf8)
    }()
}
