import Folio
import FolioFHIR
import FolioTemplate
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The render service's routes and the state they share: the worker pool, metrics, templates
/// and whether the service is ready. `FolioServer` runs it.
package final class RenderService: Sendable {
    let settings: ServerSettings
    let pool: RenderPool<RequestRenderer>
    /// The render workers of durable jobs (as many as `pool`'s, at a lower CPU priority); nil without `--job-dir`.
    let jobPool: RenderPool<RequestRenderer>?
    let metrics: ServerMetrics
    let logger: Logger
    private let rendering: DocumentRendering
    private let readiness = Locked(false)
    /// Durable jobs; nil without `--job-dir`.
    let jobs: JobService?
    /// Who may call.
    let callers: ServiceClients

    init(settings: ServerSettings, logger: Logger) throws {
        self.settings = settings
        callers = settings.callers
        self.logger = logger
        metrics = ServerMetrics()
        let metrics = self.metrics
        let pool = RenderPool<RequestRenderer>(workers: settings.workers, queueLimit: settings.queue) { waiting, running in
            metrics.pool(waiting: waiting, running: running)
        }
        self.pool = pool
        rendering = DocumentRendering(
            theme: settings.theme, assets: settings.assets.map { .confined($0) } ?? .embeddedOnly,
            pageTemplate: settings.pageTemplate, templates: settings.templates, signer: settings.signer)
        if let jobSettings = settings.jobs {
            // Jobs render in workers of their own: a request never waits for a job's render to end, and
            // takes the CPU from one at once.
            let jobPool = RenderPool<RequestRenderer>(workers: settings.workers, queueLimit: 0)
            self.jobPool = jobPool
            jobs = try JobService(settings: settings, jobs: jobSettings, pool: jobPool, metrics: metrics, logger: logger)
        } else {
            jobPool = nil
            jobs = nil
        }
    }

    /// The renderer of one pool thread: its worker process started, fonts loaded and a small
    /// document rendered to PDF and HTML (or, in process, that self-test run on the thread),
    /// before the service says it is ready; throws what starting or the self-test throws.
    func makeRenderer(forJobs: Bool = false) throws -> RequestRenderer {
        try RequestRenderer(settings: settings, rendering: rendering, logger: logger, forJobs: forJobs)
    }

    /// Marks the service ready (after the self-test) or not (shutting down).
    func setReady(_ ready: Bool) { readiness.set(ready) }

    /// Whether the service is ready (self-tested, not shutting down).
    var isReady: Bool { readiness.value }

    /// The routes, behind `RequestPolicy`.
    func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestPolicy(settings: settings, metrics: metrics, logger: logger))
        router.post("/v1/render") { [self] request, _ in try await renderDocument(request) }
        router.post("/v1/templates/:name/render") { [self] (request: Request, context: BasicRequestContext) in
            try await renderTemplate(request, name: context.parameters.get("name") ?? "")
        }
        router.get("/v1/templates") { [self] _, _ in
            json(["templates": settings.templates.names])
        }
        router.get("/v1/openapi.yaml") { _, _ in
            RenderService.response(Data(OpenAPIDocument.yaml), contentType: "application/yaml")
        }
        addJobRoutes(to: router)
        router.get("/healthz") { [self] _, _ in json(["status": "ok"]) }
        router.get("/readyz") { [self] _, _ in
            guard readiness.value else {
                throw Problem.unavailable("the service is starting or shutting down", retryAfter: 1)
            }
            return json(["status": "ready"])
        }
        router.get("/metrics") { [self] _, _ in
            RenderService.response(Data(metrics.exposition()), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        return router
    }

    // MARK: Rendering

    private func renderDocument(_ request: Request) async throws -> Response {
        let parameters = try RenderParameters(query: RenderService.query(request))
        guard parameters.period == nil, parameters.zone == nil else {
            throw Problem.invalidRequest("period and zone are for a FHIR Bundle sent to /v1/templates/{name}/render")
        }
        let format = try RenderService.documentFormat(mediaType: RenderService.mediaType(request))
        let (slot, body) = try await admitAndRead(request)
        return try await render(RenderRequest(input: .document(body, format), parameters: parameters), in: slot)
    }

    private func renderTemplate(_ request: Request, name: String) async throws -> Response {
        let parameters = try RenderParameters(query: RenderService.query(request))
        let client = callers.client(authorization: request.headers[.authorization])
        guard TemplateLibrary.isValidName(name), settings.templates[name] != nil, client?.may(render: name) ?? false else {
            throw Problem.notFound("no template \"\(Route.shown(name))\"")
        }
        switch RenderService.mediaType(request) {
        case "application/json":
            guard parameters.period == nil, parameters.zone == nil else {
                throw Problem.invalidRequest("period and zone are for a FHIR Bundle (application/fhir+json)")
            }
            let (slot, body) = try await admitAndRead(request)
            return try await render(RenderRequest(input: .template(name: name, record: body), parameters: parameters), in: slot)
        case "application/fhir+json":
            // Without a period, the record holds all of the Bundle's data.
            let options: FHIRImportOptions
            do {
                options = try FHIRImportOptions(period: parameters.period, zone: parameters.zone, allPatients: true)
            } catch let error as FolioError {
                throw Problem.invalidRequest("\(error.path.dropFirst(2)): \(error.message)")
            }
            let (slot, body) = try await admitAndRead(request)
            return try await render(
                RenderRequest(input: .fhirTemplate(name: name, bundle: body, options: options), parameters: parameters), in: slot)
        default:
            throw Problem.unsupportedMediaType(
                "the body must be one data record as application/json, or one patient's FHIR R4 Bundle as application/fhir+json")
        }
    }

    /// Takes a slot in the render pool, refusing the request when the service is shutting down
    /// or no slot is free (before the body is read), then reads the body within the limits.
    private func admitAndRead(_ request: Request) async throws -> (RenderPool<RequestRenderer>.Slot, Data) {
        if let encoding = request.headers[.contentEncoding], encoding.lowercased() != "identity" {
            throw Problem.unsupportedMediaType("Content-Encoding \"\(Route.shown(encoding))\" is not supported; send the body uncompressed")
        }
        guard readiness.value else { throw Problem.unavailable("the service is shutting down", retryAfter: 1) }
        guard let slot = pool.reserve() else { throw busy() }
        do {
            return (slot, try await BodyReader.read(request, limit: settings.maxBodyBytes, seconds: settings.readTimeout))
        } catch {
            slot.release()
            throw error
        }
    }

    private func busy() -> Problem {
        Problem.unavailable(
            "all \(pool.workers) render workers are busy and \(pool.queueLimit) renders wait; retry later",
            retryAfter: 1)
    }

    /// Renders `request` on the pool under the request's time limit and answers with its output.
    private func render(_ request: RenderRequest, in slot: RenderPool<RequestRenderer>.Slot) async throws -> Response {
        let parameters = request.parameters
        let deadline = RenderDeadline(seconds: settings.timeout)
        let metrics = self.metrics
        let output: RenderedBody
        do {
            output = try await pool.run(in: slot, deadline: deadline) { renderer in
                let start = DispatchTime.now().uptimeNanoseconds
                defer {
                    let elapsed = DispatchTime.now().uptimeNanoseconds - start
                    metrics.rendered(format: parameters.label, nanoseconds: Int64(clamping: elapsed))
                }
                return try renderer.render(request, deadline: deadline)
            }
        } catch is RenderPool<RequestRenderer>.Full {
            throw busy()
        } catch is RenderDeadline.Expired {
            throw Problem.renderTimeout(seconds: settings.timeout)
        } catch let error as FolioError {
            // A document sent as the body: the problem says where in it the field is.
            if case .document(let body, _) = request.input {
                throw Problem.invalidDocument(error, body: body)
            }
            throw Problem.invalidDocument(error.description)
        } catch is CancellationError {
            throw Problem.unavailable("the service is shutting down", retryAfter: 1)
        } catch let failure as NativeLibraryError {
            logger.error("render failed in a C library", metadata: ["error": .string(failure.description)])
            throw Problem.internalError(failure.description)
        } catch let crash as RequestRenderer.WorkerCrashed {
            logger.error("render crashed", metadata: ["error": .string(crash.description)])
            throw Problem.renderCrashed(crash.description)
        }
        var headers: HTTPFields = [
            .contentType: output.contentType,
            .eTag: "\"\(SHA256Digest.hex(output.bytes))\"",
            .cacheControl: "no-store",
        ]
        if let policy = output.contentSecurityPolicy {
            if parameters.html == .page {
                headers[.contentSecurityPolicy] = policy
            } else {
                headers[.folioContentSecurityPolicy] = policy
            }
        }
        if let pages = output.pages { headers[.folioPages] = String(pages) }
        return RenderService.response(output.bytes, headers: headers)
    }

    // MARK: Helpers

    private func json(_ value: [String: some Encodable]) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return RenderService.response((try? encoder.encode(value)) ?? Data("{}".utf8), contentType: "application/json")
    }

    private static func response(_ bytes: Data, contentType: String) -> Response {
        response(bytes, headers: [.contentType: contentType, .cacheControl: "no-store"])
    }

    private static func response(_ bytes: Data, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentLength] = String(bytes.count)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The query's name–value pairs, percent-decoded.
    private static func query(_ request: Request) -> [(name: String, value: String)] {
        request.uri.queryParameters.map { (name: String($0.key), value: String($0.value)) }
    }

    /// The request's media type, lowercased, without parameters.
    private static func mediaType(_ request: Request) -> String? {
        mediaType(contentType: request.headers[.contentType])
    }

    /// The media type of a `Content-Type` value, lowercased, without parameters.
    package static func mediaType(contentType: String?) -> String? {
        contentType.map {
            String($0.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        }
    }

    /// The document format a `POST /v1/render` body of `mediaType` is read as; 415 for any other type.
    package static func documentFormat(mediaType: String?) throws -> DocumentDecoder.Format {
        switch mediaType {
        case "application/json": return .json
        case "application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml": return .yaml
        default: throw Problem.unsupportedMediaType("the body must be a document as application/json or application/yaml")
        }
    }
}

extension HTTPField.Name {
    /// `Folio-Content-Security-Policy`: for fragments, the policy the host page needs for the fragment's style.
    static let folioContentSecurityPolicy = HTTPField.Name("Folio-Content-Security-Policy") ?? .via
    /// `Folio-Pages`: the PDF's page count.
    static let folioPages = HTTPField.Name("Folio-Pages") ?? .via
}
