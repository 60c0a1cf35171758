import FolioConnect
import FolioFHIR
import FolioFiles
import FolioModel
import Foundation
import Hummingbird

/// What `POST /v1/jobs` asks for, read from its query and `Content-Type` and checked before its
/// body is stored: the template (one the client may render) or a document, the formats, the
/// FHIR period and zone, and the webhook (HTTPS, or HTTP to loopback; a literal private address refused).
enum JobSubmission {
    /// The job the request describes, with a new id, not yet stored.
    static func job(
        query: [(name: String, value: String)], contentType: String?, client: ServiceClients.Client, templates: TemplateLibrary,
        webhookPolicy: AddressPolicy
    ) throws -> Job {
        var values: [String: String] = [:]
        for (name, value) in query {
            guard ["template", "format", "html", "period", "zone", "webhook"].contains(name) else {
                throw Problem.invalidRequest(
                    "unknown query parameter \"\(Route.shown(name))\"; expected template, format, html, period, zone or webhook")
            }
            guard values.updateValue(value, forKey: name) == nil else {
                throw Problem.invalidRequest("query parameter \"\(name)\" is given twice")
            }
        }
        let mediaType = RenderService.mediaType(contentType: contentType)
        let template = values["template"]
        let input: Job.Input
        if let template {
            guard TemplateLibrary.isValidName(template), templates[template] != nil, client.may(render: template) else {
                throw Problem.notFound("no template \"\(Route.shown(template))\"")
            }
            switch mediaType {
            case "application/x-ndjson", "application/jsonl", "application/jsonlines": input = .jsonLines
            case "application/json": input = .jsonArray
            case "text/csv": input = .csv
            case "application/fhir+json": input = .fhirBundle
            case "application/fhir+ndjson": input = .fhirNDJSON
            default:
                throw Problem.unsupportedMediaType(
                    "a template's records must be application/x-ndjson (JSON lines), application/json (an array, or one record), text/csv, application/fhir+json (a Bundle) or application/fhir+ndjson"
                )
            }
        } else {
            switch mediaType {
            case "application/json": input = .documentJSON
            case "application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml": input = .documentYAML
            default:
                throw Problem.unsupportedMediaType("without template=, the body is one document as application/json or application/yaml")
            }
        }
        if !input.isFHIR, values["period"] != nil || values["zone"] != nil {
            throw Problem.invalidRequest("period and zone are for FHIR data (application/fhir+json or application/fhir+ndjson)")
        }
        if input.isFHIR {
            do {
                _ = try FHIRImportOptions(period: values["period"], zone: values["zone"], allPatients: true)
            } catch let error as FolioError {
                throw Problem.invalidRequest("\(error.path.dropFirst(2)): \(error.message)")
            }
        }
        let formats = (values["format"] ?? "pdf").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !formats.isEmpty, formats.allSatisfy({ $0 == "pdf" || $0 == "html" }), Set(formats).count == formats.count else {
            throw Problem.invalidRequest("format: expected pdf, html or pdf,html, found \"\(Route.shown(values["format"] ?? ""))\"")
        }
        let html = values["html"] ?? "page"
        guard ["page", "fragment", "shadow"].contains(html) else {
            throw Problem.invalidRequest("html: expected page, fragment or shadow, found \"\(Route.shown(html))\"")
        }
        if let webhook = values["webhook"] {
            try check(webhook: webhook, client: client, policy: webhookPolicy)
        }
        let now = Date().timeIntervalSince1970
        return Job(
            id: JobIdentifier.make(), client: client.name, idempotencyKey: nil, template: template, input: input, formats: formats,
            html: html, period: values["period"], zone: values["zone"], webhook: values["webhook"], traceparent: nil, state: .queued,
            created: now, started: nil, finished: nil, total: 0, written: 0, failed: 0, error: nil, cancelRequested: false)
    }

    /// A webhook target a job may name: HTTPS (or HTTP to loopback), no user or password, not a
    /// literal private, link-local or reserved address (a name is checked once resolved, as each
    /// connection opens), and a client with a secret to sign its events.
    static func check(webhook: String, client: ServiceClients.Client, policy: AddressPolicy) throws {
        do {
            _ = try ServerURL(webhook, field: "webhook")
        } catch let error as FolioError {
            throw Problem.invalidRequest("webhook: \(error.message)")
        }
        let host = URLComponents(string: webhook)?.host ?? ""
        if policy.allows(literal: host) == false {
            throw Problem.invalidRequest(
                "webhook: \(Route.shown(host)) is a private, link-local or reserved address (the operator may allow its network with --webhook-allow)"
            )
        }
        guard client.webhookSecret != nil else {
            throw Problem.invalidRequest(
                "webhook: the client \(client.name) has no webhook secret to sign events with (webhookSecret in --tokens-file, or --webhook-secret-file)"
            )
        }
    }

    /// Whether `text` is a W3C `traceparent` (`00-<32 hex>-<16 hex>-<2 hex>`), the only form carried on.
    static func isValidTraceparent(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let lengths = [2, 32, 16, 2]
        guard parts.count == 4 else { return false }
        for (part, length) in zip(parts, lengths) {
            guard part.utf8.count == length, part.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                return false
            }
        }
        return true
    }

    /// Writes the request's body to `url` whole or not at all (a temporary file flushed to the disk,
    /// renamed, its folder flushed): the job is stored only after its input is on the disk. More than
    /// `limit` bytes is a 413.
    static func receive(_ body: RequestBody, to url: URL, limit: Int) async throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent("\(AtomicFile.temporaryPrefix)input").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw Problem.internalError("cannot store the job: \(String(cString: strerror(errno)))") }
        var isOpen = true
        defer {
            if isOpen { close(fd) }
            unlink(temporary)
        }
        var received = 0
        do {
            for try await chunk in body {
                received += chunk.readableBytes
                guard received <= limit else { throw Problem.jobTooLarge(limit: limit) }
                try AtomicFile.writeAll(Data(chunk.readableBytesView), to: fd)
            }
        } catch let problem as Problem {
            throw problem
        } catch let error as FolioError {
            throw Problem.internalError("cannot store the job: \(error.message)")
        } catch {
            throw Problem.invalidRequest("the request body ended before it was complete")
        }
        guard received > 0 else { throw Problem.invalidRequest("the body is empty: send the job's records or document") }
        guard fsync(fd) == 0 || errno == EINVAL else {
            throw Problem.internalError("cannot store the job: \(String(cString: strerror(errno)))")
        }
        isOpen = false
        close(fd)
        guard rename(temporary, url.path) == 0 else {
            throw Problem.internalError("cannot store the job: \(String(cString: strerror(errno)))")
        }
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// `application/json` records: an array when the body starts with `[`, else JSON lines (one record).
    static func refine(_ input: Job.Input, file: URL, fileNameIn folder: JobFolder) throws -> Job.Input {
        guard input == .jsonArray, let handle = FileHandle(forReadingAtPath: file.path) else { return input }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        let first = head.first { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }
        if first == UInt8(ascii: "[") { return .jsonArray }
        // One record or JSON lines, stored under the name JSON lines are read by.
        let lines = file.deletingLastPathComponent().appendingPathComponent(Job.Input.jsonLines.fileName)
        guard rename(file.path, lines.path) == 0 else {
            throw Problem.internalError("cannot store the job: \(String(cString: strerror(errno)))")
        }
        return .jsonLines
    }
}
