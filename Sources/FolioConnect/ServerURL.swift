import FolioModel
import Foundation

/// An address Folio may send a request to: HTTPS, or plain HTTP to this machine (loopback) only,
/// with no user name or password in it. Every address — the base given on the command line, the
/// token endpoint a server names, a status URL, each file of a manifest — is checked so.
package struct ServerURL: Sendable, Equatable, CustomStringConvertible {
    /// The address as sent.
    package let text: String
    /// Whether it is plain HTTP (to loopback).
    package let isPlainHTTP: Bool

    /// `text` checked; `field` names it in the one-line error (`--fhir-server`, `manifest.output[3].url`).
    package init(_ text: String, field: String) throws {
        guard text.count <= 8192, !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }),
            let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else {
            throw FolioError(path: field, "expected an https:// address, found \(Self.shown(text))")
        }
        guard components.user == nil, components.password == nil else {
            throw FolioError(path: field, "an address must not hold a user name or password")
        }
        switch scheme {
        case "https": isPlainHTTP = false
        case "http":
            guard Self.isLoopback(host) else {
                throw FolioError(path: field, "plain http:// is allowed to this machine (loopback) only; use https:// for \(host)")
            }
            isPlainHTTP = true
        default:
            throw FolioError(path: field, "expected an https:// address, found a \(scheme): one")
        }
        self.text = text
    }

    /// Whether `host` is this machine: localhost, 127.0.0.0/8 or ::1.
    package static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// `relative` (an absolute address, or a path) read against this address, then checked.
    package func resolving(_ relative: String, field: String) throws -> ServerURL {
        guard let base = URL(string: text), let resolved = URL(string: relative, relativeTo: base)?.absoluteString else {
            throw FolioError(path: field, "expected an address, found \(Self.shown(relative))")
        }
        return try ServerURL(resolved, field: field)
    }

    /// This address (a FHIR base) with `path` appended after one slash.
    package func appending(_ path: String, field: String) throws -> ServerURL {
        let base = text.hasSuffix("/") ? String(text.dropLast()) : text
        return try ServerURL(base + "/" + path, field: field)
    }

    /// The address without its query (which may hold a signed link's secret), for messages.
    package var shown: String { Self.shown(text) }

    /// The address as shown in messages.
    package var description: String { shown }

    private static func shown(_ text: String) -> String {
        let cut = text.split(separator: "?", maxSplits: 1).first.map(String.init) ?? text
        let short = cut.count > 200 ? String(cut.prefix(200)) + "…" : cut
        return short.escapingInvisibleControls
    }
}
