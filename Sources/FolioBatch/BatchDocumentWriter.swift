import Crypto
import Folio
import FolioData
import FolioFHIR
import FolioFiles
import FolioSheets
import FolioTemplate
import Foundation

/// Writes one batch record's documents: binds the template, prepares the document once, renders
/// every format, writes each file atomically and hashes it. The same work runs in a thread of the
/// batch (`--in-process`) or in a render worker process.
struct BatchDocumentWriter {
    /// One file written, with what a manifest line and a FHIR DocumentReference say of it.
    struct WrittenFile: Sendable {
        var name: String
        var bytes: Int
        var pages: Int?
        /// Lowercase hex SHA-256 (the manifest's checksum).
        var sha256: String
        /// Base64 SHA-1, as a FHIR Attachment's `hash` must be.
        var sha1: String = ""
        /// The document's title (its PDF's and HTML page's) and BCP 47 language.
        var title: String = ""
        var language: String = ""
        /// Characters no installed font can draw (`path: message` of the layout report's
        /// missingGlyphs), said for the record on standard error: boxes instead of letters.
        var missingGlyphs: [String] = []
    }

    let template: DocumentTemplate
    let renderOptions: RenderOptions
    let formats: [OutputFormat]
    let outputDirectory: URL
    let strictLayout: Bool
    let lenient: Bool
    /// Whether each file's SHA-1 is computed: only a FHIR DocumentReference needs it.
    let attachmentHashes: Bool
    /// Whether each PDF carries its record's FHIR Bundle (`--attach fhir`).
    var attachesFHIR = false

    /// The name of the attached Bundle in each PDF.
    static let bundleName = "fhir-bundle.json"

    /// Writes `record` (number `number`) as `names` (one per format, in `formats` order).
    func write(_ given: TreeValue, number: Int, names: [String]) throws -> [WrittenFile] {
        try RenderDeadline.check(at: "binding record \(number) to the template")
        var record = given
        var bundle: Data?
        if attachesFHIR {
            // The Bundle rides in the record (`fhirBundle`), and is taken out before the template sees it.
            guard case .object(let members) = given, let found = members.first(where: { $0.key == "fhirBundle" }) else {
                throw FolioError(path: "--attach", "the record has no FHIR Bundle to attach: --attach fhir needs --data-format fhir")
            }
            guard case .string(let text) = found.value else {
                throw FolioError(
                    path: "--attach", "the patient's FHIR resources are more than \(Attachment.maximumBytes >> 20) MB: too many to attach")
            }
            bundle = Data(text.utf8)
            record = .object(members.filter { $0.key != "fhirBundle" })
        }
        var bound = try template.documentForRendering(for: record, number: number, lenient: lenient)
        if let bundle {
            bound.attachments.append(
                Attachment(
                    source: .data(bundle), name: BatchDocumentWriter.bundleName, mimeType: "application/fhir+json", relationship: .source,
                    description: "The patient's FHIR resources this document was made from"))
        }
        try RenderDeadline.check(at: "checking record \(number)'s document")
        // Validated, themed and with its images read once for every format written.
        let document = try bound.prepared(options: renderOptions)
        var files: [WrittenFile] = []
        if strictLayout, !formats.contains(.pdf) {
            if let warning = try document.pdfWithReport().report.warnings.first {
                throw FolioError(path: warning.path, "layout: \(warning.message)")
            }
        }
        let title = bound.displayTitle(strings: bound.builtInStrings)
        let language = bound.metadata.language
        for (format, name) in zip(formats, names) {
            let url = outputDirectory.appendingPathComponent(name)
            if format == .pdf, !attachmentHashes {
                // Written as it is made (a long document's file is never held whole), and only if the
                // layout passes --strict: a failed check removes the file before it is renamed into place.
                let (result, digest) = try AtomicFile.write(to: url) { fd in
                    let result = try document.writePDF(to: fd, options: renderOptions)
                    try checkLayout(result.report)
                    // Taken as the file was written (writePDF always takes it).
                    guard let digest = result.sha256 else { throw FolioError(path: "", "the digest of \(name) was not taken") }
                    return (result, digest)
                }
                files.append(
                    WrittenFile(
                        name: name, bytes: result.byteCount, pages: result.pages, sha256: SHA256Digest.hex(digest: digest), sha1: "",
                        title: title, language: language, missingGlyphs: Self.missingGlyphs(in: result.report)))
                continue
            }
            // A file a DocumentReference describes is made in memory: its SHA-1 is taken from its bytes.
            let rendered: (data: Data, pages: Int?, sha256: [UInt8]?)
            var missing: [String] = []
            if format == .pdf {
                let result = try document.pdfWithReport(signer: renderOptions.signer)
                try checkLayout(result.report)
                rendered = (result.data, result.pages, result.sha256)
                missing = Self.missingGlyphs(in: result.report)
            } else {
                let (data, pages) = try document.renderInAnyFormat(as: format, options: renderOptions)
                rendered = (data, pages, nil)
            }
            try RenderDeadline.check(at: "writing \(name)")
            let (data, pages, digest) = rendered
            try AtomicFile.write(data, to: url)
            files.append(
                WrittenFile(
                    name: name, bytes: data.count, pages: pages, sha256: digest.map(SHA256Digest.hex(digest:)) ?? SHA256Digest.hex(data),
                    sha1: attachmentHashes ? Data(Insecure.SHA1.hash(data: data)).base64EncodedString() : "",
                    title: title, language: language, missingGlyphs: missing))
        }
        return files
    }

    /// The report's missing glyphs, each `path: message`.
    static func missingGlyphs(in report: LayoutReport) -> [String] {
        report.warnings.filter { $0.kind == .missingGlyphs }.map { "\($0.path): \($0.message)" }
    }

    /// With --strict, a layout that bent a rule fails the record, naming the block.
    private func checkLayout(_ report: LayoutReport) throws {
        if strictLayout, let warning = report.warnings.first { throw FolioError(path: warning.path, "layout: \(warning.message)") }
    }
}
