import FolioModel
import Foundation
import NIOSSL
import PostgresNIO

/// A PostgreSQL database as `--job-store` names it, libpq's URL form:
/// `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…&sslrootcert=FILE&host=/SOCKET/FOLDER]`.
/// The password is the URL's or, better (a command line is seen by every user of the machine),
/// the `PGPASSWORD` environment variable's. `sslmode` is libpq's: `disable`, `prefer` (the default:
/// encrypted when the server offers it), `require` (encrypted), `verify-ca` (and the server's
/// certificate signed by `sslrootcert` or the system's roots) or `verify-full` (and its name the host's).
struct PostgresLocation: Sendable, Equatable {
    /// TLS as `sslmode` asks.
    enum Encryption: String, Sendable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    var host: String
    var port: Int
    /// The folder of the server's Unix socket (`host=/…`), used instead of `host` and `port`.
    var socketFolder: String?
    var user: String
    var password: String?
    var database: String
    var encryption: Encryption
    var rootCertificates: String?

    /// Reads `text`, the value of `--job-store`; `environment` gives `PGPASSWORD`.
    init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let field = "--job-store"
        guard text.hasPrefix("postgresql://") || text.hasPrefix("postgres://"),
            let url = URLComponents(string: text)
        else { throw FolioError(path: field, "expected postgresql://USER@HOST[:PORT]/DATABASE, found \"\(PostgresLocation.shown(text))\"") }
        guard let user = url.user, !user.isEmpty else { throw FolioError(path: field, "names no user (postgresql://USER@HOST/DATABASE)") }
        let database = String(url.path.dropFirst())
        guard !database.isEmpty, !database.contains("/") else {
            throw FolioError(path: field, "names no database (postgresql://USER@HOST/DATABASE)")
        }
        var query: [String: String] = [:]
        for item in url.queryItems ?? [] {
            guard ["sslmode", "sslrootcert", "host"].contains(item.name), let value = item.value, !value.isEmpty else {
                throw FolioError(path: field, "unknown or empty parameter \"\(item.name)\" (sslmode, sslrootcert and host are read)")
            }
            query[item.name] = value
        }
        guard let encryption = Encryption(rawValue: query["sslmode"] ?? "prefer") else {
            throw FolioError(path: field, "sslmode must be disable, prefer, require, verify-ca or verify-full")
        }
        if let port = url.port, !(1...65_535).contains(port) { throw FolioError(path: field, "the port must be 1…65535") }
        socketFolder = query["host"]
        if let socketFolder, !socketFolder.hasPrefix("/") { throw FolioError(path: field, "host= must be the folder of a Unix socket") }
        host = url.host ?? ""
        guard !host.isEmpty || socketFolder != nil else { throw FolioError(path: field, "names no host") }
        port = url.port ?? 5432
        self.user = user
        password = url.password ?? environment["PGPASSWORD"]
        self.database = database
        self.encryption = encryption
        rootCertificates = query["sslrootcert"]
    }

    /// The location for errors and logs: no password.
    var shown: String {
        socketFolder.map { "\($0)/.s.PGSQL.\(port) (database \(database))" } ?? "\(host):\(port)/\(database)"
    }

    /// `text` with its password, if any, hidden.
    static func shown(_ text: String) -> String {
        guard var url = URLComponents(string: text), url.password != nil else { return text }
        url.password = "…"
        return url.string ?? "postgresql://…"
    }

    /// postgres-nio's configuration of the pool.
    func configuration() -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketFolder {
            configuration = .init(
                unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: tls())
        }
        configuration.options.maximumConnections = 8
        configuration.options.connectTimeout = .seconds(10)
        return configuration
    }

    /// The configuration of one connection (the first, made alone so that its error is the server's).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        if let socketFolder {
            return .init(unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        }
        let tls: PostgresConnection.Configuration.TLS
        switch encryption {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try NIOSSLContext(configuration: tlsConfiguration()))
        default: tls = .require(try NIOSSLContext(configuration: tlsConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = .seconds(10)
        return configuration
    }

    private func tls() -> PostgresClient.Configuration.TLS {
        switch encryption {
        case .disable: return .disable
        case .prefer: return .prefer(tlsConfiguration())
        default: return .require(tlsConfiguration())
        }
    }

    /// NIOSSL's settings for `sslmode` and `sslrootcert`: libpq's meaning of each mode.
    private func tlsConfiguration() -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let rootCertificates { tls.trustRoots = .file(rootCertificates) }
        switch encryption {
        case .disable, .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        return tls
    }
}
