import ArgumentParser
import FolioConnect
import FolioModel
import Foundation

/// `folio fetch BASE_URL --out DIR`: a FHIR Bulk Data export into the folder `folio batch --data DIR
/// --data-format fhir` reads.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch a FHIR Bulk Data export from a server into a folder folio batch reads.",
        discussion: """
            Kicks off Patient/$export (or Group/ID/$export with --group), waits for it (honouring Retry-After, \
            showing X-Progress), downloads its NDJSON files two at a time into DIR (each written whole, checked \
            against the manifest's count) and keeps the manifest and the request in DIR/.folio-fetch/. A fetch \
            stopped (Ctrl-C, a crash) and run again goes on with the same export and skips the files it has; \
            Ctrl-C cancels the export on the server unless --keep-export. --incremental asks only for what changed \
            since the last complete fetch into DIR. Authorization: SMART Backend Services (--client-id, \
            --private-key) or --token-file; plain http:// only to this machine. --print-jwks prints the public key \
            set to register with the server. See docs/fhir.md.

            Examples:
              folio fetch https://ehr.example.org/fhir --group weekly-cohort --out export \\
                --client-id folio-weekly --private-key folio-key.pem
              folio fetch --print-jwks --private-key folio-key.pem
            """)

    @Argument(help: "The FHIR server's base address (https://, or http:// to this machine).")
    var base: String?

    @Option(name: .customLong("out"), help: "The folder for the export's files.")
    var outputDirectory: String?

    @Option(help: "Export the members of this Group (Group/ID/$export).")
    var group: String?

    @Option(help: "Export these patients only (comma-separated ids; a POST kick-off).")
    var patient: String?

    @Option(help: "The resource types to export, comma-separated (_type).")
    var type: String?

    @Option(name: .customLong("type-filter"), help: "A _typeFilter such as Observation?category=vital-signs (repeatable).")
    var typeFilter: [String] = []

    @Option(help: "Only resources changed after this instant (_since), such as 2026-11-01T00:00:00Z.")
    var since: String?

    @Flag(help: "Only what changed since the last complete fetch into --out (its transactionTime as _since).")
    var incremental = false

    @Flag(name: .customLong("keep-export"), help: "On Ctrl-C, leave the export on the server (no DELETE).")
    var keepExport = false

    @Option(help: "Files downloaded at once (1-16).")
    var parallel = 2

    @Option(name: .customLong("wait-limit"), help: "Seconds to wait for the export before giving up (default a day).")
    var waitLimit = 86_400

    @Flag(help: "No progress lines.")
    var quiet = false

    @Flag(name: .customLong("print-jwks"), help: "Print the public key set of --private-key (to register with the server) and stop.")
    var printJWKS = false

    @OptionGroup var server: ServerOptions

    func run() throws {
        do {
            if printJWKS {
                guard let key = server.privateKey else { throw FolioError(path: "--private-key", "--print-jwks needs --private-key") }
                let jwk = try ClientKey(path: key, keyID: server.keyID).publicJWK()
                let data = try JSONSerialization.data(withJSONObject: ["keys": [jwk]], options: [.sortedKeys, .prettyPrinted])
                try StandardStreams.writeOutput(data + Data("\n".utf8))
                return
            }
            try fetch()
        } catch is FetchInterrupted {
            StandardStreams.printError("folio: interrupted")
            throw ExitCode(130)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            StandardStreams.printError(StandardStreams.describe(error))
            throw ExitCode(1)
        }
    }

    private func fetch() throws {
        guard let base else { throw FolioError(path: "BASE_URL", "give the FHIR server's base address") }
        guard let outputDirectory else { throw FolioError(path: "--out", "give the folder for the export's files") }
        guard (1...16).contains(parallel) else { throw FolioError(path: "--parallel", "expected 1 to 16") }
        guard (1...(30 * 86_400)).contains(waitLimit) else { throw FolioError(path: "--wait-limit", "expected 1 to 2,592,000 seconds") }
        guard !(incremental && since != nil) else { throw FolioError(path: "--since", "give --since or --incremental, not both") }
        let address = try ServerURL(base, field: "BASE_URL")
        var sinceInstant = since
        if incremental {
            let previous = Self.lastTransactionTime(in: outputDirectory)
            if previous == nil {
                StandardStreams.printError("folio: note: no complete fetch in \(outputDirectory) yet: fetching everything")
            }
            sinceInstant = previous
        }
        let request = try BulkExportRequest(
            base: address.text, group: group, patients: Self.list(patient), types: Self.list(type), typeFilters: typeFilter,
            since: sinceInstant)
        let authorization = try server.authorization(base: address, neededScopes: ["system/*.rs"])
        HTTPExchange.catchInterrupts()
        // Authorized before anything is written: a wrong key leaves no folder behind.
        _ = try authorization.header()
        let session = ServerSession(base: address, authorization: authorization, connection: server.connection)
        var settings = FetchSettings()
        settings.parallelDownloads = parallel
        settings.waitLimit = Double(waitLimit)
        settings.keepExport = keepExport
        if !quiet { settings.progress = { StandardStreams.printError("folio: \($0)") } }
        settings.warn = { StandardStreams.printError("folio: warning: \($0)") }
        let bulk = BulkFetch(request: request, session: session, folder: try FetchFolder(path: outputDirectory), settings: settings)
        let outcome = try bulk.run()
        if outcome.problems > 0 {
            StandardStreams.printError(
                "folio: warning: the server reported \(outcome.problems) problems with the export (\(outputDirectory)/.folio-fetch/error-*.ndjson)"
            )
        }
        let resources = outcome.files.reduce(0) { $0 + $1.resources }
        if !quiet {
            let kept = outcome.kept > 0 ? ", \(outcome.kept) already there" : ""
            StandardStreams.printError(
                "folio: fetched \(outcome.files.count) files, \(resources) resources\(kept), as of \(outcome.transactionTime)")
        }
    }

    private static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func lastTransactionTime(in folder: String) -> String? {
        let path = (folder as NSString).appendingPathComponent(".folio-fetch/complete.json")
        guard let data = FileManager.default.contents(atPath: path),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        return object["transactionTime"] as? String
    }
}
