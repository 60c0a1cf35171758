import Foundation

/// Writes one batch record's documents: binds the template, prepares the document once, renders
/// every format, writes each file atomically and hashes it. The same work runs in a thread of the
/// batch (`--in-process`) or in a render worker process.
struct BatchDocumentWriter {
    /// One file written.
    struct WrittenFile: Sendable {
        var name: String
        var bytes: Int
        var pages: Int?
        var sha256: String
    }

    let template: DocumentTemplate
    let renderOptions: RenderOptions
    let formats: [OutputFormat]
    let outputDirectory: URL
    let strictLayout: Bool
    let lenient: Bool

    /// Writes `record` (number `number`) as `names` (one per format, in `formats` order).
    func write(_ record: TreeValue, number: Int, names: [String]) throws -> [WrittenFile] {
        try RenderDeadline.check(at: "binding record \(number) to the template")
        let bound = try template.documentForRendering(for: record, number: number, lenient: lenient)
        try RenderDeadline.check(at: "checking record \(number)'s document")
        // Validated, themed and with its images read once for every format written.
        let document = try bound.prepared(options: renderOptions)
        var files: [WrittenFile] = []
        if strictLayout, !formats.contains(.pdf) {
            if let warning = try document.pdfWithReport().report.warnings.first {
                throw FolioError(path: warning.path, "layout: \(warning.message)")
            }
        }
        for (format, name) in zip(formats, names) {
            let rendered: (data: Data, pages: Int?)
            if format == .pdf {
                let result = try document.pdfWithReport()
                if strictLayout, let warning = result.report.warnings.first {
                    throw FolioError(path: warning.path, "layout: \(warning.message)")
                }
                rendered = (result.data, result.pages)
            } else {
                rendered = try document.renderCountingPages(as: format, options: renderOptions)
            }
            try RenderDeadline.check(at: "writing \(name)")
            let (data, pages) = rendered
            try AtomicFile.write(data, to: outputDirectory.appendingPathComponent(name))
            files.append(WrittenFile(name: name, bytes: data.count, pages: pages, sha256: SHA256Digest.hex(data)))
        }
        return files
    }
}
