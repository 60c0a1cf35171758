import Folio
import FolioFHIR
import Foundation

/// What `folio preview` shows and where: the document or template, its data and theme, and the port
/// on 127.0.0.1 (never another address: the preview reads the author's files and has no token).
public struct PreviewSettings: Sendable {
    /// The document, or the template when there is data.
    public var input: String
    /// A data file (JSON lines, a JSON array or CSV) whose records the template is bound to, or
    /// FHIR data (with `fhir`): an export folder, NDJSON file or Bundle, a record per patient.
    public var data: String?
    /// How FHIR data becomes records; nil for other data.
    public var fhir: FHIRImportOptions?
    /// The record shown first, from 1.
    public var record: Int
    /// A theme file.
    public var theme: String?
    /// The port on 127.0.0.1 (0: any free one).
    public var port: Int
    /// Unknown keys are warnings, not errors.
    public var lenient: Bool
    /// Reads the theme file (as `--theme` does everywhere).
    public var loadTheme: @Sendable () throws -> Theme
    /// The IANA zone the template's dates are shown in where it names none (`--zone`).
    public var zone: String?

    /// Settings for previewing `input` on `port`.
    public init(
        input: String, data: String? = nil, fhir: FHIRImportOptions? = nil, record: Int = 1, theme: String? = nil, port: Int = 8700,
        lenient: Bool = false,
        loadTheme: @escaping @Sendable () throws -> Theme = { .standard }, zone: String? = nil
    ) {
        self.zone = zone
        self.input = input
        self.data = data
        self.fhir = fhir
        self.record = record
        self.theme = theme
        self.port = port
        self.lenient = lenient
        self.loadTheme = loadTheme
    }

    /// The files whose change renders the preview again: the input, the data, the theme.
    var watchedFiles: [String] { [input] + (data.map { [$0] } ?? []) + (theme.map { [$0] } ?? []) }

    /// The folders watched: each file's, and a data folder itself (a FHIR export's NDJSON files).
    var watchedFolders: [String] {
        var folders = watchedFiles.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
        var isFolder: ObjCBool = false
        if let data, FileManager.default.fileExists(atPath: data, isDirectory: &isFolder), isFolder.boolValue { folders.append(data) }
        return folders
    }
}
