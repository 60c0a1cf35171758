import CoreMetrics
import Metrics
import Prometheus

/// The service's metrics, kept in its own Prometheus registry and served as text at `/metrics`.
///
/// - `folio_http_requests_total{route,status}`: answered requests.
/// - `folio_http_response_bytes_total{route}`: bytes of response bodies.
/// - `folio_http_rejected_total{reason}`: requests refused before rendering (queue full, too large, …).
/// - `folio_render_duration_seconds{format}`: time from a worker starting a render to its end (histogram).
/// - `folio_renders_in_flight`, `folio_render_queue_depth`: renders running, renders waiting.
/// - `folio_http_connections_open`: open client connections.
/// - `folio_jobs{state}`: durable jobs in each state (queued, running, done, failed, cancelled).
/// - `folio_job_records_total{outcome}`: job records written or failed.
/// - `folio_job_queue_wait_seconds`: time from a job's acceptance to its start (histogram).
final class ServerMetrics: Sendable {
    /// The registry `/metrics` prints.
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let inFlight: Meter
    private let queueDepth: Meter
    private let openConnections: Meter

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
            .seconds(10), .seconds(30),
        ]
        self.factory = factory
        inFlight = Meter(label: "folio_renders_in_flight", factory: factory)
        queueDepth = Meter(label: "folio_render_queue_depth", factory: factory)
        openConnections = Meter(label: "folio_http_connections_open", factory: factory)
        inFlight.set(0)
        queueDepth.set(0)
        openConnections.set(0)
    }

    /// Counts one answered request.
    func request(route: String, status: Int, bytes: Int) {
        Counter(label: "folio_http_requests_total", dimensions: [("route", route), ("status", String(status))], factory: factory)
            .increment()
        Counter(label: "folio_http_response_bytes_total", dimensions: [("route", route)], factory: factory)
            .increment(by: bytes)
    }

    /// Counts one request refused for `reason` (`queue_full`, `body_too_large`, `unauthorized`, …).
    func rejected(_ reason: String) {
        Counter(label: "folio_http_rejected_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    /// Records one render's duration.
    func rendered(format: String, nanoseconds: Int64) {
        Metrics.Timer(label: "folio_render_duration_seconds", dimensions: [("format", format)], factory: factory)
            .recordNanoseconds(nanoseconds)
    }

    /// Sets the queue gauges.
    func pool(waiting: Int, running: Int) {
        queueDepth.set(waiting)
        inFlight.set(running)
    }

    /// Sets the open-connections gauge.
    func connections(_ count: Int) {
        openConnections.set(count)
    }

    /// Sets the job gauges from the store's counts.
    func jobs(_ counts: [Job.State: Int]) {
        for state in Job.State.allCases {
            Gauge(label: "folio_jobs", dimensions: [("state", state.rawValue)], factory: factory).record(counts[state] ?? 0)
        }
    }

    /// Counts one job record, written or failed.
    func jobRecord(written: Bool) {
        Counter(label: "folio_job_records_total", dimensions: [("outcome", written ? "written" : "failed")], factory: factory).increment()
    }

    /// Records how long a job waited before it started.
    func jobQueueWait(seconds: Double) {
        Metrics.Timer(label: "folio_job_queue_wait_seconds", factory: factory).recordNanoseconds(Int64((seconds * 1e9).clampedInt()))
    }

    /// The Prometheus text exposition of every metric.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}
