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

    /// The files given, as plain values; nil when no signing was asked for.
    var files: SigningFiles? { key.map { SigningFiles(key: $0, certificate: certificate, chain: chain) } }

    /// The signer, its files read and checked before anything is rendered (see `SigningFiles.load`);
    /// nil when no signing was asked for.
    func load(warn: (String) -> Void) throws -> PDFSigner? { try files?.load(warn: warn) }
}
