import Folio
import FolioData
import FolioSheets
import FolioTemplate
import FolioWorkers
import Foundation

/// A render worker's side of `folio batch`: set up with the template and the batch's options,
/// it writes each record's documents and answers with the files it wrote, or the record's error.
package final class BatchWorkerJob: RenderWorkerJob {
    package static let name = "batch"

    private let writer: BatchDocumentWriter

    /// The setup message for `options` and the template's tree as JSON.
    static func setup(options: BatchOptions, templateData: Data, renderOptions: RenderOptions) throws -> WorkerMessage {
        let theme = String(decoding: try JSONEncoder().encode(renderOptions.theme), as: UTF8.self)
        return WorkerMessage(
            .object([
                ("job", .string(name)),
                ("templateFormat", .string("json")),
                ("baseDirectory", .string(options.template.deletingLastPathComponent().path)),
                ("outputDirectory", .string(options.outputDirectory.path)),
                ("formats", .array(options.formats.map { .string($0.rawValue) })),
                ("html", .string(options.html.rawValue)),
                ("strictLayout", .bool(options.strictLayout)),
                ("attachmentHashes", .bool(options.documentReferences != nil)),
                ("lenient", .bool(options.lenient)),
                ("attachesFHIR", .bool(options.attachesFHIR)),
                ("theme", .string(theme)),
                ("signer", renderOptions.signer.map { PDFSigner.setupValue($0.material) } ?? .null),
            ]), body: templateData)
    }

    /// The request to write record `number` as the files `names`, within `seconds`: the record's
    /// JSON text as read (`json`) in the body, else the record in the header.
    static func request(record: TreeValue, json: [UInt8]?, number: Int, names: [String], seconds: Double) -> WorkerMessage {
        var header: [(key: String, value: TreeValue)] = [
            ("number", .number(Double(number))), ("names", .array(names.map(TreeValue.string))), ("seconds", .number(seconds)),
        ]
        guard let json else {
            header.append(("record", record))
            return WorkerMessage(.object(header))
        }
        return WorkerMessage(.object(header), body: Data(json))
    }

    /// The record a request carries: in its header, or as JSON text in its body.
    static func record(in request: WorkerMessage) throws -> TreeValue? {
        if let record = request["record"] { return record }
        return request.body.isEmpty ? nil : try JSONTreeParser.parse([UInt8](request.body))
    }

    /// The files an answer lists, or the record's error.
    static func files(in answer: WorkerMessage) throws -> [BatchDocumentWriter.WrittenFile] {
        if let error = RenderWorker.error(in: answer) { throw error }
        guard case .array(let entries)? = answer["files"] else { throw FolioError(path: "", "the render worker's answer lists no files") }
        return entries.map { entry in
            let pages: Int?
            if case .number(let count)? = entry["pages"] { pages = count.clampedInt() } else { pages = nil }
            let bytes: Int
            if case .number(let count)? = entry["bytes"] { bytes = count.clampedInt() } else { bytes = 0 }
            return BatchDocumentWriter.WrittenFile(
                name: entry["name"]?.text ?? "", bytes: bytes, pages: pages, sha256: entry["sha256"]?.text ?? "",
                sha1: entry["sha1"]?.text ?? "", title: entry["title"]?.text ?? "", language: entry["language"]?.text ?? "",
                missingGlyphs: {
                    guard case .array(let items)? = entry["missingGlyphs"] else { return [] }
                    return items.map(\.text)
                }())
        }
    }

    package init(setup: WorkerMessage) throws {
        func string(_ key: String) throws -> String {
            guard case .string(let value)? = setup[key] else { throw FolioError(path: "", "the batch setup has no \(key)") }
            return value
        }
        let theme = try JSONDecoder().decode(Theme.self, from: Data(try string("theme").utf8))
        let html = HTMLRenderer.Output(rawValue: try string("html")) ?? .page
        guard case .array(let formatNames)? = setup["formats"] else { throw FolioError(path: "", "the batch setup has no formats") }
        let template = try DocumentTemplate(data: setup.body, format: try string("templateFormat") == "json" ? .json : .yaml)
        var renderOptions = RenderOptions(baseDirectory: URL(fileURLWithPath: try string("baseDirectory")), theme: theme, html: html)
        renderOptions.signer = try setup["signer"].flatMap(PDFSigner.init(setupValue:))
        writer = BatchDocumentWriter(
            template: template,
            renderOptions: renderOptions,
            formats: formatNames.compactMap { OutputFormat(rawValue: $0.text) },
            outputDirectory: URL(fileURLWithPath: try string("outputDirectory")),
            strictLayout: setup["strictLayout"] == .bool(true), lenient: setup["lenient"] == .bool(true),
            attachmentHashes: setup["attachmentHashes"] == .bool(true), attachesFHIR: setup["attachesFHIR"] == .bool(true))
        try BatchWorkerJob.warmUp(theme: theme, signer: renderOptions.signer)
    }

    /// Draws a small document in every format, so fonts are loaded before the first record.
    static func warmUp(theme: Theme, signer: PDFSigner?) throws {
        let document = Document(
            title: "Folio",
            elements: [
                .paragraph(Paragraph("Ready.")), .table(Table(header: ["A"], rows: [["1"]])),
                .chart(.bar(BarChart(categories: ["a", "b"], series: [ChartSeries(title: "s", values: [1, 2])]), title: "Check")),
            ])
        let prepared = try document.prepared(options: RenderOptions(theme: theme))
        _ = try prepared.pdfWithReport(signer: signer)
        _ = try prepared.renderedHTML(options: RenderOptions(theme: theme))
    }

    package func answer(_ request: WorkerMessage) -> WorkerMessage {
        do {
            guard case .number(let number)? = request["number"], let record = try BatchWorkerJob.record(in: request),
                case .array(let names)? = request["names"]
            else { throw FolioError(path: "", "the render worker got a malformed request") }
            let files = try writer.write(record, number: number.clampedInt(), names: names.map(\.text))
            return WorkerMessage(
                .object([
                    (
                        "files",
                        .array(
                            files.map { file in
                                .object([
                                    ("name", .string(file.name)), ("bytes", .number(Double(file.bytes))),
                                    ("pages", file.pages.map { .number(Double($0)) } ?? .null), ("sha256", .string(file.sha256)),
                                    ("sha1", .string(file.sha1)), ("title", .string(file.title)), ("language", .string(file.language)),
                                    ("missingGlyphs", .array(file.missingGlyphs.map(TreeValue.string))),
                                ])
                            })
                    )
                ]))
        } catch {
            return RenderWorker.errorAnswer(error)
        }
    }
}
