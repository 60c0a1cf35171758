import Crypto
import FolioFiles
import FolioModel
import Foundation
import _CryptoExtras

/// The private key a backend client signs its SMART Backend Services assertions with: RSA (RS384,
/// 2,048 bits or more) or elliptic-curve P-384 (ES384), read from a PEM file no one but its owner
/// (and its group, to read) may read or change. The key never appears in a message, a log or a file Folio writes; its public half is
/// what `folio fetch --print-jwks` prints for the server's registration.
package struct ClientKey: Sendable {
    /// The key's DER bytes by kind (swift-crypto's P-384 key is not Sendable: it is made again to sign).
    private enum Material: Sendable {
        case rsa(Data)
        case ec(Data)

        var rsaKey: _RSA.Signing.PrivateKey? {
            guard case .rsa(let der) = self else { return nil }
            return try? _RSA.Signing.PrivateKey(derRepresentation: der)
        }

        var ecKey: P384.Signing.PrivateKey? {
            guard case .ec(let der) = self else { return nil }
            return try? P384.Signing.PrivateKey(derRepresentation: der)
        }
    }

    private let material: Material
    /// The key's id (`kid`): the one given, else the JWK thumbprint of its public half (RFC 7638).
    package let keyID: String

    /// The JWS algorithm: RS384 or ES384.
    package var algorithm: String {
        switch material {
        case .rsa: "RS384"
        case .ec: "ES384"
        }
    }

    /// The largest key file read.
    package static let maximumFileBytes = 64 * 1024

    /// Reads the PEM key at `path` (`option` names it in errors); `keyID` overrides the thumbprint.
    package init(path: String, keyID: String?, option: String = "--private-key") throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw FolioError(path: option, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        // Its owner's (and, as a Kubernetes Secret mounted for the pod's group, its group's to read): never others'.
        guard info.st_mode & 0o027 == 0 else {
            throw FolioError(
                path: option,
                "\(path) may be read or changed by others (mode \(String(info.st_mode & 0o777, radix: 8))); make it chmod 600 (or 640)")
        }
        let data = try BoundedFile.read(path, limit: Self.maximumFileBytes, field: option, what: "private key", regularOnly: true)
        guard let pem = String(data: data, encoding: .utf8) else {
            throw FolioError(path: option, "\(path) is not a PEM file")
        }
        try self.init(pem: pem, keyID: keyID, option: option)
    }

    /// The key in `pem` (tests and the service's configuration).
    package init(pem: String, keyID: String?, option: String = "--private-key") throws {
        let material: Material
        if let rsa = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) {
            guard rsa.keySizeInBits >= 2048 else {
                throw FolioError(path: option, "an RSA key of \(rsa.keySizeInBits) bits is too weak; use 2,048 bits or more")
            }
            material = .rsa(rsa.derRepresentation)
        } else if let ec = try? P384.Signing.PrivateKey(pemRepresentation: pem) {
            material = .ec(ec.derRepresentation)
        } else {
            throw FolioError(path: option, "expected an RSA or P-384 private key in PEM (RS384 or ES384); found neither")
        }
        if let keyID {
            guard !keyID.isEmpty, keyID.count <= 200, keyID.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "\"" }) else {
                throw FolioError(path: "--key-id", "expected up to 200 printable ASCII characters without spaces or quotes")
            }
            self.init(material: material, keyID: keyID)
        } else {
            self.init(material: material, keyID: try Self.thumbprint(of: material))
        }
    }

    private init(material: Material, keyID: String) {
        self.material = material
        self.keyID = keyID
    }

    /// The public half as a JWK (`kty`, `alg`, `kid`, `use`, and `n`/`e` or `crv`/`x`/`y`).
    package func publicJWK() throws -> [String: String] {
        var jwk = try Self.publicMembers(of: material)
        jwk["alg"] = algorithm
        jwk["kid"] = keyID
        jwk["use"] = "sig"
        return jwk
    }

    /// A compact JWS of `claims` (a JSON object's bytes) signed with this key.
    package func sign(claims: Data) throws -> String {
        let header = try JSONSerialization.data(
            withJSONObject: ["alg": algorithm, "typ": "JWT", "kid": keyID], options: [.sortedKeys])
        let input = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        let signature: Data
        if let key = material.rsaKey {
            signature = try key.signature(for: SHA384.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5).rawRepresentation
        } else if let key = material.ecKey {
            signature = try key.signature(for: Data(input.utf8)).rawRepresentation
        } else {
            throw FolioError(path: "--private-key", "the key could not be read again to sign")
        }
        return input + "." + Base64URL.encode(signature)
    }

    private static func publicMembers(of material: Material) throws -> [String: String] {
        if let key = material.rsaKey {
            let primitives = try key.publicKey.getKeyPrimitives()
            return ["kty": "RSA", "n": Base64URL.encode(primitives.modulus), "e": Base64URL.encode(primitives.publicExponent)]
        }
        guard let key = material.ecKey else { throw FolioError(path: "--private-key", "the key could not be read again") }
        let raw = key.publicKey.rawRepresentation
        return ["kty": "EC", "crv": "P-384", "x": Base64URL.encode(raw.prefix(48)), "y": Base64URL.encode(raw.suffix(48))]
    }

    /// RFC 7638: SHA-256 of the required members in lexicographic order, without spaces.
    private static func thumbprint(of material: Material) throws -> String {
        let members = try publicMembers(of: material)
        let required = members["kty"] == "RSA" ? ["e", "kty", "n"] : ["crv", "kty", "x", "y"]
        let json = "{" + required.map { "\"\($0)\":\"\(members[$0] ?? "")\"" }.joined(separator: ",") + "}"
        return Base64URL.encode(Data(SHA256.hash(data: Data(json.utf8))))
    }
}

/// Base64url without padding (RFC 7515 §2).
package enum Base64URL {
    /// `data` in base64url.
    package static func encode(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url `text`, if it is that.
    package static func decode(_ text: some StringProtocol) -> Data? {
        var base = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base.count % 4 != 0 { base += "=" }
        return Data(base64Encoded: base)
    }
}
