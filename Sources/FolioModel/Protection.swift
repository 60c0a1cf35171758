/// Password protection of a document's PDF: AES-256 (the PDF 2.0 security handler, revision 6),
/// the only encryption Folio writes. The user password opens the file; the owner password lifts
/// the restrictions `allow` leaves. Text extraction for assistive technology is always allowed
/// (PDF/UA needs it), whatever `allow` says. HTML cannot be encrypted, so a protected document is
/// refused as HTML (an error naming `protection`) rather than written in the clear.
///
/// The passwords never appear in an error, a log line, a manifest or a layout report: this
/// type's description hides them.
public struct Protection: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What someone who opened the file with the user password may do.
    public enum Permission: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        /// Print, at full quality.
        case print
        /// Copy text and images out of the file.
        case copy
        /// Change the document: pages, content, assembly.
        case modify
        /// Add comments and fill in forms.
        case annotate
    }

    /// The password that opens the file (1 to 127 bytes of UTF-8).
    public var userPassword: String
    /// The password that lifts the restrictions; a random one, given to nobody, when nil.
    public var ownerPassword: String?
    /// What the user password allows; printing only by default.
    public var allow: [Permission]

    /// Protection opening with `userPassword`, allowing `allow`.
    public init(userPassword: String, ownerPassword: String? = nil, allow: [Permission] = [.print]) {
        self.userPassword = userPassword
        self.ownerPassword = ownerPassword
        self.allow = allow
    }

    private enum CodingKeys: String, CodingKey { case userPassword, ownerPassword, allow }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userPassword = try container.decode(String.self, forKey: .userPassword)
        ownerPassword = try container.decodeIfPresent(.ownerPassword)
        do {
            allow = try container.decode(.allow, default: [.print])
        } catch DecodingError.dataCorrupted(let context) {
            // Not the value: a password written in the wrong place must not reach a message.
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: context.codingPath,
                    debugDescription: "expected one of: \(Permission.optionNames.joined(separator: ", "))"))
        }
    }

    /// The longest password, in bytes of UTF-8 (the limit of revision 6).
    public static let maximumPasswordBytes = 127

    /// Throws a `FolioError` naming the field (never showing the password) when a password is empty,
    /// longer than 127 bytes or holds a NUL character.
    package func validate(path: String) throws {
        for (name, password) in [("userPassword", userPassword), ("ownerPassword", ownerPassword)] {
            guard let password else { continue }
            let bytes = password.utf8.count
            guard bytes >= 1 else { throw FolioError(path: "\(path).\(name)", "a password may not be empty") }
            guard bytes <= Protection.maximumPasswordBytes else {
                throw FolioError(path: "\(path).\(name)", "a password may have at most \(Protection.maximumPasswordBytes) bytes of UTF-8")
            }
            guard !password.utf8.contains(0) else { throw FolioError(path: "\(path).\(name)", "a password may not hold a NUL character") }
        }
    }

    /// The protection without its passwords.
    public var description: String { "Protection(allow: \(allow.map(\.rawValue)))" }
    /// The protection without its passwords.
    public var debugDescription: String { description }
}
