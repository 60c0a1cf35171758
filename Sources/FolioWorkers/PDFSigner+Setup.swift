import FolioData
import FolioPDF
import Foundation

extension PDFSigner {
    /// `material` as a member of a render worker's setup message (the files' bytes in base64: a
    /// PKCS #12 bundle or a DER file is binary), so that each worker makes its own signer from the
    /// files its supervisor read and checked (the socket is the two processes' own).
    package static func setupValue(_ material: Material) -> TreeValue {
        .object([
            ("key", .string(material.key.base64EncodedString())),
            ("certificate", .string(material.certificate.base64EncodedString())),
            ("chain", .string(material.chain.base64EncodedString())),
            ("passphrase", material.passphrase.map(TreeValue.string) ?? .null),
        ])
    }

    /// The signer a setup message member describes; nil for `null` (no signing).
    package convenience init?(setupValue value: TreeValue) throws {
        guard case .string(let key)? = value["key"], let keyData = Data(base64Encoded: key) else { return nil }
        var passphrase: String?
        if case .string(let text)? = value["passphrase"] { passphrase = text }
        try self.init(
            Material(
                key: keyData, certificate: Data(base64Encoded: value["certificate"]?.text ?? "") ?? Data(),
                chain: Data(base64Encoded: value["chain"]?.text ?? "") ?? Data(), passphrase: passphrase))
    }
}
