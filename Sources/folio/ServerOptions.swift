import ArgumentParser
import FolioConnect
import FolioFiles
import FolioModel
import Foundation

/// How a command reaches a FHIR server and proves who it is: SMART Backend Services
/// (`--client-id`, `--private-key`, `--key-id`, `--scope`) or a static `--token-file`, and the trust
/// store (`--ca-file`). Shared by every command that talks to a server.
struct ServerOptions: ParsableArguments {
    @Option(name: .customLong("client-id"), help: "SMART Backend Services: the client id the server registered.")
    var clientID: String?

    @Option(name: .customLong("private-key"), help: "SMART Backend Services: the client's RS384 or ES384 private key (PEM, mode 600).")
    var privateKey: String?

    @Option(name: .customLong("key-id"), help: "The key's id (kid) as registered; default: its JWK thumbprint (RFC 7638).")
    var keyID: String?

    @Option(help: "The scopes to ask for (default: the least the command needs, system/*.rs or its v1 form).")
    var scope: String?

    @Option(name: .customLong("token-file"), help: "A file whose first line is a bearer token the server handed out (instead of a key).")
    var tokenFile: String?

    @Option(name: .customLong("ca-file"), help: "A PEM file of the certificate authorities to trust instead of the system's.")
    var caFile: String?

    /// The authorization these options ask for, for the server at `base`, asking `neededScopes` by default.
    func authorization(base: ServerURL, neededScopes: [String]) throws -> ServerAuthorization {
        let method: ServerAuthorization.Method
        switch (clientID, privateKey, tokenFile) {
        case (let client?, let key?, nil):
            guard !client.isEmpty, client.count <= 256, !client.contains(where: { $0.isWhitespace || $0.isNewline }) else {
                throw FolioError(path: "--client-id", "expected up to 256 characters without spaces")
            }
            method = .backendServices(clientID: client, key: try ClientKey(path: key, keyID: keyID), scope: scope)
        case (nil, nil, let file?):
            method = .staticToken(
                try SecretFile.read(file, option: "--token-file", what: "token file").trimmingCharacters(in: .whitespaces))
        case (nil, nil, nil):
            method = .none
        case (_, _, .some):
            throw FolioError(path: "--token-file", "give --token-file or --client-id with --private-key, not both")
        case (nil, .some, nil):
            throw FolioError(path: "--client-id", "--private-key needs --client-id")
        case (.some, nil, nil):
            throw FolioError(path: "--private-key", "--client-id needs --private-key")
        }
        if let caFile {
            _ = try BoundedFile.read(caFile, limit: 4 << 20, field: "--ca-file", what: "CA file", regularOnly: true)
        }
        return ServerAuthorization(method: method, base: base, connection: connection, neededScopes: neededScopes)
    }

    /// The trust store.
    var connection: ConnectionSettings { ConnectionSettings(caFile: caFile) }
}
