import Foundation

extension PDFSigner {
    /// `material` as a member of a render worker's setup message, so that each worker makes its own
    /// signer from the texts its supervisor loaded and checked (the socket is the two processes' own).
    package static func setupValue(_ material: Material) -> TreeValue {
        .object([
            ("key", .string(String(decoding: material.key, as: UTF8.self))),
            ("certificate", .string(String(decoding: material.certificate, as: UTF8.self))),
            ("chain", .string(String(decoding: material.chain, as: UTF8.self))),
            ("passphrase", material.passphrase.map(TreeValue.string) ?? .null),
        ])
    }

    /// The signer a setup message member describes; nil for `null` (no signing).
    package convenience init?(setupValue value: TreeValue) throws {
        guard case .string(let key)? = value["key"], case .string(let certificate)? = value["certificate"] else { return nil }
        var passphrase: String?
        if case .string(let text)? = value["passphrase"] { passphrase = text }
        try self.init(
            Material(
                key: Data(key.utf8), certificate: Data(certificate.utf8), chain: Data((value["chain"]?.text ?? "").utf8),
                passphrase: passphrase))
    }
}
