import CPDFFinish
import FolioGraphics
import FolioModel
import Foundation

/// A private key and its certificate that sign every PDF rendered with them (`RenderOptions.signer`):
/// PAdES baseline B-B, a detached CMS (SubFilter ETSI.CAdES.detached) over SHA-256 of the entire
/// file with the signing-certificate-v2 attribute, made by OpenSSL's libcrypto in the finishing
/// step, in an invisible signature field that a tagged document describes as a Form element.
///
/// Loading checks what would make every signature worthless before anything is rendered: a key
/// that is not the certificate's, a certificate not valid now or not meant for signing. One signer
/// serves any number of threads.
public final class PDFSigner: @unchecked Sendable {
    /// The files a signer is made from; a render worker process makes its own signer from them.
    public struct Material: Sendable, CustomStringConvertible {
        /// The private key (PKCS #8 or traditional PEM, or DER; encrypted or not), or a PKCS #12
        /// bundle of the key, its certificate and chain.
        public var key: Data
        /// The signing certificate (PEM, optionally followed by its chain, or DER); empty to take
        /// a PKCS #12 bundle's.
        public var certificate: Data
        /// More certificates to embed (intermediates up to the root); empty for none.
        public var chain: Data
        /// The passphrase of an encrypted key.
        public var passphrase: String?

        /// Material from the files' bytes.
        public init(key: Data, certificate: Data = Data(), chain: Data = Data(), passphrase: String? = nil) {
            self.key = key
            self.certificate = certificate
            self.chain = chain
            self.passphrase = passphrase
        }

        /// Never the key or the passphrase.
        public var description: String { "PDFSigner.Material(certificate: \(certificate.count) bytes, key and passphrase hidden)" }
    }

    /// The files this signer was made from.
    public let material: Material
    /// The certificate subject's common name ("" when it has none), written as the signature's /Name.
    public let commonName: String
    /// When the certificate becomes valid.
    public let notBefore: Date
    /// When the certificate expires.
    public let notAfter: Date
    let pointer: OpaquePointer

    /// A signer from `material`, whose certificate must be valid at `now`; errors name the option
    /// the part comes from (`--sign-key`, `--sign-cert`, `--sign-chain`) and never the key or passphrase.
    public init(_ material: Material, now: Date = Date()) throws {
        var problem = FOLIO_SIGNER_OK
        var message = [CChar](repeating: 0, count: 512)
        let signer = material.key.withUnsafeBytes { key in
            material.certificate.withUnsafeBytes { certificate in
                material.chain.withUnsafeBytes { chain in
                    folio_pdf_signer_create(
                        key.bindMemory(to: CChar.self).baseAddress, key.count, certificate.bindMemory(to: CChar.self).baseAddress,
                        certificate.count, chain.bindMemory(to: CChar.self).baseAddress, chain.count, material.passphrase, &problem,
                        &message, message.count)
                }
            }
        }
        guard let signer else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            switch problem {
            case FOLIO_SIGNER_BAD_CERTIFICATE, FOLIO_SIGNER_USAGE: throw FolioError(path: "--sign-cert", reason)
            case FOLIO_SIGNER_BAD_CHAIN: throw FolioError(path: "--sign-chain", reason)
            case FOLIO_SIGNER_KEY_MISMATCH: throw FolioError(path: "--sign-key", "\(reason) in --sign-cert")
            default: throw FolioError(path: "--sign-key", reason)
            }
        }
        var notBefore: Int64 = 0
        var notAfter: Int64 = 0
        var name = [CChar](repeating: 0, count: 256)
        folio_pdf_signer_describe(signer, &notBefore, &notAfter, &name, name.count)
        self.pointer = signer
        self.material = material
        self.commonName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.notBefore = Date(timeIntervalSince1970: TimeInterval(notBefore))
        self.notAfter = Date(timeIntervalSince1970: TimeInterval(notAfter))
        if now >= self.notAfter {
            throw FolioError(path: "--sign-cert", "the certificate expired on \(ISODate.dateTime(self.notAfter.timeIntervalSince1970))")
        }
        if now < self.notBefore {
            throw FolioError(
                path: "--sign-cert", "the certificate is not valid before \(ISODate.dateTime(self.notBefore.timeIntervalSince1970))")
        }
    }

    deinit { folio_pdf_signer_free(pointer) }
}
