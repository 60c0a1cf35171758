import Crypto
import FolioFHIR
import FolioFiles
import FolioModel
import Foundation

/// `folio batch … --emit fhir --post BASE_URL`: each record's DocumentReference sent to the FHIR
/// server with its documents' bytes inline (`attachment.data`, checked against the SHA-1 the batch
/// hashed), under an identifier that stays the same for the same template, patient and period, so
/// that posting a batch again — the same day or the next — leaves one DocumentReference per
/// patient and period: a conditional update (`PUT DocumentReference?identifier=…`) where the
/// server's CapabilityStatement offers it, else a conditional create (`If-None-Exist`). What was
/// posted is listed in `posted.jsonl`, so a batch run again with `--resume` posts only the rest.
package struct DocumentPoster: Sendable {
    /// The server.
    package let session: ServerSession
    /// The batch's folder.
    package let folder: URL
    /// The template's name, part of each identifier.
    package let template: String

    /// The file that lists what was posted.
    package static let postedName = "posted.jsonl"
    /// References posted at once.
    package static let parallelPosts = 4
    /// The largest document posted inline (the server's limits are usually lower).
    package static let maximumDocumentBytes = 256 << 20

    /// A poster of `folder`'s references to `session`'s server, identified by `template`.
    package init(session: ServerSession, folder: URL, template: String) {
        self.session = session
        self.folder = folder
        self.template = template
    }

    /// One posted or refused reference.
    package struct Result: Sendable {
        /// The reference's position in the batch's transaction Bundle (record order).
        package var position: Int
        /// Its subject's reference, such as `Patient/pat-rivera`.
        package var subject: String
        /// The server's id of the DocumentReference, when it took it.
        package var id: String?
        /// Why it was refused, in one line.
        package var error: String?
    }

    /// Posts every reference of the batch's `bundle` (the `--emit fhir` transaction Bundle's JSON);
    /// `skipPosted` leaves out what `posted.jsonl` lists. A refusal is a result, never a stop.
    package func post(bundle: Data, skipPosted: Bool) throws -> [Result] {
        guard let object = (try? JSONSerialization.jsonObject(with: bundle)) as? [String: Any],
            let entries = object["entry"] as? [[String: Any]]
        else { throw FolioError(path: "--post", "the batch's bundle.json is not a FHIR Bundle") }
        let conditionalUpdate = try offersConditionalUpdate()
        let postedURL = folder.appendingPathComponent(Self.postedName)
        var posted = Set<String>()
        if skipPosted, let text = try? String(contentsOf: postedURL, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let item = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                if let document = item?["document"] as? String { posted.insert(document) }
            }
        }
        let log = try PostedLog(url: postedURL, append: skipPosted)
        defer { log.close() }
        // Each reference as its JSON (what the posting threads may share).
        let pending = entries.enumerated().compactMap { position, entry -> (Int, Data)? in
            guard let resource = entry["resource"] as? [String: Any] else { return nil }
            let document = ((resource["masterIdentifier"] as? [String: Any])?["value"] as? String) ?? ""
            guard document.isEmpty || !posted.contains(document) else { return nil }
            return (try? JSONSerialization.data(withJSONObject: resource)).map { (position, $0) }
        }
        // A few at a time: each waits mostly on the server.
        let results = Locked<[Result]>([])
        let next = Locked(0)
        let workers = max(1, min(Self.parallelPosts, pending.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let claimed: Int? = next.withLock { value in
                    guard value < pending.count else { return nil }
                    value += 1
                    return value - 1
                }
                guard let index = claimed, !HTTPExchange.interrupted else { return }
                let result = postOne(pending[index].1, position: pending[index].0, conditionalUpdate: conditionalUpdate, log: log)
                results.withLock { $0.append(result) }
            }
        }
        return results.value.sorted { $0.position < $1.position }
    }

    /// Posts one reference; its outcome as a result (a refusal included).
    private func postOne(_ json: Data, position: Int, conditionalUpdate: Bool, log: PostedLog) -> Result {
        guard var resource = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
            return Result(position: position, subject: "a patient", error: "the batch's DocumentReference is not JSON")
        }
        let subject = ((resource["subject"] as? [String: Any])?["reference"] as? String) ?? "a patient"
        let document = ((resource["masterIdentifier"] as? [String: Any])?["value"] as? String) ?? ""
        do {
            let identifier = try identifierValue(of: resource)
            let documents = try inlineDocuments(of: &resource)
            resource["identifier"] = [["system": "urn:ietf:rfc:3986", "value": identifier]]
            let id = try send(try body(of: resource, documents: documents), identifier: identifier, conditionalUpdate: conditionalUpdate)
            log.append(["document": document, "identifier": identifier, "id": id, "subject": subject])
            return Result(position: position, subject: subject, id: id)
        } catch let failure as FolioError {
            return Result(position: position, subject: subject, error: failure.description)
        } catch {
            return Result(position: position, subject: subject, error: "\(error)")
        }
    }

    /// Whether the server's CapabilityStatement says DocumentReference takes a conditional update.
    private func offersConditionalUpdate() throws -> Bool {
        let url = try session.base.appending("metadata", field: "--post")
        let answer = try session.send(HTTPExchange(method: "GET", url: url, headers: ["Accept: application/fhir+json"]))
        guard answer.status == 200, let statement = answer.jsonObject else { return false }
        for rest in statement["rest"] as? [[String: Any]] ?? [] {
            for resource in rest["resource"] as? [[String: Any]] ?? [] where resource["type"] as? String == "DocumentReference" {
                return resource["conditionalUpdate"] as? Bool ?? false
            }
        }
        return false
    }

    /// `urn:uuid:…` named from the template, the subject and the period: the same every week's run
    /// of the same report gives, whatever the document's bytes.
    private func identifierValue(of resource: [String: Any]) throws -> String {
        guard let subject = resource["subject"] as? [String: Any] else {
            throw FolioError(path: "subject", "the DocumentReference has no subject")
        }
        let who =
            (subject["reference"] as? String)
            ?? ((subject["identifier"] as? [String: Any]).map { "\($0["system"] ?? "")|\($0["value"] ?? "")" } ?? "")
        let period = ((resource["context"] as? [String: Any])?["period"] as? [String: Any]) ?? [:]
        let name = "folio|\(template)|\(who)|\(period["start"] as? String ?? "")/\(period["end"] as? String ?? "")"
        let hex = SHA256.hash(data: Data(name.utf8)).map { String(format: "%02x", $0) }.joined()
        return FHIRDocumentReference.uuidURN(hex)
    }

    /// Each attachment's file (its `url`, a name in the batch's folder) read and checked against its
    /// SHA-1; its `data` is a placeholder (`folio-document-N`) the body's bytes take the place of
    /// (base64 needs no JSON escaping, and a document's megabytes are not run through the JSON writer).
    private func inlineDocuments(of resource: inout [String: Any]) throws -> [Data] {
        var documents: [Data] = []
        guard var content = resource["content"] as? [[String: Any]] else { return documents }
        for index in content.indices {
            guard var attachment = content[index]["attachment"] as? [String: Any], let name = attachment["url"] as? String else { continue }
            guard !name.contains("/"), !name.hasPrefix("."), !name.isEmpty else {
                throw FolioError(path: "content[\(index)].attachment.url", "expected a file name of the batch's folder")
            }
            let data = try BoundedFile.read(
                folder.appendingPathComponent(name).path, limit: Self.maximumDocumentBytes, field: "content[\(index)].attachment.url",
                what: "document", regularOnly: true)
            let sha1 = Data(Insecure.SHA1.hash(data: data)).base64EncodedString()
            guard sha1 == attachment["hash"] as? String else {
                throw FolioError(path: "content[\(index)].attachment.hash", "\(name) changed after the batch wrote it")
            }
            attachment["data"] = "folio-document-\(documents.count)"
            documents.append(data)
            attachment["url"] = nil
            content[index]["attachment"] = attachment
        }
        resource["content"] = content
        return documents
    }

    /// The JSON of `resource` with each placeholder replaced by its document in base64.
    private func body(of resource: [String: Any], documents: [Data]) throws -> Data {
        var body = try JSONSerialization.data(withJSONObject: resource, options: [.sortedKeys, .withoutEscapingSlashes])
        for (index, document) in documents.enumerated() {
            guard let range = body.range(of: Data("\"folio-document-\(index)\"".utf8)) else {
                throw FolioError(path: "content", "the DocumentReference's documents could not be put inline")
            }
            body.replaceSubrange(range, with: Data("\"".utf8) + document.base64EncodedData() + Data("\"".utf8))
        }
        return body
    }

    /// Sends `resource`; returns the server's id for it. A refusal is a `FolioError` with the server's words.
    private func send(_ body: Data, identifier: String, conditionalUpdate: Bool) throws -> String {
        let search = "identifier=" + ServerAuthorization.formEncoded("urn:ietf:rfc:3986|\(identifier)")
        let headers = ["Content-Type: application/fhir+json", "Accept: application/fhir+json", "Prefer: return=minimal"]
        let exchange: HTTPExchange
        if conditionalUpdate {
            exchange = HTTPExchange(
                method: "PUT", url: try session.base.appending("DocumentReference?\(search)", field: "--post"), headers: headers, body: body
            )
        } else {
            exchange = HTTPExchange(
                method: "POST", url: try session.base.appending("DocumentReference", field: "--post"),
                headers: headers + ["If-None-Exist: \(search)"], body: body)
        }
        let answer = try session.send(exchange)
        guard (200..<300).contains(answer.status) else {
            let why = answer.outcomeText.map { ": \($0)" } ?? ""
            throw FolioError(path: "--post", "\(exchange.method) DocumentReference answered \(answer.status)\(why)")
        }
        let location = answer.headers["location"] ?? answer.headers["content-location"] ?? ""
        let parts = location.split(separator: "/")
        if let at = parts.firstIndex(of: "DocumentReference"), at + 1 < parts.count { return String(parts[at + 1]) }
        return (answer.jsonObject?["id"] as? String) ?? ""
    }
}

/// `posted.jsonl`: a line for each reference the server took, flushed as it is written, so a
/// batch stopped while posting knows on `--resume` what it posted. Its lines are written under a
/// lock, whole (the posting threads share it).
final class PostedLog: Sendable {
    private let handle: FileHandle
    private let lock = Locked(())

    init(url: URL, append: Bool) throws {
        if !append || !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw FolioError(path: "--post", "cannot write \(url.path)")
            }
        }
        do {
            handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
        } catch {
            throw FolioError(path: "--post", "cannot write \(url.path): \(error.localizedDescription)")
        }
    }

    func append(_ object: [String: String]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return
        }
        lock.withLock { _ in
            try? handle.write(contentsOf: data + Data("\n".utf8))
            try? handle.synchronize()
        }
    }

    func close() { try? handle.close() }
}
