import Folio
import FolioData
import Foundation
import HTTPTypes
import Hummingbird

/// An error answered with an HTTP status and an RFC 9457 problem document
/// (`application/problem+json`: `type`, `title`, `status`, `detail`).
package struct Problem: Error, Sendable {
    /// The HTTP status.
    var status: HTTPResponse.Status
    /// A short name of the kind of problem; the document's `type` is `urn:folio:problem:` and this.
    var kind: String
    /// What went wrong with this request, such as `elements[3].rows[2]: expected an array of strings`.
    package var detail: String
    /// Extra response headers, such as `Retry-After` or `WWW-Authenticate`.
    var headers: HTTPFields = [:]
    /// The field an invalid document's error names, and the line and column of the request body
    /// that hold it (where the body is the document), for an editor to point at.
    var field: String?
    var position: SourceLocator.Position?

    /// The problem document's fields, encoded in this order.
    private struct Body: Encodable {
        var type: String
        var title: String
        var status: Int
        var detail: String
        var instance: String?
        var field: String?
        var line: Int?
        var column: Int?
    }

    /// The response for this problem; `requestID` becomes the document's `instance`.
    func response(requestID: String?) -> Response {
        let body = Body(
            type: "urn:folio:problem:\(kind)", title: status.reasonPhrase, status: status.code,
            detail: detail, instance: requestID.map { "urn:folio:request:\($0)" }, field: field, line: position?.line,
            column: position?.column)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = (try? encoder.encode(body)) ?? Data("{\"status\":\(status.code)}".utf8)
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        headers[.contentLength] = String(bytes.count)
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    // MARK: The problems the service answers with

    /// 400: the document or record is not valid; `detail` names the field.
    static func invalidDocument(_ detail: String) -> Problem {
        Problem(status: .badRequest, kind: "invalid-document", detail: detail)
    }

    /// 400: `error` in the document; where `body` is the document (JSON or YAML), the problem says
    /// the line and column that hold the field.
    static func invalidDocument(_ error: FolioError, body: Data?) -> Problem {
        var problem = invalidDocument(error.description)
        guard !error.path.isEmpty else { return problem }
        problem.field = error.path
        if let body, let text = String(data: body, encoding: .utf8) { problem.position = SourceLocator.locate(error.path, in: text) }
        return problem
    }

    /// 400: a query parameter or the request's form is wrong.
    static func invalidRequest(_ detail: String) -> Problem {
        Problem(status: .badRequest, kind: "invalid-request", detail: detail)
    }

    /// 401: no valid bearer token.
    static func unauthorized(_ detail: String) -> Problem {
        Problem(
            status: .unauthorized, kind: "unauthorized", detail: detail,
            headers: [.wwwAuthenticate: "Bearer realm=\"folio\""])
    }

    /// 404: no such route or template.
    package static func notFound(_ detail: String) -> Problem {
        Problem(status: .notFound, kind: "not-found", detail: detail)
    }

    /// 405: the route exists but not with this method.
    static func methodNotAllowed(_ detail: String, allow: String) -> Problem {
        Problem(status: .methodNotAllowed, kind: "method-not-allowed", detail: detail, headers: [.allow: allow])
    }

    /// 408: the body did not arrive in time.
    static func requestTimeout(_ detail: String) -> Problem {
        Problem(status: .requestTimeout, kind: "request-timeout", detail: detail, headers: [.connection: "close"])
    }

    /// 413: the body is larger than the limit.
    static func bodyTooLarge(limit: Int) -> Problem {
        Problem(
            status: .contentTooLarge, kind: "body-too-large",
            detail: "the request body has more than \(limit) bytes (--max-body-bytes)", headers: [.connection: "close"])
    }

    /// 413: a job's body is larger than `--max-job-bytes`.
    static func jobTooLarge(limit: Int) -> Problem {
        Problem(
            status: .contentTooLarge, kind: "body-too-large",
            detail: "the job's body has more than \(limit) bytes (--max-job-bytes)", headers: [.connection: "close"])
    }

    /// 429: the client has as many jobs queued or running as it may.
    static func tooManyJobs(limit: Int) -> Problem {
        Problem(
            status: .tooManyRequests, kind: "too-many-jobs",
            detail: "this client has \(limit) jobs queued or running (--max-jobs-per-client); retry when some have finished",
            headers: [.retryAfter: "60"])
    }

    /// 415: a body type the route does not read.
    package static func unsupportedMediaType(_ detail: String) -> Problem {
        Problem(status: .unsupportedMediaType, kind: "unsupported-media-type", detail: detail)
    }

    /// 431: the request's header fields are larger than the limit.
    static func headersTooLarge(limit: Int) -> Problem {
        Problem(
            status: .requestHeaderFieldsTooLarge, kind: "headers-too-large",
            detail: "the request's target and header fields have more than \(limit) bytes (--max-header-bytes)",
            headers: [.connection: "close"])
    }

    /// 503: every worker is busy and the queue is full, or the service is shutting down.
    static func unavailable(_ detail: String, retryAfter: Int) -> Problem {
        Problem(status: .serviceUnavailable, kind: "unavailable", detail: detail, headers: [.retryAfter: String(retryAfter)])
    }

    /// 504: the render took longer than the limit and was stopped.
    static func renderTimeout(seconds: Double) -> Problem {
        Problem(
            status: .gatewayTimeout, kind: "render-timeout",
            detail: "the render took longer than \(SecondsText(seconds)) s (--timeout) and was stopped")
    }

    /// 500: the render worker drawing this request died (a crash in a C library, or its memory
    /// limit); other requests are not affected, and the worker is replaced.
    static func renderCrashed(_ detail: String) -> Problem {
        Problem(status: .internalServerError, kind: "render-crashed", detail: detail)
    }

    /// 500: a failure that is Folio's, not the request's.
    static func internalError(_ detail: String) -> Problem {
        Problem(status: .internalServerError, kind: "internal-error", detail: detail)
    }
}

/// Seconds as short text: 30, 0.5.
struct SecondsText: CustomStringConvertible {
    let seconds: Double
    init(_ seconds: Double) { self.seconds = seconds }
    var description: String {
        seconds == seconds.rounded() && abs(seconds) < 1e9 ? String(seconds.clampedInt()) : String(format: "%g", seconds)
    }
}
