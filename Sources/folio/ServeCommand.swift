import ArgumentParser
import Dispatch
import Folio
import FolioConnect
import FolioFiles
import FolioServer
import Foundation
import Logging

/// `folio serve [--host H] [--port P] …`: the render service over HTTP.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve renders over HTTP (see openapi.yaml and docs/service.md).",
        discussion: """
            Routes: POST /v1/render?format=pdf|html&html=page|fragment|shadow&report=true (a document as \
            application/json or application/yaml); POST /v1/templates/NAME/render (one data record as JSON, \
            NAME from --templates); GET /v1/templates; GET /v1/openapi.yaml; GET /healthz, /readyz, /metrics.
            Errors are RFC 9457 problem documents naming the field. Images in received documents must be \
            base64 data or paths inside --assets; nothing is fetched from URLs. Logs are JSON lines on \
            standard error. SIGTERM stops accepting, lets in-flight renders finish (--grace-period) and exits 0. \
            Renders run in worker processes (folio __render-worker, one per --workers): a crash in a C library \
            or a document past --memory-limit fails that request alone (500 render-crashed) and the worker is replaced.

            Example:
              folio serve --port 8080 --templates Templates --assets Templates
              curl --data-binary @Samples/charts.yaml -H 'Content-Type: application/yaml' \\
                'http://127.0.0.1:8080/v1/render?format=pdf' -o charts.pdf
            """
    )

    @Option(help: "Address to listen on. Any address beyond loopback needs --token-file (or --insecure-no-auth).")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free port (logged as \"listening\").")
    var port = 8080

    @Option(
        help:
            "Render worker processes (threads with --in-process); one per core by default. With --job-dir, as many again render jobs, at a lower CPU priority."
    )
    var workers = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Renders that may wait for a worker; beyond them requests get 503 with Retry-After.")
    var queue = 64

    @Option(help: "Largest request body in bytes (413 beyond).")
    var maxBodyBytes = 16 << 20

    @Option(help: "Largest total size of a request's header fields in bytes (431 beyond).")
    var maxHeaderBytes = 16 << 10

    @Option(help: "Seconds one render may take, waiting included (504 beyond; the render is stopped).")
    var timeout = 30.0

    @Option(help: "Seconds the request body may take to arrive (408 beyond).")
    var readTimeout = 15.0

    @Option(help: "Seconds a connection may stay idle, or take to send its request head, before it is closed.")
    var idleTimeout = 15.0

    @Option(help: "Seconds a response may take to reach a client that reads slowly before the connection is closed.")
    var writeTimeout = 60.0

    @Option(help: "Open connections accepted at once; more wait in the listen backlog.")
    var maxConnections = 1024

    @Option(help: "Seconds in-flight requests get to finish after SIGTERM or SIGINT.")
    var gracePeriod = 30.0

    @Option(
        help:
            "A file holding the bearer token clients must send (Authorization: Bearer TOKEN); /healthz, /readyz and /v1/openapi.yaml stay open."
    )
    var tokenFile: String?

    @Option(
        help:
            "A JSON file of clients, each with its own token, templates and webhook secret: {\"clients\": [{\"name\", \"token\", \"templates\", \"webhookSecret\"}]} (instead of --token-file; mode 600). See docs/service.md."
    )
    var tokensFile: String?

    @Option(help: "A file holding the webhook secret (whsec_ and base64) that signs the job events of the --token-file client.")
    var webhookSecretFile: String?

    @Option(
        help:
            "Take durable jobs (POST /v1/jobs): their inputs and documents go in this folder, their state in jobs.sqlite there (or --job-store)."
    )
    var jobDir: String?

    @Option(
        help:
            "Where jobs are kept: sqlite:PATH (one machine; by default jobs.sqlite in --job-dir) or postgresql://USER@HOST[:PORT]/DATABASE (servers sharing one queue and one --job-dir; the password in PGPASSWORD)."
    )
    var jobStore: String?

    @Option(help: "How long finished jobs and their documents are kept: seconds, or a number with s, m, h or d (default 7d).")
    var jobRetention = "7d"

    @Option(help: "The largest job input (records or a document), in bytes.")
    var maxJobBytes = 1 << 30

    @Option(help: "Jobs one client may have queued or running at once; more are answered 429.")
    var maxJobsPerClient = 10_000

    @Option(
        help:
            "A private network webhooks may reach all the same (CIDR, as 10.20.0.0/16; repeatable). Private, link-local and reserved addresses are refused otherwise."
    )
    var webhookAllow: [String] = []

    @Flag(help: "Allow listening beyond loopback without a token: anyone who reaches the port may render.")
    var insecureNoAuth = false

    @Option(
        help:
            "The only folder image paths in received documents may name (relative, no '..', no symbolic link out). Without it, images must be base64 data."
    )
    var assets: String?

    @Option(help: "A folder of document templates (.yaml, .yml, .json) rendered by POST /v1/templates/NAME/render.")
    var templates: String?

    @OptionGroup var theme: ThemeOption

    @OptionGroup var pageShell: PageShellOption

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @OptionGroup var renderWorkers: RenderWorkerOption

    @OptionGroup var signing: SigningOptions

    func run() throws {
        do {
            guard let level = Logger.Level(rawValue: logLevel) else {
                throw FolioError(path: "--log-level", "expected trace, debug, info, notice, warning, error or critical")
            }
            var settings = ServerSettings()
            settings.host = host
            settings.port = port
            settings.workers = workers
            settings.queue = queue
            settings.maxBodyBytes = maxBodyBytes
            settings.maxHeaderBytes = maxHeaderBytes
            settings.timeout = timeout
            settings.readTimeout = readTimeout
            settings.idleTimeout = idleTimeout
            settings.writeTimeout = writeTimeout
            settings.maxConnections = maxConnections
            settings.gracePeriod = gracePeriod
            settings.insecureNoAuth = insecureNoAuth
            if let tokenFile {
                settings.token = try SecretFile.read(tokenFile, option: "--token-file", what: "token file")
                    .trimmingCharacters(in: .whitespaces)
            }
            settings.clients = try tokensFile.map { try ServiceClients(tokensFile: $0) }
            settings.webhookSecret = try webhookSecretFile.map {
                try SecretFile.read($0, option: "--webhook-secret-file", what: "webhook secret file").trimmingCharacters(in: .whitespaces)
            }
            if let jobDir {
                var jobs = JobSettings(directory: URL(fileURLWithPath: jobDir, isDirectory: true))
                jobs.store = jobStore
                jobs.retentionSeconds = try ServeCommand.seconds(jobRetention, option: "--job-retention")
                jobs.maxInputBytes = maxJobBytes
                jobs.maxUnfinishedJobsPerClient = maxJobsPerClient
                jobs.webhookAllowed = try webhookAllow.map { try AddressPolicy.Network($0, field: "--webhook-allow") }
                settings.jobs = jobs
            } else if jobStore != nil || !webhookAllow.isEmpty {
                throw FolioError(path: jobStore != nil ? "--job-store" : "--webhook-allow", "is for jobs: give --job-dir too")
            }
            settings.assets = try assets.map { try AssetFolder(path: $0) }
            settings.templates = try templates.map { try TemplateLibrary(directory: $0) } ?? TemplateLibrary()
            settings.theme = try theme.load()
            settings.pageTemplate = try pageShell.load()
            settings.workerProcesses = renderWorkers.workers(timeLimit: timeout)
            settings.signer = try signing.load { StandardStreams.printError("folio: warning: \($0)") }
            try settings.validate()

            LoggingSystem.bootstrap { JSONLogHandler(label: $0, level: level) }
            var logger = Logger(label: "folio")
            logger.logLevel = level
            let outcome = Locked<(any Error)?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task { [settings, logger] in
                do {
                    try await FolioServer.run(settings: settings, logger: logger)
                } catch {
                    outcome.set(error)
                }
                done.signal()
            }
            done.wait()
            if let error = outcome.value { throw error }
        } catch {
            StandardStreams.printError(StandardStreams.describe(error))
            throw ExitCode(1)
        }
    }

    /// A duration as `--job-retention` takes it: seconds, or a number with s, m, h or d.
    static func seconds(_ text: String, option: String) throws -> Double {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var number = Substring(text)
        var unit = 1.0
        if let last = text.last, let scale = units[last] {
            number = text.dropLast()
            unit = scale
        }
        guard let value = Double(number), value.isFinite, value >= 0 else {
            throw FolioError(path: option, "expected seconds, or a number with s, m, h or d (as 7d), found \"\(text.prefix(64))\"")
        }
        return value * unit
    }
}
