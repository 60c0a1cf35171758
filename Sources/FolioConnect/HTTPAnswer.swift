import Foundation

/// A server's answer: its status, header fields and (when not streamed to a file) its body.
package struct HTTPAnswer: Sendable {
    /// The HTTP status code.
    package var status: Int
    /// The header fields by lower-case name (a repeated field's values joined by ", ").
    package var headers: [String: String]
    /// The body, when it was kept in memory.
    package var body: Data
    /// The body's length in bytes, also when it went to a file.
    package var bytes: Int
    /// Its non-empty lines (an NDJSON file's resources).
    package var lines = 0

    /// An answer of `status` with the header lines of `headerText` ("name: value" lines).
    package init(status: Int, headerText: String, body: Data, bytes: Int) {
        self.status = status
        self.body = body
        self.bytes = bytes
        var fields: [String: String] = [:]
        for line in headerText.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        headers = fields
    }

    /// An answer made in memory (tests).
    package init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
        bytes = body.count
    }

    /// The seconds `Retry-After` asks to wait (a number of seconds or an HTTP date), if it says.
    package func retryAfter(now: Date = Date()) -> Double? {
        guard let value = headers["retry-after"] else { return nil }
        if let seconds = Double(value.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// The body as a JSON object, if it is one.
    package var jsonObject: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    /// The body's OperationOutcome (or OAuth error) said in one line, if it holds one.
    package var outcomeText: String? {
        guard let object = jsonObject else { return nil }
        if object["resourceType"] as? String == "OperationOutcome" {
            let issues = (object["issue"] as? [[String: Any]]) ?? []
            let said = issues.prefix(3).compactMap { issue -> String? in
                let details = (issue["details"] as? [String: Any])?["text"] as? String
                let words = issue["diagnostics"] as? String ?? details ?? issue["code"] as? String
                return words.map { oneLine($0) }
            }
            return said.isEmpty ? nil : said.joined(separator: "; ")
        }
        if let error = object["error"] as? String {
            let description = object["error_description"] as? String
            return oneLine(description.map { "\(error) (\($0))" } ?? error)
        }
        return nil
    }

    /// Whether the status is worth trying again: 429 (too many requests) or a transient 5xx.
    package var isTransient: Bool { status == 429 || status == 500 || status == 502 || status == 503 || status == 504 }

    private func oneLine(_ text: String) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > 300 ? String(flat.prefix(300)) + "…" : flat
    }
}
