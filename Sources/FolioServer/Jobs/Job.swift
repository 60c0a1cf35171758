import Foundation

/// A durable render job of `folio serve` (`POST /v1/jobs`): a template and its records, or one
/// document, rendered in the background into its folder under `--job-dir`, as its store keeps it.
struct Job: Sendable, Equatable {
    /// Where a job is.
    enum State: String, Sendable, CaseIterable {
        /// Stored, waiting for a server to run it.
        case queued
        /// A server holds its lease and renders it.
        case running
        /// Every record was rendered or failed alone (its failures listed).
        case done
        /// The job as a whole could not be rendered (its records unreadable, its template gone).
        case failed
        /// Cancelled by its client (`DELETE`).
        case cancelled

        /// Whether the job will not change any more.
        var isFinished: Bool { self == .done || self == .failed || self == .cancelled }
    }

    /// What a job renders.
    enum Input: String, Sendable {
        /// One document (JSON or YAML), into one file per format.
        case documentJSON = "document-json"
        case documentYAML = "document-yaml"
        /// A template's records as JSON lines, a JSON array or CSV.
        case jsonLines = "jsonl"
        case jsonArray = "json"
        case csv
        /// A FHIR R4 Bundle, or FHIR NDJSON: one record per patient.
        case fhirBundle = "fhir-bundle"
        case fhirNDJSON = "fhir-ndjson"

        /// Whether the input is one document rather than a template's records.
        var isDocument: Bool { self == .documentJSON || self == .documentYAML }
        /// Whether the input is FHIR data.
        var isFHIR: Bool { self == .fhirBundle || self == .fhirNDJSON }
        /// The name of the input's file in the job's folder.
        var fileName: String {
            switch self {
            case .documentJSON: return "input.json"
            case .documentYAML: return "input.yaml"
            case .jsonLines: return "input.jsonl"
            case .jsonArray: return "input.json"
            case .csv: return "input.csv"
            case .fhirBundle: return "input.json"
            case .fhirNDJSON: return "input.ndjson"
            }
        }
    }

    /// The job's id: 32 lowercase hexadecimal digits from the system's random source (128 bits).
    var id: String
    /// The client (`--tokens-file` name) that created it; only it sees the job.
    var client: String
    /// The client's `Idempotency-Key`, if it sent one.
    var idempotencyKey: String?
    /// The template's name; nil for a document.
    var template: String?
    var input: Input
    /// The formats written for each record (`pdf`, `html`).
    var formats: [String]
    /// HTML outputs as pages, fragments or shadow-root fragments.
    var html: String
    /// FHIR input: the period and zone of the summaries.
    var period: String?
    var zone: String?
    /// Where the job's events go, if anywhere (checked when the job was accepted).
    var webhook: String?
    /// The caller's W3C `traceparent`, carried on to the webhook.
    var traceparent: String?
    var state: State
    /// Seconds since 1970.
    var created: Double
    var started: Double?
    var finished: Double?
    /// Records in the job (known once it has started), written and failed.
    var total: Int
    var written: Int
    var failed: Int
    /// Why a failed job failed.
    var error: String?
    /// The client asked to cancel a running job.
    var cancelRequested: Bool
}

/// One webhook event waiting to be delivered, or delivered, as the store keeps it.
struct WebhookDelivery: Sendable, Equatable {
    /// The event's `webhook-id` (the same on every attempt, for the receiver to deduplicate by).
    var id: String
    var job: String
    var client: String
    var url: String
    /// The event's JSON body, the same on every attempt.
    var body: String
    var traceparent: String?
    /// Seconds since 1970 the event was made, and of the next attempt.
    var created: Double
    var nextAttempt: Double
    var attempts: Int
}
