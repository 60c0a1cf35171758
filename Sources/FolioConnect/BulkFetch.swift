import FolioFiles
import FolioModel
import Foundation

/// `folio fetch`: a FHIR Bulk Data export kicked off, waited for and downloaded into a `FetchFolder`
/// (the HL7 Bulk Data Access IG, STU2 and the current draft: POST kick-off with a `Parameters` body,
/// GET where POST is refused, `Retry-After` and `X-Progress` honoured, paged manifests followed,
/// files streamed to disk two at a time and checked against their counts, links that expired
/// answered by asking for the manifest again, the export deleted on the server when done or
/// when Ctrl-C stops it).
package final class BulkFetch: Sendable {
    /// What to export.
    package let request: BulkExportRequest
    /// The server.
    package let session: ServerSession
    /// Where to.
    package let folder: FetchFolder
    /// Downloads at once, the wait limit, what Ctrl-C leaves and where progress goes.
    package let settings: FetchSettings
    var parallelDownloads: Int { settings.parallelDownloads }
    var waitLimit: Double { settings.waitLimit }
    var keepExport: Bool { settings.keepExport }
    var progress: (@Sendable (String) -> Void)? { settings.progress }
    var warn: @Sendable (String) -> Void { settings.warn }

    /// The most bytes one file of the export may have (disk, not memory: files are streamed).
    package static let maximumFileBytes = 1 << 40
    /// The largest manifest page or status answer read.
    package static let maximumManifestBytes = 64 << 20

    private let status = Locked<ServerURL?>(nil)
    /// The export's status address, once it is known.
    var statusAddress: ServerURL? { status.value }

    /// A fetch of `request` through `session` into `folder`.
    package init(request: BulkExportRequest, session: ServerSession, folder: FetchFolder, settings: FetchSettings = FetchSettings()) {
        self.settings = settings
        self.request = request
        self.session = session
        self.folder = folder
    }

    /// What a finished fetch got.
    package struct Outcome: Sendable {
        /// The files written, with their resource counts.
        package var files: [(name: String, resources: Int)]
        /// Files that were already there from an earlier, stopped run.
        package var kept: Int
        /// The export's transaction time.
        package var transactionTime: String
        /// How many problems the server reported in its error files.
        package var problems: Int
    }

    /// Runs the fetch; on Ctrl-C the export is deleted on the server (unless `keepExport`) and
    /// `FetchInterrupted` thrown.
    package func run() throws -> Outcome {
        folder.removeLeftovers()
        do {
            let status = try resumeOrKickOff()
            self.status.set(status)
            let manifest = try waitForManifest(at: status)
            let outcome = try download(manifest)
            try finish(manifest, outcome: outcome)
            return outcome
        } catch let interrupted as FetchInterrupted {
            if let statusURL = statusAddress, !keepExport {
                var cancel = HTTPExchange(method: "DELETE", url: statusURL, timeoutSeconds: 15)
                cancel.despiteInterruption = true
                if let header = try? session.authorization.header() { cancel.headers.append(header) }
                if let answer = try? cancel.send(session.connection), answer.status < 300 { folder.removeState("export.json") }
            }
            throw interrupted
        }
    }

    // MARK: Kick-off

    private func resumeOrKickOff() throws -> ServerURL {
        if let saved = folder.state("export.json"), let url = saved["status"] as? String,
            let savedRequest = saved["request"] as? [String: Any], NSDictionary(dictionary: savedRequest).isEqual(to: try requestObject()),
            let status = try? ServerURL(url, field: "export.json")
        {
            return status
        }
        folder.removeState("export.json")
        folder.removeState("done.json")
        let status = try kickOff()
        try folder.setState("export.json", ["status": status.text, "request": try requestObject(), "kickedOff": Self.now()])
        return status
    }

    private func requestObject() throws -> [String: Any] {
        let data = try JSONEncoder().encode(request)
        return (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    private func kickOff() throws -> ServerURL {
        let url = try session.base.appending(request.path, field: "--fhir-server")
        let headers = ["Accept: application/fhir+json", "Prefer: respond-async"]
        var answer = try session.send(
            HTTPExchange(
                method: "POST", url: url, headers: headers + ["Content-Type: application/fhir+json"], body: request.parametersBody))
        if answer.status == 405 || answer.status == 501 {
            // A server that takes the kick-off by GET only (the IG's STU1 form).
            guard request.patients.isEmpty else {
                throw FolioError(path: "--patient", "\(url.shown) takes the kick-off by GET only, which cannot name patients; use --group")
            }
            let get = try ServerURL(url.text + "?" + request.query, field: "--fhir-server")
            answer = try session.send(HTTPExchange(method: "GET", url: get, headers: headers))
        }
        guard answer.status == 202, let location = answer.headers["content-location"] else {
            throw ServerSession.refusal("the export's kick-off", answer, url: url)
        }
        return try url.resolving(location, field: "Content-Location")
    }

    // MARK: Waiting

    private func waitForManifest(at status: ServerURL) throws -> BulkManifest {
        let started = Date()
        var wait = 1.0
        var lastProgress = ""
        while true {
            let answer = try session.send(
                HTTPExchange(method: "GET", url: status, headers: ["Accept: application/json"], maximumBytes: Self.maximumManifestBytes))
            switch answer.status {
            case 200:
                guard let object = answer.jsonObject else {
                    throw FolioError(path: "manifest", "\(status.shown) answered 200 with no JSON manifest")
                }
                return try manifest(object, status: status)
            case 202:
                if let said = answer.headers["x-progress"], said != lastProgress {
                    lastProgress = said
                    progress?("export in progress: \(String(said.prefix(100)).escapingInvisibleControls)")
                }
                let pause = answer.retryAfter() ?? wait
                wait = min(wait * 2, 60)
                guard Date().timeIntervalSince(started) + pause <= waitLimit else {
                    throw FolioError(
                        path: "--wait-limit",
                        "the export was not ready after \(waitLimit.clampedInt()) s; run folio fetch again to go on waiting (it is kept on the server)"
                    )
                }
                try ServerSession.pause(min(max(pause, 0.2), 3600))
            case 404, 410:
                // The export is gone (expired or deleted): a new one next time.
                folder.removeState("export.json")
                throw ServerSession.refusal("the export's status", answer, url: status)
            default:
                folder.removeState("export.json")
                throw ServerSession.refusal("the export", answer, url: status)
            }
        }
    }

    /// The manifest `object` (a status answer's) with every further page it links followed.
    func manifest(_ object: [String: Any], status: ServerURL) throws -> BulkManifest {
        var manifest = try BulkManifest(object, status: status)
        var pages = 1
        while let next = manifest.next {
            pages += 1
            guard pages <= 1000 else { throw FolioError(path: "manifest.link", "the manifest has more than 1,000 pages") }
            let page = try session.send(
                HTTPExchange(method: "GET", url: next, headers: ["Accept: application/json"], maximumBytes: Self.maximumManifestBytes))
            guard page.status == 200, let pageObject = page.jsonObject else {
                throw ServerSession.refusal("the manifest's next page", page, url: next)
            }
            try manifest.append(try BulkManifest(pageObject, status: next))
        }
        return manifest
    }

    private static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }
}

/// How a `BulkFetch` goes about it.
package struct FetchSettings: Sendable {
    /// Downloads at once.
    package var parallelDownloads = 2
    /// The longest wait for the export, in seconds, before it is given up.
    package var waitLimit: Double = 86_400
    /// Leave the export on the server when interrupted (no DELETE).
    package var keepExport = false
    /// Where progress lines go (nil: nowhere).
    package var progress: (@Sendable (String) -> Void)?
    /// Where warnings go.
    package var warn: @Sendable (String) -> Void = { _ in }

    /// Two downloads at once, a day's wait, the export deleted on Ctrl-C, no progress lines.
    package init() {}
}
