import Folio
import FolioData
import FolioFHIR
import FolioSheets
import FolioTemplate
import FolioWorkers
import Foundation

/// What one request asks the service to render: a document, or a template with one record,
/// and how (`RenderParameters`). It travels to a render worker process as a `WorkerMessage`.
package struct RenderRequest: Sendable {
    /// The input.
    package enum Input: Sendable {
        /// A document, JSON or YAML.
        case document(Data, DocumentDecoder.Format)
        /// The template called `name`, bound to one record (a JSON object).
        case template(name: String, record: Data)
        /// The template called `name`, bound to the record of the one patient in a FHIR R4 Bundle.
        case fhirTemplate(name: String, bundle: Data, options: FHIRImportOptions)
    }

    var input: Input
    var parameters: RenderParameters

    /// The request as a worker message, to be rendered within `seconds`.
    func message(seconds: Double) -> WorkerMessage {
        var header: [(key: String, value: TreeValue)] = [
            ("format", .string(parameters.format.rawValue)), ("html", .string(parameters.html.rawValue)),
            ("report", .bool(parameters.report)), ("seconds", .number(seconds)),
        ]
        let body: Data
        switch input {
        case .document(let data, let format):
            header.append(("input", .string(format == .json ? "json" : "yaml")))
            body = data
        case .template(let name, let record):
            header.append(("input", .string("template")))
            header.append(("template", .string(name)))
            body = record
        case .fhirTemplate(let name, let bundle, let options):
            header.append(("input", .string("template-fhir")))
            header.append(("template", .string(name)))
            if let period = options.periodText { header.append(("period", .string(period))) }
            if options.zoneIsChosen { header.append(("zone", .string(options.zoneIdentifier))) }
            body = bundle
        }
        return WorkerMessage(.object(header), body: body)
    }

    /// The request a worker message carries.
    init(message: WorkerMessage) throws {
        var parameters = try RenderParameters(query: [])
        parameters.format = OutputFormat(rawValue: message["format"]?.text ?? "") ?? .pdf
        parameters.html = HTMLRenderer.Output(rawValue: message["html"]?.text ?? "") ?? .page
        parameters.report = message["report"] == .bool(true)
        self.parameters = parameters
        switch message["input"]?.text {
        case "json": input = .document(message.body, .json)
        case "yaml": input = .document(message.body, .yaml)
        case "template": input = .template(name: message["template"]?.text ?? "", record: message.body)
        case "template-fhir":
            let options = try FHIRImportOptions(
                period: message["period"]?.text, zone: message["zone"]?.text, allPatients: true)
            input = .fhirTemplate(name: message["template"]?.text ?? "", bundle: message.body, options: options)
        default: throw FolioError(path: "", "the render worker got a malformed request")
        }
    }

    package init(input: Input, parameters: RenderParameters) {
        self.input = input
        self.parameters = parameters
    }
}

extension RenderedBody {
    /// The answer a worker sends for this output.
    var message: WorkerMessage {
        WorkerMessage(
            .object([
                ("contentType", .string(contentType)),
                ("contentSecurityPolicy", contentSecurityPolicy.map(TreeValue.string) ?? .null),
                ("pages", pages.map { .number(Double($0)) } ?? .null),
            ]), body: bytes)
    }

    /// The output a worker's answer carries; throws the error it carries instead.
    init(answer: WorkerMessage) throws {
        if let error = RenderWorker.error(in: answer) { throw error }
        bytes = answer.body
        contentType = answer["contentType"]?.text ?? "application/octet-stream"
        if case .string(let policy)? = answer["contentSecurityPolicy"] {
            contentSecurityPolicy = policy
        } else {
            contentSecurityPolicy = nil
        }
        if case .number(let count)? = answer["pages"] { pages = count.clampedInt() } else { pages = nil }
    }
}
