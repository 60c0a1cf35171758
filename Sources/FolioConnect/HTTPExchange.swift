internal import CHTTPClient
import FolioModel
import Foundation

/// One HTTP request to a FHIR server or its authorization server, made through libcurl (opened on
/// first use), with every address checked by `ServerURL` first.
package struct HTTPExchange: Sendable {
    /// GET, POST or DELETE.
    package var method: String
    /// Where the request goes (already checked: HTTPS, or HTTP to loopback).
    package var url: ServerURL
    /// Header lines, `Name: value`.
    package var headers: [String]
    /// The request's body, if any.
    package var body: Data?
    /// The most bytes of the answer's body kept in memory (or written to `output`).
    package var maximumBytes: Int
    /// The whole exchange's time limit in seconds (0: none, for downloads, whose stall limit holds).
    package var timeoutSeconds: Int
    /// Ask for gzip and inflate it.
    package var decompress: Bool
    /// Made even after Ctrl-C (the export's cancellation).
    package var despiteInterruption = false
    /// Connect only to the addresses this allows (checked as each connection opens); no redirects,
    /// no proxy. Nil for servers the operator named (a FHIR server), which may be anywhere.
    package var addressPolicy: AddressPolicy?

    /// A request of `method` to `url` with `headers` and `body`; answers up to `maximumBytes`.
    package init(
        method: String, url: ServerURL, headers: [String] = [], body: Data? = nil, maximumBytes: Int = 16 << 20,
        timeoutSeconds: Int = 120, decompress: Bool = true
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.maximumBytes = maximumBytes
        self.timeoutSeconds = timeoutSeconds
        self.decompress = decompress
    }

    /// Sends the request with the connection settings of `connection`; the answer's body is kept
    /// in memory, or streamed to `output` (a file descriptor) when one is given. A failure to get an
    /// answer at all (no connection, TLS refused, cut off) is an `HTTPFailure`.
    package func send(_ connection: ConnectionSettings, output: Int32? = nil) throws -> HTTPAnswer {
        var request = folio_http_request()
        var response = folio_http_response()
        let headerLines = headers.map { strdup($0) }
        defer { headerLines.forEach { free($0) } }
        let result: Int32 = method.withCString { methodText in
            url.text.withCString { urlText in
                withOptionalCString(connection.caFile) { caFile in
                    headerLines.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { lines in
                        withBody { bodyBytes, bodyLength in
                            (addressPolicy ?? AddressPolicy()).withNetworks { networks, networkCount in
                                request.method = methodText
                                request.url = urlText
                                request.headers = lines.baseAddress
                                request.header_count = lines.count
                                request.body = bodyBytes
                                request.body_length = bodyLength
                                request.output_fd = output ?? -1
                                request.maximum_bytes = maximumBytes
                                request.timeout_seconds = timeoutSeconds
                                request.connect_timeout_seconds = 30
                                request.ca_file = caFile
                                request.allow_plain_http = url.isPlainHTTP ? 1 : 0
                                request.decompress = decompress ? 1 : 0
                                request.despite_cancel = despiteInterruption ? 1 : 0
                                request.public_addresses_only = addressPolicy == nil ? 0 : 1
                                request.allowed_networks = networks
                                request.allowed_network_count = networkCount
                                return folio_http_perform(&request, &response)
                            }
                        }
                    }
                }
            }
        }
        defer { folio_http_response_free(&response) }
        if result != 0 {
            let reason = withUnsafeBytes(of: response.error) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw HTTPFailure(
                url: url, reason: reason, interrupted: response.cancelled != 0, tooLarge: response.exceeded != 0)
        }
        let headerText = response.headers.map { String(cString: $0) } ?? ""
        let bodyData = output == nil && response.body_length > 0 ? Data(bytes: response.body, count: response.body_length) : Data()
        var answer = HTTPAnswer(status: response.status, headerText: headerText, body: bodyData, bytes: response.bytes_written)
        answer.lines = response.lines
        return answer
    }

    private func withBody<R>(_ work: (UnsafeRawPointer?, Int) -> R) -> R {
        guard let body else { return work(nil, 0) }
        return body.withUnsafeBytes { raw in work(raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), raw.count) }
    }

    private func withOptionalCString<R>(_ text: String?, _ work: (UnsafePointer<CChar>?) -> R) -> R {
        guard let text else { return work(nil) }
        return text.withCString { work($0) }
    }

    /// Makes Ctrl-C and SIGTERM stop every exchange under way (and later ones not made despite it).
    package static func catchInterrupts() { folio_http_catch_interrupts() }

    /// Whether Ctrl-C or SIGTERM came.
    package static var interrupted: Bool { folio_http_is_cancelled() != 0 }

    /// Stops every exchange under way, as Ctrl-C does.
    package static func interrupt() { folio_http_cancel() }
}

/// How Folio connects: the trust store and the time limits.
package struct ConnectionSettings: Sendable {
    /// A PEM file of the certificate authorities to trust instead of the system's.
    package var caFile: String?

    /// The system's trust store, or the authorities in `caFile`.
    package init(caFile: String? = nil) { self.caFile = caFile }
}

/// A request that got no answer: the address and libcurl's reason (never a token).
package struct HTTPFailure: Error, CustomStringConvertible {
    /// Where the request went.
    package var url: ServerURL
    /// Why there is no answer.
    package var reason: String
    /// Ctrl-C stopped it.
    package var interrupted: Bool
    /// The answer was longer than allowed.
    package var tooLarge: Bool

    /// `GET https://…: reason`, one line.
    package var description: String { "\(url.shown): \(reason)" }
}
