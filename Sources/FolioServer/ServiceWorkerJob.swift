import Folio
import FolioData
import FolioTemplate
import FolioWorkers
import Foundation

/// A render worker's side of `folio serve`: set up with the service's theme, assets folder,
/// page shell and templates, it renders one request at a time and answers with the body (or
/// the request's error).
package final class ServiceWorkerJob: RenderWorkerJob {
    package static let name = "service"

    private let rendering: DocumentRendering

    /// The setup message for a service with `settings`.
    static func setup(_ settings: ServerSettings) throws -> WorkerMessage {
        let theme = String(decoding: try JSONEncoder().encode(settings.theme), as: UTF8.self)
        var body = Data()
        var templates: [TreeValue] = []
        for name in settings.templates.names {
            guard let source = settings.templates.sources[name] else { continue }
            templates.append(
                .object([
                    ("name", .string(name)), ("format", .string(source.format == .json ? "json" : "yaml")),
                    ("length", .number(Double(source.data.count))),
                ]))
            body.append(source.data)
        }
        return WorkerMessage(
            .object([
                ("job", .string(name)), ("theme", .string(theme)),
                ("assets", settings.assets.map { .string($0.root.isEmpty ? "/" : $0.root) } ?? .null),
                ("pageTemplate", settings.pageTemplate.map(TreeValue.string) ?? .null),
                ("templates", .array(templates)),
                ("signer", settings.signer.map { PDFSigner.setupValue($0.material) } ?? .null),
            ]), body: body)
    }

    package init(setup: WorkerMessage) throws {
        guard case .string(let themeJSON)? = setup["theme"] else { throw FolioError(path: "", "the service setup has no theme") }
        let theme = try JSONDecoder().decode(Theme.self, from: Data(themeJSON.utf8))
        let assets: AssetAccess
        if case .string(let path)? = setup["assets"] { assets = .confined(try AssetFolder(path: path)) } else { assets = .embeddedOnly }
        var pageTemplate: String?
        if case .string(let text)? = setup["pageTemplate"] { pageTemplate = text }
        var sources: [String: (data: Data, format: DocumentDecoder.Format)] = [:]
        var offset = setup.body.startIndex
        if case .array(let entries)? = setup["templates"] {
            for entry in entries {
                guard case .number(let length)? = entry["length"], let name = entry["name"]?.text else { continue }
                let end = offset + length.clampedInt()
                guard end <= setup.body.endIndex else { throw FolioError(path: "", "the service setup is cut short") }
                sources[name] = (setup.body[offset..<end], entry["format"]?.text == "json" ? .json : .yaml)
                offset = end
            }
        }
        rendering = DocumentRendering(
            theme: theme, assets: assets, pageTemplate: pageTemplate, templates: try TemplateLibrary(sources: sources),
            signer: try setup["signer"].flatMap(PDFSigner.init(setupValue:)))
        try ServiceWorkerJob.selfTest(rendering)
    }

    /// Renders a small document to PDF and HTML, so fonts are loaded and rendering is known to
    /// work before the service says it is ready; throws what the render throws.
    static func selfTest(_ rendering: DocumentRendering) throws {
        let document = Document(
            title: "Folio self-test",
            elements: [
                .paragraph(Paragraph("Ready.")),
                .chart(.bar(BarChart(categories: ["a", "b"], series: [ChartSeries(title: "s", values: [1, 2])]), title: "Check")),
            ])
        for parameters in [try RenderParameters(query: []), try RenderParameters(query: [("format", "html")])] {
            _ = try rendering.render(document, parameters: parameters)
        }
    }

    package func answer(_ request: WorkerMessage) -> WorkerMessage {
        do {
            return try rendering.render(try RenderRequest(message: request)).message
        } catch {
            return RenderWorker.errorAnswer(error)
        }
    }
}
