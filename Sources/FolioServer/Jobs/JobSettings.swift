import FolioConnect
import FolioModel
import Foundation

/// How `folio serve` keeps and runs durable jobs (`--job-dir` and the options beside it).
public struct JobSettings: Sendable {
    /// The folder of every job's input and documents (`--job-dir`).
    public var directory: URL
    /// The store (`--job-store`): `sqlite:PATH` (one machine; by default `jobs.sqlite` in `directory`) or
    /// `postgresql://USER@HOST[:PORT]/DATABASE` (several servers sharing one queue and one `directory`).
    public var store: String?
    /// Seconds a finished job and its documents are kept (`--job-retention`, 7 days by default).
    public var retentionSeconds: Double = 7 * 86_400
    /// The largest job input, in bytes (`--max-job-bytes`).
    public var maxInputBytes = 1 << 30
    /// Jobs a client may have queued or running at once (`--max-jobs-per-client`); beyond, 429.
    public var maxUnfinishedJobsPerClient = 10_000
    /// Private networks webhooks may reach all the same (`--webhook-allow CIDR`).
    package var webhookAllowed: [AddressPolicy.Network] = []
    /// Seconds a webhook event is retried for before it is given up (a day).
    public var webhookRetrySeconds: Double = 86_400
    /// Seconds a server's lease of a job lasts without being renewed.
    public var leaseSeconds: Double = 30

    /// Jobs kept in `directory`.
    public init(directory: URL) { self.directory = directory }

    /// Where the store is.
    enum StoreLocation: Equatable {
        case sqlite(path: String)
        case postgres(PostgresLocation)
    }

    /// The store `store` names.
    func storeLocation() throws -> StoreLocation {
        guard let store else { return .sqlite(path: directory.appendingPathComponent("jobs.sqlite").path) }
        if store.hasPrefix("sqlite:") {
            guard store.count > 7 else { throw FolioError(path: "--job-store", "expected sqlite:PATH, found \"\(store)\"") }
            return .sqlite(path: String(store.dropFirst(7)))
        }
        if store.hasPrefix("postgres") { return .postgres(try PostgresLocation(store)) }
        throw FolioError(
            path: "--job-store", "expected sqlite:PATH or postgresql://USER@HOST/DATABASE, found \"\(PostgresLocation.shown(store))\"")
    }

    /// Checks the settings; errors name the option.
    public func validate() throws {
        _ = try storeLocation()
        guard retentionSeconds >= 60, retentionSeconds <= 366 * 86_400 else {
            throw FolioError(path: "--job-retention", "must be 60 seconds to 366 days")
        }
        guard maxInputBytes >= 1024, maxInputBytes <= 1 << 40 else {
            throw FolioError(path: "--max-job-bytes", "must be 1024 bytes to 1 TB")
        }
        guard (1...1_000_000).contains(maxUnfinishedJobsPerClient) else {
            throw FolioError(path: "--max-jobs-per-client", "must be 1…1000000")
        }
        guard leaseSeconds >= 3, leaseSeconds <= 3600 else { throw FolioError(path: "--job-lease", "must be 3…3600 seconds") }
    }
}
