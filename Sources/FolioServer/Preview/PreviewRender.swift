import Folio
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

    /// The pages' resolution, pixels per inch: legible beside the HTML on a laptop's screen.
    static let dpi = 110.0
    /// The most pages a preview draws (a preview is for the pages an author is working on).
    static let mostPages = 60

    /// Renders `settings`' document (a template bound to the chosen record when there is data).
    static func make(_ settings: PreviewSettings, record: Int) -> PreviewRender {
        var result = PreviewRender()
        do {
            let input = try BoundedFile.read(settings.input, limit: InputLimits.documentBytes, field: "", what: "input")
            let format = DocumentDecoder.Format(fileName: settings.input)
            let document: Document
            if let data = settings.data {
                let template: DocumentTemplate
                do {
                    template = try DocumentTemplate(data: input, format: format)
                } catch let error as FolioError {
                    return failed(error, settings: settings, inFile: true)
                }
                let chosen = try RecordSelection.record(in: data, fhir: nil, id: nil, number: record, note: { _ in })
                document = try template.documentForRendering(for: chosen, number: record, lenient: settings.lenient)
            } else {
                var warnings: [FolioError] = []
                document = try DocumentDecoder.decodeForRendering(
                    reading: { input }, format: format, lenient: settings.lenient, warning: { warnings.append($0) })
                result.warnings += warnings.map {
                    Warning(kind: "unknownKey", message: "\($0)", page: nil, place: place(of: $0.path, settings: settings))
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
                    place: settings.data == nil ? place(of: warning.path, settings: settings) : nil)
            }
            let rendered = try prepared.renderedHTML(options: options)
            result.html = rendered.html
            result.contentSecurityPolicy = rendered.contentSecurityPolicy
        } catch let error as FolioError {
            return failed(error, settings: settings, inFile: settings.data == nil)
        } catch {
            result.failure = Failure(message: "\(error)", line: nil, excerpt: [])
        }
        return result
    }

    /// The render that stopped with `error`: said at the file's line when the file holds its field.
    private static func failed(_ error: FolioError, settings: PreviewSettings, inFile: Bool) -> PreviewRender {
        var result = PreviewRender()
        let text = (try? BoundedFile.read(settings.input, limit: InputLimits.documentBytes, field: "", what: "input"))
            .flatMap { String(data: $0, encoding: .utf8) }
        let position = inFile && !error.path.isEmpty ? text.flatMap { SourceLocator.locate(error.path, in: $0) } : nil
        let message = position.map { "\(settings.input):\($0): error: \(error)" } ?? "error: \(error)"
        var excerpt: [Failure.Excerpt] = []
        if let position, let text {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let range = max(1, position.line - 2)...min(lines.count, position.line + 2)
            excerpt = range.map { Failure.Excerpt(number: $0, text: String(lines[$0 - 1].prefix(200))) }
        }
        result.failure = Failure(message: message.escapingInvisibleControls, line: position?.line, excerpt: excerpt)
        return result
    }

    /// `file:line:column` of the field at `path`, when the file holds it.
    private static func place(of path: String, settings: PreviewSettings) -> String? {
        guard !path.isEmpty,
            let text = (try? BoundedFile.read(settings.input, limit: InputLimits.documentBytes, field: "", what: "input"))
                .flatMap({ String(data: $0, encoding: .utf8) }),
            let position = SourceLocator.locate(path, in: text)
        else { return nil }
        return "\(settings.input):\(position)"
    }
}
