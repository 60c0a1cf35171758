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
        router.add(middleware: LoopbackOnly())
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
            return response(Data(good.html.utf8), type: "text/html; charset=utf-8", policy: good.contentSecurityPolicy)
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

    private static func response(_ bytes: Data, type: String, policy: String? = nil) -> Response {
        var headers: HTTPFields = [.contentType: type, .cacheControl: "no-store", .contentLength: String(bytes.count)]
        if let noSniffing = HTTPField.Name("X-Content-Type-Options") { headers[noSniffing] = "nosniff" }
        if let policy, !policy.isEmpty { headers[.contentSecurityPolicy] = policy }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// Refuses a request whose Host is not this machine's loopback address: a web page that rebinds
/// its own name to 127.0.0.1 cannot read the preview.
private struct LoopbackOnly<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority ?? ""
        let name = host.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        guard name == "127.0.0.1" || name == "localhost" || name == "[::1]" else { return Response(status: .forbidden) }
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
