import Folio
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The middleware every request passes first: it gives the request an id (echoed in
/// `X-Request-Id`), refuses oversized header fields (431) and missing or wrong bearer tokens (401),
/// turns every error into a problem document, and logs and counts the answer.
struct RequestPolicy<Context: RequestContext>: RouterMiddleware {
    let settings: ServerSettings
    let metrics: ServerMetrics
    let logger: Logger
    /// Who may call.
    let callers: ServiceClients

    init(settings: ServerSettings, metrics: ServerMetrics, logger: Logger) {
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
        callers = settings.callers
    }

    /// Paths anyone may ask without a token: probes and the API description.
    static var openPaths: Set<String> { ["/healthz", "/readyz", "/v1/openapi.yaml"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let id = RequestPolicy.requestID(request.headers[.xRequestID]) ?? context.id
        let route = Route(path: request.uri.path)
        var response: Response
        do {
            try checkHeaderSize(request)
            if !RequestPolicy.openPaths.contains(request.uri.path) { try authenticate(request) }
            response = try await next(request, context)
        } catch let problem as Problem {
            response = problem.response(requestID: id)
        } catch let error as HTTPError where error.status == .notFound {
            if let allowed = route.methods, !allowed.contains(request.method) {
                response = Problem.methodNotAllowed(
                    "\(request.method.rawValue) is not allowed on \(route.name)",
                    allow: allowed.map(\.rawValue).joined(separator: ", ")
                ).response(requestID: id)
            } else {
                response = Problem.notFound("no route \(request.method.rawValue) \(Route.shown(request.uri.path))")
                    .response(requestID: id)
            }
        } catch let error as HTTPError {
            response = Problem(status: error.status, kind: "http-error", detail: error.body ?? error.status.reasonPhrase)
                .response(requestID: id)
        } catch {
            logger.error("unexpected error", metadata: ["id": .string(id), "error": .string(String(describing: error))])
            response = Problem.internalError("an unexpected error; see the server log for request \(id)").response(requestID: id)
        }
        if let reason = RequestPolicy.rejectionReason(response.status) { metrics.rejected(reason) }
        response.headers[.xRequestID] = id
        response.headers[.xContentTypeOptions] = "nosniff"
        let bytes = response.body.contentLength ?? 0
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        metrics.request(route: route.name, status: response.status.code, bytes: bytes)
        logger.info(
            "request",
            metadata: [
                "id": .string(id), "method": .string(request.method.rawValue), "route": .string(route.name),
                "status": .stringConvertible(response.status.code), "bytes": .stringConvertible(bytes),
                "ms": .stringConvertible(milliseconds),
            ])
        return response
    }

    private func checkHeaderSize(_ request: Request) throws {
        var total = request.uri.description.utf8.count
        for field in request.headers { total += field.name.rawName.utf8.count + field.value.utf8.count + 4 }
        if total > settings.maxHeaderBytes { throw Problem.headersTooLarge(limit: settings.maxHeaderBytes) }
    }

    private func authenticate(_ request: Request) throws {
        guard callers.needsToken else { return }
        guard let header = request.headers[.authorization] else {
            throw Problem.unauthorized("this service needs an Authorization: Bearer token")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw Problem.unauthorized("the Authorization header must be \"Bearer <token>\"")
        }
        if callers.client(authorization: header) == nil { throw Problem.unauthorized("the bearer token is not valid") }
    }

    /// The client's `X-Request-Id` when it is a safe one (1…128 of `A-Z a-z 0-9 - _ . :`), else nil.
    static func requestID(_ given: String?) -> String? {
        guard let given, (1...128).contains(given.utf8.count),
            given.utf8.allSatisfy({
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                    || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E || $0 == 0x3A
            })
        else { return nil }
        return given
    }

    /// The `folio_http_rejected_total` reason for a status, or nil when the request was not refused.
    static func rejectionReason(_ status: HTTPResponse.Status) -> String? {
        switch status.code {
        case 401: return "unauthorized"
        case 408: return "request_timeout"
        case 413: return "body_too_large"
        case 429: return "too_many_jobs"
        case 431: return "headers_too_large"
        case 503: return "unavailable"
        case 504: return "render_timeout"
        default: return nil
        }
    }
}

extension HTTPField.Name {
    /// `X-Request-Id` (a valid field name, so the initializer cannot fail; `Via` only to avoid a force-unwrap).
    static let xRequestID = HTTPField.Name("X-Request-Id") ?? .via
}
