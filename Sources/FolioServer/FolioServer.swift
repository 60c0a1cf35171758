import Folio
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// `folio serve`: the render service over HTTP, on Hummingbird with swift-service-lifecycle.
///
/// It checks itself (fonts loaded, a small document rendered) before it says it is ready,
/// renders on a bounded worker pool, and on SIGTERM or SIGINT stops accepting connections,
/// lets in-flight requests finish within the grace period, and returns.
public enum FolioServer {
    /// Runs the service until SIGTERM or SIGINT; throws when the settings are invalid, the
    /// self-test fails or the address cannot be bound. `listening` is called with the bound port.
    public static func run(
        settings: ServerSettings, logger: Logger,
        listening: (@Sendable (Int) -> Void)? = nil
    ) async throws {
        try settings.validate()
        let service = try RenderService(settings: settings, logger: logger)
        do {
            try service.pool.start { _ in try service.makeRenderer() }
            try service.jobPool?.start { _ in try service.makeRenderer(forJobs: true) }
        } catch {
            service.pool.stop()
            throw FolioError(path: "serve", "the start-up self-test failed: \(error)")
        }
        defer {
            service.pool.stop()
            service.jobPool?.stop()
        }
        try await service.jobs?.open()
        defer { service.jobs?.close() }

        // NIO's own header limit is a backstop above ours, so ours is answered with a 431 problem document.
        let metrics = service.metrics
        let connections = ConnectionLimit.Count { metrics.connections($0) }
        let hardHeaderLimit = max(2 * settings.maxHeaderBytes, 64 << 10)
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [
                ResponseWriteGuard(writeTimeout: .milliseconds(Int64((settings.writeTimeout * 1000).clampedInt()))),
                ContinueHandler(maxBodyBytes: settings.maxBodyBytes),
            ],
            idleTimeout: TimeAmount.milliseconds(Int64((settings.idleTimeout * 1000).clampedInt())),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: hardHeaderLimit, maxHeaderListSize: hardHeaderLimit,
                maxHeaderFieldCount: 1000))
        let app = Application(
            router: service.router(),
            server: .http1(configuration: http),
            configuration: ApplicationConfiguration(
                address: .hostname(settings.host, port: settings.port), serverName: "folio", backlog: 512,
                availableConnectionsDelegate: ConnectionLimit(maximum: settings.maxConnections, count: connections)),
            onServerRunning: { channel in
                service.setReady(true)
                let port = channel.localAddress?.port ?? settings.port
                logger.info(
                    "listening",
                    metadata: [
                        "host": .string(settings.host), "port": .stringConvertible(port),
                        "workers": .stringConvertible(settings.workers),
                        "queue": .stringConvertible(settings.queue),
                    ])
                listening?(port)
            },
            logger: logger)

        var configuration = ServiceGroupConfiguration(
            services: [
                .init(service: app),
                .init(service: ShutdownNotice(service: service, logger: logger)),
            ] + (service.jobs.map { [.init(service: JobsService(jobs: $0))] } ?? []),
            gracefulShutdownSignals: [.sigterm, .sigint, .sighup],
            logger: logger)
        configuration.maximumGracefulShutdownDuration = Duration.milliseconds(Int64((settings.gracePeriod * 1000).clampedInt()))
        configuration.maximumCancellationDuration = Duration.seconds(5)
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch let error as ServiceGroupError {
            logger.warning("shutdown", metadata: ["error": .string(String(describing: error))])
        }
        // Responses handed to the server may still be on their way to the client.
        if !(await connections.waitUntilZero(seconds: max(5, settings.gracePeriod))) {
            logger.warning("connections still open at exit", metadata: ["connections": .stringConvertible(connections.current)])
        }
        logger.info("stopped")
    }
}

/// Runs the durable jobs beside the server; on shutdown stops claiming jobs (a job running stays
/// running under its lease and is taken back by the next start).
private struct JobsService: Service {
    let jobs: JobService

    func run() async throws {
        await withGracefulShutdownHandler {
            await jobs.run()
        } onGracefulShutdown: {
            jobs.stop()
        }
    }
}

/// Marks the service not ready as soon as shutdown begins, so load balancers stop sending
/// requests while in-flight ones finish.
private struct ShutdownNotice: Service {
    let service: RenderService
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        service.setReady(false)
        logger.info("shutting down", metadata: ["gracePeriodSeconds": .stringConvertible(service.settings.gracePeriod)])
    }
}
