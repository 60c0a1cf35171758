internal import CHTTPClient
import FolioModel
import Foundation

/// Which addresses a request may connect to when its target was named by a client (a webhook):
/// public addresses and loopback, and the private networks the operator allows (`--webhook-allow`).
/// Checked as each connection is opened, after the name is resolved, so a name that resolves (or
/// rebinds) into a private network is refused as its address would be; such requests follow no
/// redirect and use no proxy.
package struct AddressPolicy: Sendable {
    /// One network in CIDR notation (`10.20.0.0/16`, `fd00::/8`).
    package struct Network: Sendable, Equatable {
        /// 4 or 6.
        package let family: Int
        /// The address's bytes (4 or 16).
        package let bytes: [UInt8]
        /// The prefix length.
        package let prefix: Int

        /// The network `text` names; errors name `field`.
        package init(_ text: String, field: String) throws {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2, let addressText = parts.first.map(String.init), !addressText.isEmpty else {
                throw FolioError(path: field, "\"\(text)\" is not a network (ADDRESS/PREFIX, as 10.0.0.0/8 or fd00::/8)")
            }
            var v4 = in_addr()
            var v6 = in6_addr()
            if inet_pton(AF_INET, addressText, &v4) == 1 {
                family = 4
                bytes = withUnsafeBytes(of: &v4) { Array($0) }
            } else if inet_pton(AF_INET6, addressText, &v6) == 1 {
                family = 6
                bytes = withUnsafeBytes(of: &v6) { Array($0) }
            } else {
                throw FolioError(path: field, "\"\(text)\" is not a network: \(addressText) is not an IPv4 or IPv6 address")
            }
            let most = family == 4 ? 32 : 128
            if parts.count == 2 {
                guard let length = Int(parts[1]), (0...most).contains(length) else {
                    throw FolioError(path: field, "\"\(text)\": the prefix length must be 0…\(most)")
                }
                prefix = length
            } else {
                prefix = most
            }
        }

        fileprivate var c: folio_http_network {
            var network = folio_http_network()
            network.family = Int32(family)
            network.prefix = Int32(prefix)
            withUnsafeMutableBytes(of: &network.address) { raw in
                for (index, byte) in bytes.enumerated() { raw[index] = byte }
            }
            return network
        }
    }

    /// Private networks allowed all the same.
    package var allowed: [Network]

    /// Public addresses, loopback and `allowed`.
    package init(allowed: [Network] = []) { self.allowed = allowed }

    /// Whether a connection to the literal address `text` (IPv4 or IPv6) would be allowed; nil when
    /// `text` is not an address (a name, resolved only when the connection is made).
    package func allows(literal text: String) -> Bool? {
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, bare, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            return withUnsafePointer(to: &v4) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { allows($0) }
            }
        }
        if inet_pton(AF_INET6, bare, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            return withUnsafePointer(to: &v6) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { allows($0) }
            }
        }
        return nil
    }

    private func allows(_ address: UnsafePointer<sockaddr>) -> Bool {
        withNetworks { folio_http_address_allowed(address, $0, $1) == 1 }
    }

    /// Calls `work` with the allowed networks as C sees them.
    func withNetworks<R>(_ work: (UnsafePointer<folio_http_network>?, Int) -> R) -> R {
        let networks = allowed.map(\.c)
        return networks.withUnsafeBufferPointer { work($0.baseAddress, $0.count) }
    }
}
