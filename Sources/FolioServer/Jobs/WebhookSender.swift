import FolioConnect
import FolioModel
import Foundation
import Logging

/// Delivers the store's webhook events: at least once (an event is settled only after a `2xx`),
/// each with the same `webhook-id` on every attempt so a receiver can drop a second copy; a
/// connection error, `408`, `429` or `5xx` is tried again after 1, 2, 4, 8 … seconds (at most an
/// hour, ±25 % jitter; `Retry-After` honoured) for `webhookRetrySeconds` (a day); any other answer
/// gives the event up. Only public and loopback addresses (and `--webhook-allow` networks) are
/// connected to, checked after the name is resolved.
final class WebhookSender: Sendable {
    private let store: any JobStore
    private let callers: ServiceClients
    private let settings: JobSettings
    private let owner: LeaseOwner
    private let logger: Logger
    private let stopped = Locked(false)

    init(store: any JobStore, callers: ServiceClients, settings: JobSettings, owner: LeaseOwner, logger: Logger) {
        self.store = store
        self.callers = callers
        self.settings = settings
        self.owner = owner
        self.logger = logger
    }

    /// Sends due events until `stop`.
    func run() async {
        while !stopped.value && !Task.isCancelled {
            let now = Date().timeIntervalSince1970
            let due = (try? await store.dueDeliveries(owner: owner, now: now, leaseUntil: now + 120, limit: 8)) ?? []
            if due.isEmpty {
                try? await Task.sleep(nanoseconds: 250_000_000)
                continue
            }
            await withTaskGroup(of: Void.self) { group in
                for delivery in due {
                    group.addTask {
                        // libcurl's exchange blocks its thread: one of its own, not the concurrency pool's.
                        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Attempt, Never>) in
                            Thread.detachNewThread { continuation.resume(returning: self.attempt(delivery)) }
                        }
                        await self.record(outcome, of: delivery)
                    }
                }
            }
        }
    }

    func stop() { stopped.set(true) }

    /// What one attempt came to.
    enum Attempt: Equatable {
        case delivered
        case retry(reason: String, after: Double?)
        case giveUp(String)
    }

    /// Stores what became of `delivery`'s attempt: settled, or due again later.
    private func record(_ outcome: Attempt, of delivery: WebhookDelivery) async {
        let attempts = delivery.attempts + 1
        let now = Date().timeIntervalSince1970
        do {
            switch outcome {
            case .delivered:
                try await store.settleDelivery(id: delivery.id, abandoned: nil)
                logger.info("webhook delivered", metadata: ["job": .string(delivery.job), "event": .string(delivery.id)])
            case .giveUp(let reason):
                try await store.settleDelivery(id: delivery.id, abandoned: reason)
                logger.warning("webhook given up", metadata: ["job": .string(delivery.job), "reason": .string(reason)])
            case .retry(let reason, let after):
                let next = now + WebhookSender.delay(afterAttempt: attempts, retryAfter: after)
                if next - delivery.created > settings.webhookRetrySeconds {
                    try await store.settleDelivery(id: delivery.id, abandoned: "still failing after \(attempts) attempts: \(reason)")
                    logger.warning("webhook given up", metadata: ["job": .string(delivery.job), "reason": .string(reason)])
                } else {
                    try await store.retryDelivery(id: delivery.id, attempts: attempts, next: next, error: reason)
                    logger.info(
                        "webhook will be tried again",
                        metadata: ["job": .string(delivery.job), "attempts": .stringConvertible(attempts), "reason": .string(reason)])
                }
            }
        } catch {
            logger.error("the job store failed", metadata: ["error": .string("\(error)")])
        }
    }

    /// Seconds before attempt `attempts + 1`: 2^(attempts−1), at most an hour, ±25 %; at least `retryAfter`.
    static func delay(afterAttempt attempts: Int, retryAfter: Double?) -> Double {
        let base = min(3600, pow(2, Double(max(0, min(attempts - 1, 20)))))
        let jittered = base * Double.random(in: 0.75...1.25)
        return max(jittered, min(retryAfter ?? 0, 3600))
    }

    private func attempt(_ delivery: WebhookDelivery) -> Attempt {
        guard let secret = callers.webhookSecret(of: delivery.client), let key = WebhookEvent.key(ofSecret: secret) else {
            return .giveUp("the client \(delivery.client) has no webhook secret any more")
        }
        let url: ServerURL
        do {
            url = try ServerURL(delivery.url, field: "webhook")
        } catch {
            return .giveUp("\(error)")
        }
        let timestamp = Int(Date().timeIntervalSince1970.rounded(.down))
        var headers = [
            "Content-Type: application/json", "webhook-id: \(delivery.id)", "webhook-timestamp: \(timestamp)",
            "webhook-signature: \(WebhookEvent.signature(id: delivery.id, timestamp: timestamp, body: delivery.body, key: key))",
        ]
        if let traceparent = delivery.traceparent { headers.append("traceparent: \(traceparent)") }
        var exchange = HTTPExchange(
            method: "POST", url: url, headers: headers, body: Data(delivery.body.utf8), maximumBytes: 64 << 10, timeoutSeconds: 30,
            decompress: false)
        exchange.addressPolicy = AddressPolicy(allowed: settings.webhookAllowed)
        exchange.despiteInterruption = true
        let answer: HTTPAnswer
        do {
            answer = try exchange.send(ConnectionSettings())
        } catch let failure as HTTPFailure {
            if failure.reason.hasPrefix("refused to connect") { return .giveUp(failure.reason) }
            return .retry(reason: failure.reason, after: nil)
        } catch {
            return .retry(reason: "\(error)", after: nil)
        }
        switch answer.status {
        case 200..<300: return .delivered
        case 408, 429, 500..<600:
            let after = answer.headers["retry-after"].flatMap(Double.init)
            return .retry(reason: "the receiver answered \(answer.status)", after: after)
        default: return .giveUp("the receiver answered \(answer.status)")
        }
    }
}
