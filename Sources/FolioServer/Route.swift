import HTTPTypes

/// A route of the service by its template, as logs and metrics name it (`/v1/templates/{name}/render`,
/// never the raw path, so a metric's labels stay few), with the methods it answers.
package struct Route: Sendable {
    /// The route's template, or `unmatched`.
    let name: String
    /// The methods the route answers; nil when no route has this path.
    let methods: [HTTPRequest.Method]?

    /// The route of `path`.
    init(path: String) {
        switch path {
        case "/v1/render", "/v1/jobs": (name, methods) = (path, [.post])
        case "/v1/templates", "/v1/openapi.yaml", "/healthz", "/readyz", "/metrics": (name, methods) = (path, [.get])
        default:
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 5, parts[0].isEmpty, parts[1] == "v1", parts[2] == "templates", !parts[3].isEmpty, parts[4] == "render" {
                (name, methods) = ("/v1/templates/{name}/render", [.post])
            } else if parts.count >= 4, parts[0].isEmpty, parts[1] == "v1", parts[2] == "jobs", !parts[3].isEmpty {
                switch (parts.count, parts.count > 4 ? parts[4] : "") {
                case (4, _): (name, methods) = ("/v1/jobs/{id}", [.get, .delete])
                case (5, "documents"): (name, methods) = ("/v1/jobs/{id}/documents", [.get])
                case (6, "documents") where !parts[5].isEmpty: (name, methods) = ("/v1/jobs/{id}/documents/{name}", [.get])
                case (5, "archive"): (name, methods) = ("/v1/jobs/{id}/archive", [.get])
                default: (name, methods) = ("unmatched", nil)
                }
            } else {
                (name, methods) = ("unmatched", nil)
            }
        }
    }

    /// A path or name from a request as a message may show it: at most 200 characters.
    package static func shown(_ text: String) -> String {
        text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
