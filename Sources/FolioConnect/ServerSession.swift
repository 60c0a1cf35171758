import FolioModel
import Foundation

/// Requests to one FHIR server with its authorization, retried as servers ask: 429 and transient
/// 5xx answers (and lost connections) again after `Retry-After` or an exponential back-off with
/// jitter, a 401 once with a new token. Shared by `folio fetch` and the commands that post.
package final class ServerSession: Sendable {
    /// The server's base address.
    package let base: ServerURL
    /// How Folio proves who it is.
    package let authorization: ServerAuthorization
    /// The trust store.
    package let connection: ConnectionSettings
    /// How many times a transient failure is tried again before it is an error.
    package let attempts: Int
    /// The longest wait between two attempts, in seconds.
    package let longestBackOff: Double

    /// A session with `base`; `attempts` tries of a transient failure, waits up to `longestBackOff` s.
    package init(
        base: ServerURL, authorization: ServerAuthorization, connection: ConnectionSettings, attempts: Int = 8,
        longestBackOff: Double = 120
    ) {
        self.base = base
        self.authorization = authorization
        self.connection = connection
        self.attempts = attempts
        self.longestBackOff = longestBackOff
    }

    /// Sends `exchange` (with the token when `authorized`), retrying as the type says; `output`
    /// receives a streamed body (`prepare` is called before each attempt to empty it).
    package func send(
        _ exchange: HTTPExchange, authorized: Bool = true, output: Int32? = nil, prepare: () throws -> Void = {}
    ) throws -> HTTPAnswer {
        var renewed = false
        var attempt = 0
        while true {
            var request = exchange
            if authorized, let header = try authorization.header() { request.headers.append(header) }
            try prepare()
            let answer: HTTPAnswer
            do {
                answer = try request.send(connection, output: output)
            } catch let failure as HTTPFailure {
                if failure.interrupted { throw FetchInterrupted() }
                attempt += 1
                guard !failure.tooLarge, attempt < attempts else {
                    throw FolioError(path: "", "\(exchange.method) \(failure.description)")
                }
                try Self.pause(backOff(attempt))
                continue
            }
            if answer.status == 401, authorized, authorization.sendsTokens, !renewed {
                renewed = true
                _ = try authorization.header(renew: true)
                continue
            }
            if answer.isTransient {
                attempt += 1
                if attempt < attempts {
                    try Self.pause(min(answer.retryAfter() ?? backOff(attempt), longestBackOff))
                    continue
                }
            }
            return answer
        }
    }

    /// The wait before attempt `attempt` (1, 2, …): 2^(attempt-1) s with jitter, at most `longestBackOff`.
    package func backOff(_ attempt: Int) -> Double {
        let full = min(pow(2, Double(max(0, attempt - 1))), longestBackOff)
        return full * Double.random(in: 0.5...1)
    }

    /// Sleeps `seconds`, ended early by Ctrl-C (then `FetchInterrupted`).
    package static func pause(_ seconds: Double) throws {
        var left = max(0, seconds)
        while left > 0 {
            if HTTPExchange.interrupted { throw FetchInterrupted() }
            let step = min(left, 0.1)
            usleep(UInt32(clamping: (step * 1_000_000).clampedInt()))
            left -= step
        }
        if HTTPExchange.interrupted { throw FetchInterrupted() }
    }

    /// A one-line error for an answer that is not what was expected.
    package static func refusal(_ what: String, _ answer: HTTPAnswer, url: ServerURL) -> FolioError {
        let why = answer.outcomeText.map { ": \($0)" } ?? ""
        return FolioError(path: "", "\(what) \(url.shown) answered \(answer.status)\(why)")
    }
}

/// Ctrl-C or SIGTERM stopped the work.
package struct FetchInterrupted: Error {
    /// The interruption.
    package init() {}
}
