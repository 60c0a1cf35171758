import Crypto
import FolioData
import FolioFiles
import FolioModel
import Foundation

/// Who may call the service: each client's bearer token, the templates it may render and the
/// secret its webhooks are signed with (`--tokens-file`), or the one token of `--token-file`
/// (client `default`, every template), or nobody's token on loopback (client `anonymous`).
/// A job is seen only by the client that created it.
public struct ServiceClients: Sendable {
    /// One client.
    public struct Client: Sendable, Equatable {
        /// Its name, as logs and jobs name it (1…64 of `A-Z a-z 0-9 . _ -`).
        public var name: String
        /// SHA-256 of its token: requests are compared digest to digest, in constant time.
        var tokenDigest: [UInt8]
        /// The templates it may render; nil for all.
        public var templates: Set<String>?
        /// Its webhook secret (`whsec_` and base64), nil when its jobs may have no webhook.
        var webhookSecret: String?

        /// Whether the client may render template `name`.
        func may(render name: String) -> Bool { templates?.contains(name) ?? true }
    }

    /// The clients with tokens; empty when the service needs none.
    public private(set) var clients: [Client] = []
    /// The webhook secret of the one client when there are no tokens, or one token (`--webhook-secret-file`).
    var defaultWebhookSecret: String?

    /// No tokens: every caller is client `anonymous`.
    public init() {}

    /// The one client `default` of `--token-file`'s `token`.
    public init(token: String, webhookSecret: String? = nil) {
        clients = [
            Client(name: "default", tokenDigest: Array(SHA256.hash(data: Array(token.utf8))), templates: nil, webhookSecret: webhookSecret)
        ]
    }

    /// Whether requests must carry a token.
    public var needsToken: Bool { !clients.isEmpty }

    /// The clients of a `--tokens-file`: `{"clients": [{"name", "token", "templates"?, "webhookSecret"?}]}`
    /// (JSON); errors name the field. The file must not be readable or writable by others.
    public init(tokensFile path: String) throws {
        let data = try BoundedFile.read(path, limit: 1 << 20, field: "--tokens-file", what: "tokens file", regularOnly: true)
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & 0o006 != 0 {
            throw FolioError(path: "--tokens-file", "\(path) can be read or written by others; chmod 600 it")
        }
        let tree: TreeValue
        do {
            tree = try JSONTreeParser.parse(data)
        } catch let error as FolioError {
            throw FolioError(path: "--tokens-file", "\(path) is not JSON: \(error.message)")
        }
        guard case .array(let entries)? = tree["clients"], !entries.isEmpty else {
            throw FolioError(path: "--tokens-file clients", "expected an array of at least one client")
        }
        var names = Set<String>()
        var digests = Set<[UInt8]>()
        for (index, entry) in entries.enumerated() {
            let field = "--tokens-file clients[\(index)]"
            guard case .object(let members) = entry else { throw FolioError(path: field, "expected an object") }
            for member in members where !["name", "token", "templates", "webhookSecret"].contains(member.key) {
                throw FolioError(path: "\(field).\(member.key)", "unknown field; expected name, token, templates or webhookSecret")
            }
            guard let name = entry["name"]?.text, ServiceClients.isValidName(name) else {
                throw FolioError(path: "\(field).name", "expected 1…64 of A-Z a-z 0-9 . _ -")
            }
            guard names.insert(name).inserted else { throw FolioError(path: "\(field).name", "\"\(name)\" is named twice") }
            guard let token = entry["token"]?.text else { throw FolioError(path: "\(field).token", "expected a string") }
            try ServiceClients.check(token: token, field: "\(field).token")
            let digest = Array(SHA256.hash(data: Array(token.utf8)))
            guard digests.insert(digest).inserted else { throw FolioError(path: "\(field).token", "another client has the same token") }
            var templates: Set<String>?
            switch entry["templates"] {
            case nil, .string("*")?: templates = nil
            case .array(let list)?:
                templates = []
                for (position, item) in list.enumerated() {
                    guard case .string(let template) = item, TemplateLibrary.isValidName(template) else {
                        throw FolioError(path: "\(field).templates[\(position)]", "expected a template's name")
                    }
                    templates?.insert(template)
                }
            default: throw FolioError(path: "\(field).templates", "expected an array of template names, or \"*\" for all")
            }
            var secret: String?
            if let value = entry["webhookSecret"] {
                guard case .string(let text) = value, WebhookEvent.key(ofSecret: text) != nil else {
                    throw FolioError(path: "\(field).webhookSecret", "expected whsec_ and the base64 of at least 16 random bytes")
                }
                secret = text
            }
            clients.append(Client(name: name, tokenDigest: digest, templates: templates, webhookSecret: secret))
        }
    }

    /// Checks a token as `--token-file` and `--tokens-file` need it.
    static func check(token: String, field: String) throws {
        guard token.utf8.count >= 16 else { throw FolioError(path: field, "the token must have at least 16 characters") }
        guard token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw FolioError(path: field, "the token must be printable ASCII without spaces")
        }
    }

    static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy {
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D || $0 == 0x5F
                    || $0 == 0x2E
            }
    }

    /// The client whose token an `Authorization: Bearer` value carries, compared with every
    /// client's in constant time; the anonymous client when no token is needed; nil when the
    /// token is missing or no client's.
    func client(authorization: String?) -> Client? {
        guard needsToken else {
            return Client(name: "anonymous", tokenDigest: [], templates: nil, webhookSecret: defaultWebhookSecret)
        }
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let given = Array(SHA256.hash(data: Array(parts[1].trimmingCharacters(in: .whitespaces).utf8)))
        var found: Client?
        for client in clients {
            var difference: UInt8 = 0
            for (a, b) in zip(given, client.tokenDigest) { difference |= a ^ b }
            if difference == 0 && given.count == client.tokenDigest.count { found = client }
        }
        return found
    }

    /// The webhook secret of client `name`.
    func webhookSecret(of name: String) -> String? {
        clients.first { $0.name == name }?.webhookSecret ?? (name == "anonymous" || name == "default" ? defaultWebhookSecret : nil)
    }
}
