import FolioFiles
import FolioModel
import Foundation

/// One patient's record read from a FHIR server for `folio render --fhir-server BASE --patient ID`:
/// `Patient/ID/$summary` where the server's CapabilityStatement offers it (an IPS document), else
/// `Patient/ID/$everything` (its pages followed), else the Patient and a search per resource type
/// the summaries read; written as one Bundle the FHIR reader takes like any other.
package struct PatientRecordFetch: Sendable {
    /// The server.
    package let session: ServerSession
    /// The Patient's id.
    package let patient: String

    /// How the record was read.
    package enum Route: String, Sendable {
        case summary = "$summary"
        case everything = "$everything"
        case search = "searches"
    }

    /// The resource types searched for when the server offers neither operation.
    package static let searchedTypes = [
        "AllergyIntolerance", "Condition", "MedicationRequest", "MedicationStatement", "MedicationAdministration", "Immunization",
        "Observation", "DiagnosticReport", "Procedure", "Device", "DeviceUseStatement", "CarePlan", "Composition", "Encounter",
    ]
    /// The most pages followed for one search (or `$everything`).
    package static let maximumPages = 1000
    /// The most resources one record may hold.
    package static let maximumResources = 1_000_000

    /// A fetch of `patient`'s record through `session`; the id is checked.
    package init(session: ServerSession, patient: String) throws {
        guard BulkExportRequest.isID(patient) else {
            throw FolioError(path: "--patient", "expected a FHIR id (letters, digits, - and ., up to 64)")
        }
        self.session = session
        self.patient = patient
    }

    /// The record of `patient` on `server` written to `record.json` in a new folder only this user may
    /// read (the caller removes the folder); `authorization` makes the server's authorization.
    package static func temporaryCopy(
        server: String, patient: String, authorization: (ServerURL) throws -> ServerAuthorization, connection: ConnectionSettings
    ) throws -> URL {
        let address = try ServerURL(server, field: "--fhir-server")
        let session = ServerSession(base: address, authorization: try authorization(address), connection: connection)
        let fetch = try PatientRecordFetch(session: session, patient: patient)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "folio-record-\(getpid())-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw FolioError(path: "--fhir-server", "cannot make a folder for the record: \(error.localizedDescription)")
        }
        let file = folder.appendingPathComponent("record.json")
        do {
            try fetch.write(to: file)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        return file
    }

    /// Reads the record and writes it to `destination` as a Bundle; returns how it was read.
    @discardableResult
    package func write(to destination: URL) throws -> (route: Route, resources: Int) {
        let route = try chooseRoute()
        var entries: [Data] = []
        switch route {
        case .summary:
            let url = try session.base.appending("Patient/\(patient)/$summary", field: "--fhir-server")
            let answer = try get(url)
            // A document Bundle is the patient's summary as it is: written unchanged.
            try AtomicFile.write(answer.body, to: destination)
            let count = ((answer.jsonObject?["entry"] as? [Any])?.count) ?? 0
            return (route, count)
        case .everything:
            do {
                entries = try pages(from: try session.base.appending("Patient/\(patient)/$everything?_count=500", field: "--fhir-server"))
            } catch is SearchRefused {
                // Offered but refused for this patient: the searches instead.
                entries = try searchedEntries()
            }
        case .search:
            entries = try searchedEntries()
        }
        try AtomicFile.write(to: destination) { fd in
            try AtomicFile.writeAll(Data(#"{"resourceType":"Bundle","type":"collection","entry":["#.utf8), to: fd)
            for (index, entry) in entries.enumerated() {
                try AtomicFile.writeAll((index > 0 ? Data(",".utf8) : Data()) + entry, to: fd)
            }
            try AtomicFile.writeAll(Data("]}\n".utf8), to: fd)
        }
        return (route, entries.count)
    }

    /// The Patient and its resources of each searched type (a type the server refuses to search is none).
    private func searchedEntries() throws -> [Data] {
        var entries: [Data]
        do {
            entries = try pages(from: try session.base.appending("Patient?_id=\(patient)", field: "--fhir-server"))
        } catch is SearchRefused {
            entries = []
        }
        guard !entries.isEmpty else { throw FolioError(path: "--patient", "the server has no Patient \(patient)") }
        for type in Self.searchedTypes {
            let url = try session.base.appending("\(type)?patient=\(patient)&_count=500", field: "--fhir-server")
            do {
                entries += try pages(from: url)
            } catch is SearchRefused {
                continue
            }
        }
        return entries
    }

    private func chooseRoute() throws -> Route {
        let url = try session.base.appending("metadata", field: "--fhir-server")
        let answer = try session.send(HTTPExchange(method: "GET", url: url, headers: ["Accept: application/fhir+json"]))
        guard answer.status == 200, let statement = answer.jsonObject else { return .search }
        var operations = Set<String>()
        for rest in statement["rest"] as? [[String: Any]] ?? [] {
            for operation in rest["operation"] as? [[String: Any]] ?? [] { (operation["name"] as? String).map { operations.insert($0) } }
            for resource in rest["resource"] as? [[String: Any]] ?? [] where resource["type"] as? String == "Patient" {
                for operation in resource["operation"] as? [[String: Any]] ?? [] {
                    (operation["name"] as? String).map { operations.insert($0) }
                }
            }
        }
        if operations.contains("summary") { return .summary }
        if operations.contains("everything") { return .everything }
        return .search
    }

    private func get(_ url: ServerURL) throws -> HTTPAnswer {
        let answer = try session.send(
            HTTPExchange(method: "GET", url: url, headers: ["Accept: application/fhir+json"], maximumBytes: BulkFetch.maximumManifestBytes))
        guard answer.status == 200 else {
            if (400..<500).contains(answer.status), answer.status != 401, answer.status != 403 { throw SearchRefused() }
            throw ServerSession.refusal("GET", answer, url: url)
        }
        return answer
    }

    /// Every entry of the searchset at `url` and the pages its `next` links lead to, each entry's JSON.
    private func pages(from url: ServerURL) throws -> [Data] {
        var entries: [Data] = []
        var next: ServerURL? = url
        var pages = 0
        while let page = next {
            pages += 1
            guard pages <= Self.maximumPages else { throw FolioError(path: "--fhir-server", "a search gave more than 1,000 pages") }
            let answer = try get(page)
            guard let bundle = answer.jsonObject, bundle["resourceType"] as? String == "Bundle" else {
                throw FolioError(path: "--fhir-server", "\(page.shown) answered with no Bundle")
            }
            for entry in bundle["entry"] as? [[String: Any]] ?? [] {
                // Search matches only (an OperationOutcome `outcome` entry is the server's note).
                if let search = entry["search"] as? [String: Any], search["mode"] as? String == "outcome" { continue }
                guard let resource = entry["resource"] else { continue }
                var kept: [String: Any] = ["resource": resource]
                if let fullUrl = entry["fullUrl"] { kept["fullUrl"] = fullUrl }
                entries.append(try JSONSerialization.data(withJSONObject: kept, options: [.withoutEscapingSlashes]))
            }
            guard entries.count <= Self.maximumResources else {
                throw FolioError(path: "--patient", "the record holds more than 1,000,000 resources")
            }
            next = nil
            for link in bundle["link"] as? [[String: Any]] ?? [] where link["relation"] as? String == "next" {
                if let address = link["url"] as? String { next = try page.resolving(address, field: "link.next") }
            }
        }
        return entries
    }
}

/// A search the server answered 4xx (a type it does not hold or cannot search by patient).
struct SearchRefused: Error {}
