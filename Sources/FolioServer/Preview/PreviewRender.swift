import Folio
import FolioData
import FolioFHIR
import FolioFiles
import FolioTemplate
import Foundation

/// One render of the previewed document: its pages as pictures, its HTML, the layout report's
/// warnings, or the error that stopped it, said at the file's line with the lines around it.
struct PreviewRender: Sendable {
    /// A layout warning, with the page it is on (nil: not one page) and where the file holds its field.
    struct Warning: Sendable, Encodable {
        let kind: String
        let message: String
        let page: Int?
        let place: String?
    }

    /// An error: its one line (`weekly.yaml:12:7: error: …`), and the file's lines around it.
    struct Failure: Sendable, Encodable {
        let message: String
        let line: Int?
        let excerpt: [Excerpt]

        /// A numbered line of the file.
        struct Excerpt: Sendable, Encodable {
            let number: Int
            let text: String
        }
    }

    /// The pages as PNG pictures.
    var pages: [Data] = []
    /// The HTML page and the Content-Security-Policy it works under.
    var html = ""
    var contentSecurityPolicy = ""
    var warnings: [Warning] = []
    var failure: Failure?
    /// The files the document included, by their real paths.
    var includedFiles: [String] = []

    /// The pages' resolution, pixels per inch: legible beside the HTML on a laptop's screen.
    static let dpi = 110.0
    /// The most pages a preview draws (a preview is for the pages an author is working on).
    static let mostPages = 60

    /// Renders `settings`' document (a template bound to the chosen record when there is data).
    static func make(_ settings: PreviewSettings, record: Int) -> PreviewRender {
        var result = PreviewRender()
        var origins = SourceOrigins(input: settings.input)
        /// With data: the template's field that made a field of the bound document.
        var templateField: ((String) -> String?)?
        do {
            let format = DocumentDecoder.Format(fileName: settings.input)
            let document: Document
            if let data = settings.data {
                let template: DocumentTemplate
                do {
                    let read = try DocumentTemplate.read(settings.input, regularOnly: false)
                    (template, origins) = (read.template.withDefaultZone(settings.zone), read.origins)
                } catch let error as FolioError {
                    return failed(error, settings: settings, origins: origins, inFile: true)
                }
                result.includedFiles = origins.includedFiles
                let chosen = try RecordSelection.record(in: data, fhir: settings.fhir, id: nil, number: record, note: { _ in })
                // Errors are shown at the template's line: the binding's name its field; the bound
                // document's are traced back to the field that made them.
                let bound: TreeValue
                do {
                    bound = try template.bind(chosen, number: record)
                } catch let error as FolioError {
                    return failed(error, settings: settings, origins: origins, inFile: true)
                }
                templateField = { template.templatePath(ofBound: $0, record: chosen, number: record) }
                document = try DocumentDecoder.decode(Document.self, from: bound, lenient: settings.lenient)
            } else {
                let source: SourceDocument
                do {
                    source = try SourceDocument.read(settings.input)
                } catch let error as FolioError {
                    return failed(error, settings: settings, origins: origins, inFile: true)
                }
                origins = source.origins
                result.includedFiles = origins.includedFiles
                var warnings: [FolioError] = []
                document = try DocumentDecoder.decode(
                    Document.self, from: source.tree, quotingHint: format == .yaml, lenient: settings.lenient,
                    warning: { warnings.append($0) })
                result.warnings += warnings.map {
                    Warning(kind: "unknownKey", message: "\($0)", page: nil, place: place(of: $0, origins: origins, settings: settings))
                }
            }
            var options = RenderOptions(
                baseDirectory: URL(fileURLWithPath: settings.input).deletingLastPathComponent(),
                theme: try settings.loadTheme(), html: .page)
            options.idPrefix = "preview"
            let prepared = try document.prepared(options: options)
            var pages: [Data] = []
            let report = try prepared.pagePictures(dpi: dpi) { page in
                if pages.count < mostPages { pages.append(page.png) }
            }
            result.pages = pages
            result.warnings += report.warnings.map { warning in
                Warning(
                    kind: warning.kind.rawValue, message: "\(warning.path): \(warning.message)", page: warning.page,
                    place: settings.data == nil ? place(of: FolioError(path: warning.path, ""), origins: origins, settings: settings) : nil)
            }
            let rendered = try prepared.renderedHTML(options: options)
            result.html = rendered.html
            result.contentSecurityPolicy = rendered.contentSecurityPolicy
        } catch let error as FolioError {
            let field = error.path.isEmpty ? nil : templateField?(error.path)
            var failure = failed(error, settings: settings, origins: origins, inFile: settings.data == nil || field != nil, field: field)
            failure.includedFiles = result.includedFiles
            return failure
        } catch {
            result.failure = Failure(message: "\(error)", line: nil, excerpt: [])
        }
        return result
    }

    /// The render that stopped with `error`: said at the file's line when a file holds its field
    /// (or its syntax error), with the lines around it.
    private static func failed(
        _ error: FolioError, settings: PreviewSettings, origins: SourceOrigins, inFile: Bool, field: String? = nil
    ) -> PreviewRender {
        var result = PreviewRender()
        // `field`: the template's field behind an error about the bound document's.
        let located = field.map { FolioError(path: $0, error.message) } ?? error
        let place = inFile || error.file != nil ? origins.place(of: located, inputText: { inputText(settings) }) : nil
        let message = place.map { "\($0.file):\($0.position): error: \(error)" } ?? "error: \(error)"
        var excerpt: [Failure.Excerpt] = []
        if let place, let text = place.file == settings.input ? inputText(settings) : fileText(place.file) {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let range = max(1, place.position.line - 2)...max(1, min(lines.count, place.position.line + 2))
            excerpt = range.filter { $0 <= lines.count }.map { Failure.Excerpt(number: $0, text: String(lines[$0 - 1].prefix(200))) }
        }
        result.failure = Failure(message: message.escapingInvisibleControls, line: place?.position.line, excerpt: excerpt)
        return result
    }

    /// The input's text.
    private static func inputText(_ settings: PreviewSettings) -> String? { fileText(settings.input) }

    private static func fileText(_ path: String) -> String? {
        (try? BoundedFile.read(path, limit: InputLimits.documentBytes, field: "", what: "input")).flatMap {
            String(data: $0, encoding: .utf8)
        }
    }

    /// `file:line:column` of the field `error` names, when a file holds it.
    private static func place(of error: FolioError, origins: SourceOrigins, settings: PreviewSettings) -> String? {
        guard let place = origins.place(of: error, inputText: { inputText(settings) }) else { return nil }
        return "\(place.file):\(place.position)"
    }
}
