import FolioConnect
import FolioData
import FolioFiles
import FolioModel
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The routes of durable jobs: `POST /v1/jobs`, `GET|DELETE /v1/jobs/{id}`,
/// `GET /v1/jobs/{id}/documents[/{name}]` and `GET /v1/jobs/{id}/archive`.
extension RenderService {
    func addJobRoutes(to router: Router<BasicRequestContext>) {
        router.post("/v1/jobs") { [self] request, _ in try await submitJob(request) }
        router.get("/v1/jobs/:id") { [self] request, context in
            let job = try await ownJob(request, context)
            return try jsonResponse(status(of: job, service: try jobService()), status: .ok)
        }
        router.delete("/v1/jobs/:id") { [self] request, context in try await cancelJob(try await ownJob(request, context)) }
        router.get("/v1/jobs/:id/documents") { [self] request, context in
            let job = try await ownJob(request, context)
            let service = try jobService()
            let documents: [TreeValue] = service.folder.documentsListed(job.id).map { document in
                .object([
                    ("number", .number(Double(document.number))), ("name", .string(document.name)),
                    ("bytes", .number(Double(document.bytes))), ("sha256", .string(document.sha256)),
                    ("href", .string("/v1/jobs/\(job.id)/documents/\(document.name)")),
                ])
            }
            return try jsonResponse(.object([("documents", .array(documents))]), status: .ok)
        }
        router.get("/v1/jobs/:id/documents/:name") { [self] request, context in
            let job = try await ownJob(request, context)
            let name = context.parameters.get("name") ?? ""
            let service = try jobService()
            guard let document = service.folder.documentsListed(job.id).first(where: { $0.name == name }) else {
                throw Problem.notFound("job \(job.id) has no document \"\(Route.shown(name))\"")
            }
            let url = service.folder.documents(job.id).appendingPathComponent(document.name)
            let data = try BoundedFile.read(url.path, limit: 1 << 31, field: "", what: "document", regularOnly: true)
            var headers: HTTPFields = [
                .contentType: document.name.hasSuffix(".pdf") ? "application/pdf" : "text/html; charset=utf-8",
                .eTag: "\"\(document.sha256)\"", .cacheControl: "no-store", .contentLength: String(data.count),
            ]
            headers[.contentDisposition] = "attachment; filename=\"\(document.name)\""
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.get("/v1/jobs/:id/archive") { [self] request, context in
            let job = try await ownJob(request, context)
            let service = try jobService()
            let folder = service.folder.documents(job.id)
            let documents = service.folder.documentsListed(job.id)
            let headers: HTTPFields = [
                .contentType: "application/x-tar", .cacheControl: "no-store",
                .contentDisposition: "attachment; filename=\"\(job.id).tar\"",
            ]
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    for document in documents {
                        let url = folder.appendingPathComponent(document.name)
                        guard let data = try? BoundedFile.read(url.path, limit: 1 << 31, field: "", what: "document", regularOnly: true)
                        else { continue }
                        try await writer.write(ByteBuffer(bytes: TarArchive.header(name: document.name, size: data.count)))
                        try await writer.write(ByteBuffer(bytes: data))
                        try await writer.write(ByteBuffer(bytes: TarArchive.padding(size: data.count)))
                    }
                    try await writer.write(ByteBuffer(bytes: TarArchive.end))
                    try await writer.finish(nil)
                })
        }
    }

    private func jobService() throws -> JobService {
        guard let jobs else {
            throw Problem.notFound("this service takes no jobs (start it with --job-dir)")
        }
        return jobs
    }

    /// The calling client.
    private func caller(_ request: Request) throws -> ServiceClients.Client {
        guard let client = callers.client(authorization: request.headers[.authorization]) else {
            throw Problem.unauthorized("the bearer token is not valid")
        }
        return client
    }

    /// The job the path names, if it is the caller's: another client's job is not found, as one that never was.
    private func ownJob(_ request: Request, _ context: BasicRequestContext) async throws -> Job {
        let service = try jobService()
        let id = context.parameters.get("id") ?? ""
        let client = try caller(request)
        guard JobIdentifier.isValid(id), let job = try await service.store.job(id: id, client: client.name) else {
            throw Problem.notFound("no job \"\(Route.shown(id))\"")
        }
        return job
    }

    private func submitJob(_ request: Request) async throws -> Response {
        let service = try jobService()
        let client = try caller(request)
        guard isReady else { throw Problem.unavailable("the service is shutting down", retryAfter: 1) }
        var job = try JobSubmission.job(
            query: request.uri.queryParameters.map { (name: String($0.key), value: String($0.value)) },
            contentType: request.headers[.contentType], client: client, templates: settings.templates,
            webhookPolicy: AddressPolicy(allowed: service.settings.webhookAllowed))
        if let key = request.headers[.idempotencyKey] {
            guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw Problem.invalidRequest("Idempotency-Key: expected 1…255 printable ASCII characters without spaces")
            }
            job.idempotencyKey = key
            if let existing = try await service.store.job(idempotencyKey: key, client: client.name) {
                return try jsonResponse(status(of: existing, service: service), status: .accepted, location: existing.id, replayed: true)
            }
        }
        if let traceparent = request.headers[.traceparent], JobSubmission.isValidTraceparent(traceparent) {
            job.traceparent = traceparent
        }
        try service.folder.create(job.id)
        do {
            let input = service.folder.input(job)
            try await JobSubmission.receive(request.body, to: input, limit: service.settings.maxInputBytes)
            job.input = try JobSubmission.refine(job.input, file: input, fileNameIn: service.folder)
            let stored: Job
            let created: Bool
            do {
                (stored, created) = try await service.store.insert(job, limit: service.settings.maxUnfinishedJobsPerClient)
            } catch let tooMany as TooManyJobs {
                throw Problem.tooManyJobs(limit: tooMany.limit)
            }
            if created { service.runner.wake() } else { service.folder.remove(job.id) }
            return try jsonResponse(status(of: stored, service: service), status: .accepted, location: stored.id, replayed: !created)
        } catch {
            service.folder.remove(job.id)
            throw error
        }
    }

    /// `DELETE`: the job cancelled and removed with its documents (a running one stops at its next record).
    private func cancelJob(_ job: Job) async throws -> Response {
        let service = try jobService()
        guard let cancelled = try await service.store.cancel(id: job.id, client: job.client, now: Date().timeIntervalSince1970) else {
            throw Problem.notFound("no job \"\(job.id)\"")
        }
        if cancelled.state != .running { service.folder.remove(job.id) }
        if job.state.isFinished { return Response(status: .noContent) }
        var shown = cancelled
        shown.state = .cancelled
        return try jsonResponse(status(of: shown, service: service), status: .accepted)
    }

    /// A job as `GET /v1/jobs/{id}` shows it.
    private func status(of job: Job, service: JobService) -> TreeValue {
        var members: [(key: String, value: TreeValue)] = [
            ("id", .string(job.id)), ("state", .string(job.state.rawValue)),
            ("template", job.template.map(TreeValue.string) ?? .null), ("formats", .array(job.formats.map(TreeValue.string))),
            ("created", .string(UTCTimestamp.text(job.created))),
            ("started", job.started.map { .string(UTCTimestamp.text($0)) } ?? .null),
            ("finished", job.finished.map { .string(UTCTimestamp.text($0)) } ?? .null),
            ("total", .number(Double(job.total))), ("written", .number(Double(job.written))), ("failed", .number(Double(job.failed))),
            (
                "progress",
                .number(job.total > 0 ? min(1, Double(job.written + job.failed) / Double(job.total)) : (job.state == .done ? 1 : 0))
            ),
            ("cancelRequested", .bool(job.cancelRequested)),
            // Seconds from acceptance to start: the queue wait.
            ("waited", job.started.map { .number(max(0, $0 - job.created)) } ?? .null),
        ]
        if let error = job.error { members.append(("error", .string(error))) }
        if job.state.isFinished || job.failed > 0 {
            let failures = service.folder.failuresListed(job.id).prefix(10_000).map { failure -> TreeValue in
                .object([
                    ("number", .number(Double(failure.number))), ("id", failure.id.map(TreeValue.string) ?? .null),
                    ("error", .string(failure.error)),
                ])
            }
            members.append(("failures", .array(Array(failures))))
        }
        members.append(("documents", .string("/v1/jobs/\(job.id)/documents")))
        members.append(("archive", .string("/v1/jobs/\(job.id)/archive")))
        return .object(members)
    }

    private func jsonResponse(_ value: TreeValue, status: HTTPResponse.Status, location: String? = nil, replayed: Bool = false) throws
        -> Response
    {
        let bytes = Data(value.json.utf8)
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store", .contentLength: String(bytes.count)]
        if let location { headers[.location] = "/v1/jobs/\(location)" }
        if replayed { headers[.idempotentReplayed] = "true" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

extension HTTPField.Name {
    /// `Idempotency-Key`: a client's key for a job it may send twice.
    static let idempotencyKey = HTTPField.Name("Idempotency-Key") ?? .via
    /// `Idempotent-Replayed`: the answer is the job made by an earlier request with the same key.
    static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed") ?? .via
    /// W3C `traceparent`.
    static let traceparent = HTTPField.Name("traceparent") ?? .via
}
