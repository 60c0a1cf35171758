import Folio
import FolioWorkers
import Foundation

/// How `folio serve` listens, what it allows and how much it spends.
public struct ServerSettings: Sendable {
    /// Address to listen on; loopback by default.
    public var host = "127.0.0.1"
    /// Port to listen on; 0 picks a free one (the chosen port is logged).
    public var port = 8080
    /// Render workers (processes, or threads without `workerProcesses`); one per core by default.
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    /// Renders that may wait for a worker; beyond them requests get 503 with `Retry-After`.
    public var queue = 64
    /// Largest request body, in bytes (413 beyond).
    public var maxBodyBytes = 16 << 20
    /// Largest total size of a request's header fields, in bytes (431 beyond).
    public var maxHeaderBytes = 16 << 10
    /// Seconds one render may take, queueing included (504 beyond; the render is stopped).
    public var timeout = 30.0
    /// Seconds the request body may take to arrive (408 beyond).
    public var readTimeout = 15.0
    /// Seconds a connection may stay idle, or take to send its request head, before it is closed.
    public var idleTimeout = 15.0
    /// Seconds a response may take to reach a client that reads slowly (or not at all) before the
    /// connection is closed.
    public var writeTimeout = 60.0
    /// Open connections accepted at once; more wait in the listen backlog.
    public var maxConnections = 1024
    /// Seconds in-flight requests get to finish after SIGTERM before they are cancelled.
    public var gracePeriod = 30.0
    /// The bearer token clients must send; nil accepts requests without one.
    public var token: String?
    /// The clients of `--tokens-file` (each its own token, templates and webhook secret), instead of `token`.
    public var clients: ServiceClients?
    /// The webhook secret of the one client of `token` (or of everyone on loopback without one).
    public var webhookSecret: String?
    /// Durable jobs (`POST /v1/jobs`); nil when the service takes none (no `--job-dir`).
    public var jobs: JobSettings?
    /// Allows listening on a non-loopback address without a token.
    public var insecureNoAuth = false
    /// The only folder image paths (and theme logos) in received documents may come from;
    /// without one, images must be embedded as base64 `data`.
    public var assets: AssetFolder?
    /// The templates `POST /v1/templates/{name}/render` renders, by name.
    public var templates = TemplateLibrary()
    /// The theme under every document's own theme settings.
    public var theme = Theme.standard
    /// The HTML page shell replacing the built-in one, as for `folio render --template`.
    public var pageTemplate: String?
    /// Render in these worker processes (one per render thread), so a crash in a C library fails
    /// only the request it was drawing; nil renders in threads of the server (`--in-process`).
    /// The time limit is `timeout`; the settings' own `timeLimit` is not used.
    public var workerProcesses: WorkerSettings?
    /// Sign every PDF with this key and certificate (PAdES baseline B-B); nil for none.
    public var signer: PDFSigner?

    /// The default settings: loopback, port 8080, no token, no assets, no templates.
    public init() {}

    /// Whether `host` only accepts connections from this machine.
    public var isLoopback: Bool {
        let name = host.lowercased()
        return name == "localhost" || name == "::1" || name == "[::1]" || name.hasPrefix("127.")
    }

    /// Who may call: the clients of `--tokens-file`, the one of `--token-file`, or anyone (`anonymous`).
    var callers: ServiceClients {
        if let clients { return clients }
        var callers = token.map { ServiceClients(token: $0, webhookSecret: webhookSecret) } ?? ServiceClients()
        callers.defaultWebhookSecret = webhookSecret
        return callers
    }

    /// Checks the settings that cannot be served as given; errors name the flag.
    public func validate() throws {
        func check(_ condition: Bool, _ flag: String, _ message: String) throws {
            if !condition { throw FolioError(path: flag, message) }
        }
        try check((0...65_535).contains(port), "--port", "must be 0…65535")
        try check((1...256).contains(workers), "--workers", "must be 1…256")
        try check((0...100_000).contains(queue), "--queue", "must be 0…100000")
        try check(
            (1024...InputLimits.documentBytes).contains(maxBodyBytes), "--max-body-bytes",
            "must be 1024…\(InputLimits.documentBytes)")
        try check((1024...(1 << 20)).contains(maxHeaderBytes), "--max-header-bytes", "must be 1024…1048576")
        try check(timeout > 0 && timeout <= 3600, "--timeout", "must be more than 0 and at most 3600 seconds")
        try check(readTimeout > 0 && readTimeout <= 3600, "--read-timeout", "must be more than 0 and at most 3600 seconds")
        try check(idleTimeout > 0 && idleTimeout <= 3600, "--idle-timeout", "must be more than 0 and at most 3600 seconds")
        try check(writeTimeout > 0 && writeTimeout <= 3600, "--write-timeout", "must be more than 0 and at most 3600 seconds")
        try check(gracePeriod >= 0 && gracePeriod <= 3600, "--grace-period", "must be 0…3600 seconds")
        try check((1...1_000_000).contains(maxConnections), "--max-connections", "must be 1…1000000")
        if let token { try ServiceClients.check(token: token, field: "--token-file") }
        try check(token == nil || clients == nil, "--tokens-file", "give --token-file or --tokens-file, not both")
        if let webhookSecret {
            try check(
                WebhookEvent.key(ofSecret: webhookSecret) != nil, "--webhook-secret-file",
                "expected whsec_ and the base64 of at least 16 random bytes")
        }
        try jobs?.validate()
        try workerProcesses?.validate()
        try check(
            callers.needsToken || isLoopback || insecureNoAuth, "--host",
            "listening on \(host), beyond this machine, needs --token-file (or --insecure-no-auth to allow anyone)")
    }
}
