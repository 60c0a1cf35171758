import Crypto
import FolioData
import Foundation

/// A job's webhook event as the Standard Webhooks specification (standardwebhooks.com) has it: a
/// JSON body `{"type", "timestamp", "data"}` carrying ids and counts only (never a patient's data),
/// signed with the client's secret over `webhook-id.webhook-timestamp.body` (HMAC-SHA256, base64),
/// sent in `webhook-signature` as `v1,<signature>`.
enum WebhookEvent {
    /// The event that job `job` ended (`job.done` or `job.failed`), to be sent to `url`.
    static func delivery(for job: Job, url: String) -> WebhookDelivery? {
        guard job.state == .done || job.state == .failed, let finished = job.finished else { return nil }
        let data: [(key: String, value: TreeValue)] = [
            ("id", .string(job.id)), ("state", .string(job.state.rawValue)), ("template", job.template.map(TreeValue.string) ?? .null),
            ("total", .number(Double(job.total))), ("written", .number(Double(job.written))), ("failed", .number(Double(job.failed))),
        ]
        let body = TreeValue.object([
            ("type", .string(job.state == .done ? "job.done" : "job.failed")),
            ("timestamp", .string(UTCTimestamp.text(finished))),
            ("data", .object(data)),
        ]).json
        return WebhookDelivery(
            id: "msg_" + JobIdentifier.make(), job: job.id, client: job.client, url: url, body: body, traceparent: job.traceparent,
            created: finished, nextAttempt: finished, attempts: 0)
    }

    /// The key of a Standard Webhooks secret: the base64 after `whsec_` (the prefix is optional);
    /// nil when it is not base64 of at least 16 bytes.
    static func key(ofSecret secret: String) -> SymmetricKey? {
        let encoded = secret.hasPrefix("whsec_") ? String(secret.dropFirst(6)) : secret
        guard let bytes = Data(base64Encoded: encoded), bytes.count >= 16 else { return nil }
        return SymmetricKey(data: bytes)
    }

    /// `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
    static func signature(id: String, timestamp: Int, body: String, key: SymmetricKey) -> String {
        let content = Data("\(id).\(timestamp).\(body)".utf8)
        let mac = HMAC<SHA256>.authenticationCode(for: content, using: key)
        return "v1," + Data(mac).base64EncodedString()
    }
}
