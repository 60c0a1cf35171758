import Folio
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// `folio preview`: a page on 127.0.0.1 showing a document's PDF pages as pictures beside its
/// HTML, rendered again whenever the document, its data, its theme or a file beside it changes
/// (inotify), and pushed to the page without a reload (Server-Sent Events). Only 127.0.0.1 is ever
/// bound, and a request naming another host is refused, so no web page can read the author's files
/// through it (DNS rebinding).
public enum FolioPreview {
    /// Runs the preview until SIGINT or SIGTERM; `listening` is called with the bound port.
    public static func run(settings: PreviewSettings, logger: Logger, listening: (@Sendable (Int) -> Void)? = nil) async throws {
        let state = PreviewState(settings: settings)
        let watcher = try FileWatcher(folders: settings.watchedFolders) { state.renderSoon() }
        // The folders of included files are watched as each render finds them.
        state.onIncludedFiles { files in watcher.watch(files.map { ($0 as NSString).deletingLastPathComponent }) }
        state.renderNow()
        watcher.start()
        let app = Application(
            router: router(state),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: settings.port), serverName: "folio-preview"),
            onServerRunning: { channel in
                listening?(channel.localAddress?.port ?? settings.port)
            },
            logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: app), .init(service: ShutdownNotice(state: state))],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        withExtendedLifetime(watcher) {}
    }

    /// The routes: the page, its script and style, the state, the pages' pictures, the HTML, the
    /// event stream, and choosing a record.
    static func router(_ state: PreviewState) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: FramedByNoOtherSite())
        router.add(middleware: LoopbackOnly())
        router.add(middleware: OwnPageOnly())
        router.get("/") { _, _ in
            response(Data(PreviewPage.html.utf8), type: "text/html; charset=utf-8", policy: PreviewPage.contentSecurityPolicy)
        }
        router.get("/preview.js") { _, _ in response(Data(PreviewPage.script.utf8), type: "text/javascript; charset=utf-8") }
        router.get("/preview.css") { _, _ in response(Data(PreviewPage.css.utf8), type: "text/css; charset=utf-8") }
        router.get("/state.json") { _, _ in
            let shown = state.current
            let body = StateBody(
                version: shown.version, goodVersion: shown.goodVersion, file: state.settings.input, pages: shown.good.pages.count,
                failure: shown.failure, warnings: shown.warnings, record: shown.record, records: shown.records)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return response(try encoder.encode(body), type: "application/json")
        }
        router.get("/pages/:page") { _, context in
            let name = context.parameters.get("page") ?? ""
            let pages = state.current.good.pages
            guard name.hasSuffix(".png"), let number = Int(name.dropLast(4)), pages.indices.contains(number - 1) else {
                return Response(status: .notFound)
            }
            return response(pages[number - 1], type: "image/png")
        }
        router.get("/report.html") { _, _ in
            let good = state.current.good
            // Shown in the preview's own page, in a sandboxed frame, and framed by nothing else.
            let policy = [good.contentSecurityPolicy, "frame-ancestors 'self'"].filter { !$0.isEmpty }.joined(separator: "; ")
            return response(Data(good.html.utf8), type: "text/html; charset=utf-8", policy: policy, framing: "SAMEORIGIN")
        }
        router.post("/record/:number") { _, context in
            guard let number = context.parameters.get("number").flatMap({ Int($0) }), number >= 1 else {
                return Response(status: .badRequest)
            }
            state.choose(record: number)
            return Response(status: .noContent)
        }
        router.get("/events") { _, _ in
            let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    // Each new render is announced; a comment every 2 s finds a page that has gone
                    // (its write fails) and keeps a proxy from closing the stream. It ends on shutdown.
                    var announced = -1
                    var quiet = 0
                    while !state.isStopping {
                        let version = state.current.version
                        if version != announced {
                            announced = version
                            quiet = 0
                            try await writer.write(ByteBuffer(string: "event: render\ndata: \(version)\n\n"))
                        } else if quiet >= 13 {
                            quiet = 0
                            try await writer.write(ByteBuffer(string: ": still here\n\n"))
                        }
                        try await Task.sleep(for: .milliseconds(150))
                        quiet += 1
                    }
                    try await writer.finish(nil)
                })
        }
        return router
    }

    /// What `/state.json` says.
    private struct StateBody: Encodable {
        let version: Int
        let goodVersion: Int
        let file: String
        let pages: Int
        let failure: PreviewRender.Failure?
        let warnings: [PreviewRender.Warning]
        let record: Int
        let records: Int?
    }

    /// A response holding `bytes` of `type`, under `policy` and `framing` (`X-Frame-Options`; without
    /// them, framed by no page: `FramedByNoOtherSite`), never cached.
    private static func response(_ bytes: Data, type: String, policy: String? = nil, framing: String? = nil) -> Response {
        var headers: HTTPFields = [.contentType: type, .cacheControl: "no-store", .contentLength: String(bytes.count)]
        if let noSniffing = HTTPField.Name("X-Content-Type-Options") { headers[noSniffing] = "nosniff" }
        if let framing, let frameOptions = HTTPField.Name("X-Frame-Options") { headers[frameOptions] = framing }
        if let policy, !policy.isEmpty { headers[.contentSecurityPolicy] = policy }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// Refuses a request whose Host is not this machine's loopback address (127.0.0.1, localhost or
/// [::1], with any port): a web page that rebinds its own name to 127.0.0.1 cannot read the preview.
private struct LoopbackOnly<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard LoopbackOnly<Context>.isLoopback(authority: request.head.authority ?? "") else { return Response(status: .forbidden) }
        return try await next(request, context)
    }

    /// Whether `authority` (a Host header: a name or address and an optional port) names the loopback.
    static func isLoopback(authority: String) -> Bool {
        let name: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            name = authority[...close]
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCIIDigitCharacter)) else { return false }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            name = parts.first ?? ""
            guard parts.count == 1 || parts[1].allSatisfy(\.isASCIIDigitCharacter) else { return false }
        }
        return name == "127.0.0.1" || name.lowercased() == "localhost" || name == "[::1]"
    }
}

