import Crypto
import Foundation

/// SHA-256 (FIPS 180-4) from swift-crypto (BoringSSL on Linux), for the checksums in a batch's
/// manifest, the service's ETags and the stylesheet hash of a Content-Security-Policy.
/// The bytes are hashed where they are, without a copy.
package enum SHA256Digest {
    /// The lowercase hex digest of `bytes`.
    package static func hex<Bytes: DataProtocol>(_ bytes: Bytes) -> String {
        hex(digest: Crypto.SHA256.hash(data: bytes))
    }

    /// A digest taken elsewhere (32 bytes of SHA-256) in lowercase hex.
    package static func hex<Digest: Sequence<UInt8>>(digest: Digest) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The 32-byte digest of `bytes`.
    package static func digest<Bytes: DataProtocol>(_ bytes: Bytes) -> [UInt8] {
        Array(Crypto.SHA256.hash(data: bytes))
    }
}
