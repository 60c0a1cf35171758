/// The service's OpenAPI 3.1 description, `Sources/FolioServer/openapi.yaml`, built into the binary
/// and served at `/v1/openapi.yaml`.
enum OpenAPIDocument {
    /// The document's bytes.
    static var yaml: [UInt8] { PackageResources.openapi_yaml }
}
