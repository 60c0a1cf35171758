import FolioFiles
import FolioModel
import Foundation

extension BulkFetch {
    /// Downloads every file of `manifest` not already downloaded by an earlier run of this export,
    /// `parallelDownloads` at a time, each streamed into its file atomically and checked against the
    /// manifest's count.
    func download(_ manifest: BulkManifest) throws -> Outcome {
        let names = manifest.fileNames
        let saved = folder.state("done.json")
        var done = (saved?["transactionTime"] as? String == manifest.transactionTime ? saved?["files"] as? [String: Int] : nil) ?? [:]
        done = done.filter { names.contains($0.key) && folder.hasFile($0.key) }
        let kept = done.count
        let pending = names.indices.filter { done[names[$0]] == nil }
        let state = Locked(DownloadState(done: done, manifest: manifest))
        let workers = max(1, min(parallelDownloads, pending.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let claimed: Int? = state.withLock { value in
                    guard value.failure == nil, !value.interrupted, value.next < pending.count else { return nil }
                    value.next += 1
                    return pending[value.next - 1]
                }
                guard let index = claimed else { return }
                do {
                    let lines = try downloadFile(index, name: names[index], state: state)
                    let snapshot: [String: Int] = state.withLock { value in
                        value.done[names[index]] = lines
                        return value.done
                    }
                    try folder.setState("done.json", ["transactionTime": manifest.transactionTime, "files": snapshot])
                    progress?("downloaded \(names[index]): \(lines) resources")
                } catch is FetchInterrupted {
                    state.withLock { $0.interrupted = true }
                } catch {
                    let failure = error as? FolioError ?? FolioError(path: "", "\(error)")
                    state.withLock { value in if value.failure == nil { value.failure = failure } }
                }
            }
        }
        let finished = state.value
        if finished.interrupted { throw FetchInterrupted() }
        if let failure = finished.failure { throw failure }
        let problems = try downloadErrors(finished.manifest)
        return Outcome(
            files: names.map { ($0, finished.done[$0] ?? 0) }, kept: kept, transactionTime: manifest.transactionTime, problems: problems)
    }

    private func downloadFile(
        _ index: Int, name: String, state: Locked<DownloadState>
    ) throws -> Int {
        var refreshed = false
        while true {
            let file = state.withLock { $0.manifest.output[index] }
            let current = state.withLock { $0.manifest }
            do {
                return try AtomicFile.write(to: folder.url(name)) { fd in
                    let answer = try session.send(
                        HTTPExchange(
                            method: "GET", url: file.url, headers: ["Accept: application/fhir+ndjson"], maximumBytes: Self.maximumFileBytes,
                            timeoutSeconds: 0),
                        authorized: current.requiresAccessToken, output: fd,
                        prepare: {
                            guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else {
                                throw FolioError(path: "--out", "cannot write \(name): \(String(cString: strerror(errno)))")
                            }
                        })
                    guard answer.status == 200 else {
                        if [401, 403, 404, 410].contains(answer.status) { throw ExpiredLink(answer: answer) }
                        throw ServerSession.refusal("the export's file \(name) at", answer, url: file.url)
                    }
                    if let count = file.count, count != answer.lines {
                        throw FolioError(
                            path: "manifest.output[\(index)].count",
                            "the manifest says \(file.type) file \(name) holds \(count) resources; \(answer.lines) came")
                    }
                    return answer.lines
                }
            } catch let expired as ExpiredLink {
                // A signed link that expired: the manifest again, its fresh links, once per file.
                guard !refreshed, let statusURL = statusAddress else {
                    throw ServerSession.refusal("the export's file \(name) at", expired.answer, url: file.url)
                }
                refreshed = true
                try state.withLock { value in
                    let answer = try session.send(
                        HTTPExchange(
                            method: "GET", url: statusURL, headers: ["Accept: application/json"], maximumBytes: Self.maximumManifestBytes)
                    )
                    guard answer.status == 200, let object = answer.jsonObject else {
                        throw ServerSession.refusal("the manifest (asked again for expired links)", answer, url: statusURL)
                    }
                    let fresh = try self.manifest(object, status: statusURL)
                    guard fresh.output.count == value.manifest.output.count,
                        zip(fresh.output, value.manifest.output).allSatisfy({ $0.type == $1.type })
                    else {
                        throw FolioError(
                            path: "manifest", "the export's manifest changed while its files were downloaded; run folio fetch again")
                    }
                    value.manifest = fresh
                }
            }
        }
    }

    /// Downloads the export's OperationOutcome files into the state folder; returns how many issues they hold.
    private func downloadErrors(_ manifest: BulkManifest) throws -> Int {
        var problems = 0
        for (index, file) in manifest.errors.enumerated() {
            let url = URL(fileURLWithPath: (folder.statePath as NSString).appendingPathComponent("error-\(index + 1).ndjson"))
            let lines: Int? = try? AtomicFile.write(to: url) { fd in
                let answer = try session.send(
                    HTTPExchange(
                        method: "GET", url: file.url, headers: ["Accept: application/fhir+ndjson"], maximumBytes: Self.maximumManifestBytes,
                        timeoutSeconds: 0),
                    authorized: manifest.requiresAccessToken, output: fd)
                guard answer.status == 200 else { throw ServerSession.refusal("the export's error file at", answer, url: file.url) }
                return answer.lines
            }
            if let lines { problems += lines } else { warn("the export's error file \(index + 1) could not be downloaded") }
        }
        return problems
    }
}

/// What the download threads share.
struct DownloadState: Sendable {
    /// The next of the pending files to claim.
    var next = 0
    /// The files downloaded, with their resource counts.
    var done: [String: Int]
    /// The manifest (asked for again when links expire).
    var manifest: BulkManifest
    /// The first failure, which stops the claiming of files.
    var failure: FolioError?
    /// Ctrl-C came.
    var interrupted = false
}

/// A file's link answered as an expired or withdrawn one (401, 403, 404, 410).
struct ExpiredLink: Error {
    var answer: HTTPAnswer
}
