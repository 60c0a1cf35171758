import Foundation
import XCTest

@testable import FolioServer

/// A PostgreSQL server of Debian's `postgresql` package for the tests: a new cluster made by
/// `initdb` in a temporary folder, listening on a free loopback port only, with password
/// (SCRAM) authentication; stopped and removed by `stop`. As root the cluster is the `postgres`
/// user's (PostgreSQL refuses to run as root).
final class TestPostgres: Sendable {
    let port: Int
    let user = "folio"
    let password: String
    private let folder: URL
    private let binaries: URL
    private let runAs: String?

    /// Starts the server; fails (never skips) when PostgreSQL is not installed (`make test-deps` installs it).
    init() throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.compactMap(Int.init).max() else {
            throw TestPostgresError("PostgreSQL is not installed (/usr/lib/postgresql/*/bin); make test-deps installs Debian's postgresql")
        }
        binaries = URL(fileURLWithPath: "/usr/lib/postgresql/\(version)/bin")
        runAs = getuid() == 0 ? "postgres" : nil
        password = JobIdentifier.make()
        var template = Array("/tmp/folio-postgres-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestPostgresError("cannot make a temporary folder") }
        folder = URL(fileURLWithPath: String(cString: made))
        chmod(folder.path, 0o755)
        port = try TestSupport.freePort()
        let passwordFile = folder.appendingPathComponent("password")
        try Data(password.utf8).write(to: passwordFile)
        if let runAs {
            try TestPostgres.shell(["chown", "-R", "\(runAs):\(runAs)", folder.path])
        }
        let data = folder.appendingPathComponent("data").path
        try run(
            "initdb", ["-D", data, "-U", user, "--pwfile", passwordFile.path, "--auth", "scram-sha-256", "-E", "UTF8", "--no-sync"])
        try run(
            "pg_ctl",
            [
                "-D", data, "-l", folder.appendingPathComponent("log").path, "-w", "-t", "60", "start", "-o",
                "-c listen_addresses=127.0.0.1 -p \(port) -c unix_socket_directories=\(folder.path) -c fsync=off",
            ])
    }

    /// The `--job-store` URL of a new, empty database.
    func newDatabase() throws -> String {
        let name = "folio_\(JobIdentifier.make().prefix(12))"
        try run("createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", user, name], environment: ["PGPASSWORD": password])
        return "postgresql://\(user):\(password)@127.0.0.1:\(port)/\(name)?sslmode=disable"
    }

    /// Stops the server and removes its folder.
    func stop() {
        try? run("pg_ctl", ["-D", folder.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    /// The server's log (for a failing test's message).
    var log: String { (try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? "" }

    private func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let path = binaries.appendingPathComponent(program).path
        let command =
            runAs.map { ["runuser", "-u", $0, "--", "env"] + environment.map { "\($0.key)=\($0.value)" } + [path] }
            ?? ["env"] + environment.map { "\($0.key)=\($0.value)" } + [path]
        try TestPostgres.shell(command + arguments)
    }

    /// Runs `command` and waits for it with `waitpid`; its output goes to a file. (Foundation's
    /// `Process` learns of an exit when a socket its child inherits closes, and the server `pg_ctl`
    /// starts keeps it open: `waitUntilExit` would never return.)
    private static func shell(_ command: [String]) throws {
        let output = try TestSupport.temporaryDirectory().appendingPathComponent("output").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments = (["/usr/bin/env"] + command).map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, nil, arguments, environ)
        guard spawned == 0 else { throw TestPostgresError("cannot start \(command[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            throw TestPostgresError("\(command.joined(separator: " ")) failed: \(text)")
        }
    }
}

/// Why the test server did not start.
struct TestPostgresError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
