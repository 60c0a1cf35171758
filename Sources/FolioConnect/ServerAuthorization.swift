import FolioFiles
import FolioModel
import Foundation

/// How Folio proves to a FHIR server who it is: no token, a static token from a file, or SMART
/// Backend Services (a signed assertion traded for a short-lived token, renewed before it
/// expires). Shared by every command that talks to a server; tokens never appear in a message.
package final class ServerAuthorization: Sendable {
    /// The kinds of authorization.
    package enum Method: Sendable {
        /// No Authorization header (an open test server).
        case none
        /// A token handed out by the server's administrators, sent as it is.
        case staticToken(String)
        /// SMART Backend Services: the client id, its key and the scopes asked for (nil: the least the
        /// command needs, in the form the server's configuration says it supports).
        case backendServices(clientID: String, key: ClientKey, scope: String?)
    }

    private let method: Method
    private let base: ServerURL
    private let connection: ConnectionSettings
    private let neededScopes: [String]
    /// The token in use, when it expires and how long it was given for.
    private struct IssuedToken: Sendable {
        var token: String
        var expires: Date
        var lifetime: Double
    }

    private let current = Locked<IssuedToken?>(nil)

    /// Authorization by `method` for the server at `base`; `neededScopes` are the v2 scopes the command
    /// needs (`system/*.rs`), asked for in their v1 form (`system/*.read`) where the server is v1.
    package init(method: Method, base: ServerURL, connection: ConnectionSettings, neededScopes: [String]) {
        self.method = method
        self.base = base
        self.connection = connection
        self.neededScopes = neededScopes
    }

    /// The `Authorization` header line to send now (nil for none), a new token fetched first when the
    /// last one is near its end or `renew` is set (after a 401).
    package func header(renew: Bool = false) throws -> String? {
        switch method {
        case .none: return nil
        case .staticToken(let token): return "Authorization: Bearer \(token)"
        case .backendServices(let clientID, let key, let scope):
            let token = try current.withLock { issued throws -> String in
                if !renew, let held = issued, held.expires.timeIntervalSinceNow > min(60, held.lifetime / 2) { return held.token }
                let fresh = try requestToken(clientID: clientID, key: key, scope: scope)
                issued = fresh
                return fresh.token
            }
            return "Authorization: Bearer \(token)"
        }
    }

    /// Whether the server wants a token at all (a 401 is then worth one renewal).
    package var sendsTokens: Bool {
        if case .none = method { return false }
        return true
    }

    private func discoverTokenEndpoint() throws -> (ServerURL, v2: Bool) {
        let url = try base.appending(".well-known/smart-configuration", field: "--fhir-server")
        let answer = try HTTPExchange(method: "GET", url: url, headers: ["Accept: application/json"], maximumBytes: 1 << 20)
            .send(connection)
        guard answer.status == 200, let configuration = answer.jsonObject else {
            throw FolioError(
                path: "authorization",
                "\(url.shown) answered \(answer.status), not a SMART configuration: is this the FHIR base address?")
        }
        guard let endpoint = configuration["token_endpoint"] as? String else {
            throw FolioError(path: "authorization", "\(url.shown) names no token_endpoint")
        }
        let capabilities = configuration["capabilities"] as? [String] ?? []
        let scopes = configuration["scopes_supported"] as? [String] ?? []
        let saysV2 = capabilities.contains("permission-v2") || scopes.contains { $0.hasSuffix(".rs") || $0.hasSuffix(".cruds") }
        let saysV1 = capabilities.contains("permission-v1") || scopes.contains { $0.hasSuffix(".read") || $0.hasSuffix(".write") }
        return (try base.resolving(endpoint, field: "token_endpoint"), saysV2 || !saysV1)
    }

    private func requestToken(clientID: String, key: ClientKey, scope: String?) throws -> IssuedToken {
        let (endpoint, v2) = try discoverTokenEndpoint()
        let now = Date()
        let claims: [String: Any] = [
            "iss": clientID, "sub": clientID, "aud": endpoint.text,
            "exp": now.timeIntervalSince1970.clampedInt(.down) + 240,
            "jti": UUID().uuidString.lowercased(),
        ]
        let assertion = try key.sign(claims: try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        let asked = scope ?? (v2 ? neededScopes : neededScopes.map(Self.v1Form)).joined(separator: " ")
        let form = [
            ("scope", asked), ("grant_type", "client_credentials"),
            ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            ("client_assertion", assertion),
        ]
        .map { "\($0.0)=\(Self.formEncoded($0.1))" }.joined(separator: "&")
        let answer = try HTTPExchange(
            method: "POST", url: endpoint,
            headers: ["Content-Type: application/x-www-form-urlencoded", "Accept: application/json"], body: Data(form.utf8),
            maximumBytes: 1 << 20
        ).send(connection)
        guard answer.status == 200, let body = answer.jsonObject, let token = body["access_token"] as? String, !token.isEmpty,
            token.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline })
        else {
            let why = answer.outcomeText.map { ": \($0)" } ?? ""
            throw FolioError(
                path: "authorization",
                "the token endpoint \(endpoint.shown) refused client \(clientID) (\(answer.status))\(why); is its public key (kid \(key.keyID)) registered with the server?"
            )
        }
        let lifetime = (body["expires_in"] as? NSNumber)?.doubleValue ?? 300
        let bounded = lifetime.isFinite ? min(max(lifetime, 1), 86_400) : 300
        return IssuedToken(token: token, expires: now.addingTimeInterval(bounded), lifetime: bounded)
    }

    /// `system/*.rs` → `system/*.read`, `system/DocumentReference.c` → `system/DocumentReference.write`.
    package static func v1Form(_ scope: String) -> String {
        guard let dot = scope.lastIndex(of: ".") else { return scope }
        let permissions = scope[scope.index(after: dot)...]
        let writes = permissions.contains("c") || permissions.contains("u") || permissions.contains("d")
        return scope[..<dot] + (writes ? ".write" : ".read")
    }

    /// `text` as a form field's value (RFC 3986 unreserved characters kept).
    package static func formEncoded(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
