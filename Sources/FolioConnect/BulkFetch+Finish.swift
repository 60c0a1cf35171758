import FolioFiles
import FolioModel
import Foundation

extension BulkFetch {
    /// Ends a complete fetch: the manifest, the request and the list of files written to the state
    /// folder, files an earlier fetch wrote that this export no longer has removed, the export's
    /// in-progress state dropped and the export deleted on the server (it is done with it).
    func finish(_ manifest: BulkManifest, outcome: Outcome) throws {
        let names = outcome.files.map(\.name)
        if let previous = folder.state("complete.json")?["files"] as? [String] {
            for name in previous where !names.contains(name) && folder.hasFile(name) && Self.isExportFileName(name) {
                unlink(folder.url(name).path)
            }
        }
        var merged = (try? JSONSerialization.jsonObject(with: manifest.pages.first ?? Data())) as? [String: Any] ?? [:]
        if manifest.pages.count > 1 {
            var output: [Any] = []
            var errors: [Any] = []
            for page in manifest.pages {
                let object = (try? JSONSerialization.jsonObject(with: page)) as? [String: Any] ?? [:]
                output += object["output"] as? [Any] ?? []
                errors += object["error"] as? [Any] ?? []
            }
            merged["output"] = output
            merged["error"] = errors
            merged["link"] = nil
        }
        try folder.setState("manifest.json", merged)
        var requestRecord = (try? JSONSerialization.jsonObject(with: JSONEncoder().encode(request))) as? [String: Any] ?? [:]
        requestRecord["kickOff"] = request.path
        try folder.setState("request.json", requestRecord)
        try folder.setState(
            "complete.json",
            ["transactionTime": manifest.transactionTime, "files": names, "resources": outcome.files.map(\.resources)])
        folder.removeState("done.json")
        folder.removeState("export.json")
        if let statusURL = statusAddress {
            // Done with the export: the server may delete its files (best effort).
            var done = HTTPExchange(method: "DELETE", url: statusURL, timeoutSeconds: 15)
            if let header = try? session.authorization.header() { done.headers.append(header) }
            _ = try? done.send(session.connection)
        }
    }

    /// Whether `name` is one a fetch writes (`Type.ndjson`, `Type-N.ndjson`).
    static func isExportFileName(_ name: String) -> Bool {
        guard name.hasSuffix(".ndjson") else { return false }
        let stem = name.dropLast(7)
        let type = stem.split(separator: "-", maxSplits: 1).first.map(String.init) ?? ""
        return BulkExportRequest.isResourceType(type)
    }
}
