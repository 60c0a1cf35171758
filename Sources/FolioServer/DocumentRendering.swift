import Folio
import FolioData
import FolioFHIR
import FolioSheets
import FolioTemplate
import Foundation

/// What one request asked to render, and how.
package struct RenderParameters: Sendable {
    /// PDF or HTML.
    var format = OutputFormat.pdf
    /// HTML only: page, fragment or shadow.
    var html = HTMLRenderer.Output.page
    /// Answer with the layout report (JSON) instead of the document.
    var report = false
    /// A FHIR Bundle body: the report period (`START/END`), which it needs.
    var period: String?
    /// A FHIR Bundle body: the IANA zone whose local days are counted (UTC when nil).
    var zone: String?

    /// The parameters in `query` (`format`, `html`, `report`, and for a FHIR body `period` and `zone`);
    /// unknown or repeated names are errors.
    package init(query: [(name: String, value: String)]) throws {
        var seen = Set<String>()
        for (name, value) in query {
            guard seen.insert(name).inserted else { throw Problem.invalidRequest("query parameter \"\(name)\" is given twice") }
            switch name {
            case "format":
                guard let format = OutputFormat(rawValue: value) else {
                    throw Problem.invalidRequest("format: expected pdf, html, xlsx or csv, found \"\(value)\"")
                }
                self.format = format
            case "html":
                guard let html = HTMLRenderer.Output(rawValue: value) else {
                    throw Problem.invalidRequest("html: expected page, fragment or shadow, found \"\(value)\"")
                }
                self.html = html
            case "report":
                guard value == "true" || value == "false" else {
                    throw Problem.invalidRequest("report: expected true or false, found \"\(value)\"")
                }
                report = value == "true"
            case "period":
                period = value
            case "zone":
                zone = value
            default:
                throw Problem.invalidRequest(
                    "unknown query parameter \"\(Route.shown(name))\"; expected format, html or report (and period, zone with a FHIR Bundle)"
                )
            }
        }
        if seen.contains("html"), format != .html {
            throw Problem.invalidRequest("html: needs format=html")
        }
    }

    /// The metrics label of the output: pdf, html or report.
    var label: String { report ? "report" : format.rawValue }
}

/// A rendered response body and the headers that describe it.
package struct RenderedBody: Sendable {
    /// The bytes.
    var bytes: Data
    /// `application/pdf`, `text/html; charset=utf-8` or `application/json`.
    var contentType: String
    /// HTML: the policy the output works under (its stylesheet allowed by hash).
    var contentSecurityPolicy: String?
    /// PDF: pages.
    var pages: Int?
}

/// Renders documents the way the service is configured: its theme, its assets folder (or none),
/// its page shell, its templates. Runs in a render worker process (or on a pool thread, in process).
package struct DocumentRendering: Sendable {
    let theme: Theme
    let assets: AssetAccess
    let pageTemplate: String?
    package let templates: TemplateLibrary
    /// Signs every PDF when set.
    let signer: PDFSigner?

    /// Rendering in `theme` with images from `assets`, HTML in `pageTemplate` (nil for the built-in
    /// shell), the service's templates, and PDFs signed by `signer` when there is one.
    package init(theme: Theme, assets: AssetAccess, pageTemplate: String?, templates: TemplateLibrary, signer: PDFSigner?) {
        self.theme = theme
        self.assets = assets
        self.pageTemplate = pageTemplate
        self.templates = templates
        self.signer = signer
    }

    /// What `request` asks for.
    package func render(_ request: RenderRequest) throws -> RenderedBody {
        try RenderDeadline.check(at: "reading the request's document")
        switch request.input {
        case .document(let data, let format):
            return try render(data, format: format, parameters: request.parameters)
        case .fhirTemplate(let name, let bundle, let fhir):
            guard let template = templates[name] else { throw FolioError(path: "", "no template \"\(name)\"") }
            try RenderDeadline.check(at: "reading the FHIR Bundle")
            let export = try FHIRExport(bundle: bundle, options: fhir)
            var records: [TreeValue] = []
            try export.forEachRecord { record in
                records.append(record)
                if records.count > 1 {
                    throw FolioError(path: "", "the Bundle holds more than one patient's data; send one patient's Bundle per request")
                }
            }
            guard let record = records.first else { throw FolioError(path: "", "the Bundle holds no Patient and no patient's data") }
            return try render(template: template, record: record, parameters: request.parameters)
        case .template(let name, let body):
            guard let template = templates[name] else { throw FolioError(path: "", "no template \"\(name)\"") }
            let record: TreeValue
            do {
                record = try JSONTreeParser.parse(body)
            } catch let error as FolioError {
                throw FolioError(path: error.path, "the record is not valid JSON: \(error.message)")
            }
            guard case .object = record else { throw FolioError(path: "", "the record must be a JSON object") }
            return try render(template: template, record: record, parameters: request.parameters)
        }
    }

    /// The document `data` (JSON or YAML) rendered as `parameters` ask.
    func render(_ data: Data, format: DocumentDecoder.Format, parameters: RenderParameters) throws -> RenderedBody {
        try render(try DocumentDecoder.decodeForRendering(data, format: format), parameters: parameters)
    }

    /// `template` bound to `record`, rendered as `parameters` ask.
    func render(template: DocumentTemplate, record: TreeValue, parameters: RenderParameters) throws -> RenderedBody {
        try render(try template.documentForRendering(for: record), parameters: parameters)
    }

    /// `document` validated once and rendered as `parameters` ask: the same bytes `folio render` writes.
    func render(_ decoded: Document, parameters: RenderParameters) throws -> RenderedBody {
        var options = RenderOptions(theme: theme, html: parameters.html, pageTemplate: pageTemplate)
        options.assets = assets
        options.signer = signer
        try RenderDeadline.check(at: "checking the document")
        let document = try decoded.prepared(options: options)
        if parameters.report {
            let report = try document.pdfWithReport().report
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return RenderedBody(bytes: try encoder.encode(report), contentType: "application/json", pages: report.pages)
        }
        switch parameters.format {
        case .pdf:
            let result = try document.pdfWithReport(signer: signer)
            let (bytes, pages) = (result.data, result.pages)
            return RenderedBody(bytes: bytes, contentType: "application/pdf", pages: pages)
        case .html:
            let rendered = try document.renderedHTML(options: options)
            return RenderedBody(
                bytes: Data(rendered.html.utf8), contentType: "text/html; charset=utf-8",
                contentSecurityPolicy: rendered.contentSecurityPolicy)
        case .xlsx, .csv:
            // The tables, typed: a workbook of a sheet each, or the one table's CSV.
            let bytes = try document.renderInAnyFormat(as: parameters.format, options: options).data
            let type = parameters.format == .csv ? "text/csv; charset=utf-8; header=present" : parameters.format.mediaType
            return RenderedBody(bytes: bytes, contentType: type, pages: nil)
        }
    }
}
