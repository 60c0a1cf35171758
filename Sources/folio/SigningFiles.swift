import Folio
import FolioFiles
import Foundation

/// The files of `--sign-key`, `--sign-cert` and `--sign-chain`.
struct SigningFiles: Equatable {
    /// The private key, or a PKCS #12 bundle.
    var key: String
    /// The key's certificate (and its chain), unless the key is a bundle.
    var certificate: String?
    /// More certificates to embed.
    var chain: String?

    /// The signer, its files read and checked before anything is rendered (a key that is not the
    /// certificate's, a certificate not valid now, an unreadable file are errors; a key file others
    /// may read is a warning).
    func load(warn: (String) -> Void) throws -> PDFSigner {
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
