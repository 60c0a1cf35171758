import Foundation

/// Paths and scratch files for the FHIR reader's tests.
enum FHIRTestSupport {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The FHIR fixtures shared with the rendering tests.
    static let fixtures = root.appendingPathComponent("Tests/FolioTests/Fixtures")

    /// One scratch folder per test run, removed when the process exits.
    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("folio-fhir-tests-\(getpid())")
        atexit { try? FileManager.default.removeItem(at: FHIRTestSupport.scratch) }
        return url
    }()

    /// A new empty folder under the run's scratch folder.
    static func temporaryDirectory() throws -> URL {
        let url = scratch.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `data` to a temporary file named `name` and returns its URL.
    static func temporaryFile(_ data: Data, name: String) throws -> URL {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try data.write(to: url)
        return url
    }
}
