import ArgumentParser
import Folio
import Foundation

/// `--sign-key`, `--sign-cert` and `--sign-chain`, the same for `render`, `batch` and `serve`:
/// every PDF is signed (PAdES baseline B-B) with a key the team holds.
struct SigningOptions: ParsableArguments {
    /// The environment variable an encrypted key's passphrase is read from.
    static let passphraseVariable = "FOLIO_SIGN_PASSPHRASE"

    @Option(
        name: .customLong("sign-key"),
        help: ArgumentHelp(
            "Sign every PDF (PAdES B-B) with this private key (RSA or ECDSA; PEM or DER), or a PKCS #12 bundle (.p12) with its certificate; an encrypted key's passphrase in FOLIO_SIGN_PASSPHRASE.",
            valueName: "KEY"))
    var key: String?

    @Option(
        name: .customLong("sign-cert"),
        help: ArgumentHelp(
            "The certificate of --sign-key (PEM, may be followed by its chain; or DER); not needed with a PKCS #12 bundle.",
            valueName: "CERT"))
    var certificate: String?

    @Option(
        name: .customLong("sign-chain"),
        help: ArgumentHelp(
            "More certificates to embed in each signature: the intermediates up to the root (PEM).", valueName: "CHAIN"))
    var chain: String?

    /// Whether signing was asked for.
    var isSigning: Bool { key != nil }

    func validate() throws {
        if certificate != nil, key == nil { throw ValidationError("--sign-cert needs --sign-key (the certificate's private key)") }
        if chain != nil, key == nil { throw ValidationError("--sign-chain needs --sign-key and --sign-cert") }
    }

    /// The signer, its files read and checked before anything is rendered (a key that is not the
    /// certificate's, a certificate not valid now, an unreadable file are errors; a key file others
    /// may read is a warning); nil when no signing was asked for.
    func load(warn: (String) -> Void) throws -> PDFSigner? {
        guard let key else { return nil }
        let largest = 1 << 20
        let keyData = try BoundedFile.read(key, limit: largest, field: "--sign-key", what: "private key", regularOnly: true)
        let certificateData = try certificate.map {
            try BoundedFile.read($0, limit: largest, field: "--sign-cert", what: "certificate", regularOnly: true)
        }
        let chainData = try chain.map { try BoundedFile.read($0, limit: largest, field: "--sign-chain", what: "chain", regularOnly: true) }
        let passphrase = ProcessInfo.processInfo.environment[SigningOptions.passphraseVariable]
        // Read once: render workers get the key from their supervisor, never from an inherited environment.
        unsetenv(SigningOptions.passphraseVariable)
        let signer = try PDFSigner(
            PDFSigner.Material(
                key: keyData, certificate: certificateData ?? Data(), chain: chainData ?? Data(),
                passphrase: passphrase?.isEmpty == false ? passphrase : nil))
        var info = stat()
        if stat(key, &info) == 0, info.st_mode & 0o077 != 0 {
            warn("--sign-key: \(key) can be read by other users (mode \(String(info.st_mode & 0o777, radix: 8))): chmod 600 it")
        }
        return signer
    }
}