extension Character {
    /// Whether this is one of the digits 0 to 9.
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}

/// Says on every response (a refusal, a 404 too) that no other site's page may frame it, unless
/// the route said otherwise (the report, framed by the preview's own page).
private struct FramedByNoOtherSite<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        if response.headers[.contentSecurityPolicy] == nil { response.headers[.contentSecurityPolicy] = "frame-ancestors 'none'" }
        if let frameOptions = HTTPField.Name("X-Frame-Options"), response.headers[frameOptions] == nil {
            response.headers[frameOptions] = "DENY"
        }
        return response
    }
}

/// Refuses (403) a request that changes the preview's state (anything but GET and HEAD) unless the
/// browser says it comes from the preview's own page: `Sec-Fetch-Site: same-origin`, or an `Origin`
/// naming the address the request was sent to. Another site's page — which a browser lets send a
/// POST anywhere — cannot switch or break the author's preview; a request saying neither is refused too.
private struct OwnPageOnly<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            let site = HTTPField.Name("Sec-Fetch-Site").flatMap { request.headers[$0] }
            let origin = HTTPField.Name("Origin").flatMap { request.headers[$0] }
            let own = "http://" + (request.head.authority ?? "")
            if let site, site != "same-origin" { return Response(status: .forbidden) }
            if let origin, origin != own { return Response(status: .forbidden) }
            guard site != nil || origin != nil else { return Response(status: .forbidden) }
            return try await next(request, context)
        }
        return try await next(request, context)
    }
}

/// Tells the preview's event streams to end when the service shuts down (a page left open would
/// otherwise hold the shutdown until its stream is cut).
private struct ShutdownNotice: Service {
    let state: PreviewState

    func run() async throws {
        try? await gracefulShutdown()
        state.stop()
    }
}
