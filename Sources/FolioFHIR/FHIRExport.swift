import FolioData
import FolioFiles
import FolioModel
import Foundation

/// A FHIR R4 export read into report records: a Bulk Data `$export` folder (NDJSON files, one
/// resource per line, routed by `resourceType` whatever the file is called), one NDJSON file, or a
/// Bundle (`document`, `collection`, `searchset`, `transaction`, …). Patients, Observations,
/// MedicationAdministrations, the clinical resources of a patient summary (`FHIRClinicalKinds`)
/// and the resources they refer to are read; other resources are counted and ignored.
package final class FHIRExport {
    private let index: FHIRIndex
    /// Problems with the export as a whole, a file and line each (malformed lines, ignored files).
    package var notes: [String] { index.notes.all }

    /// The largest Bundle read whole (a Bulk Data export's NDJSON files may be any size).
    package static let bundleBytes = InputLimits.documentBytes

    /// Reads the export at `path`; a path that cannot be read is an error, a malformed resource a note.
    package init(path: String, options: FHIRImportOptions) throws {
        index = try FHIRIndex(options: options)
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw FolioError(path: "--data", "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            var read = 0
            for name in names where !name.hasPrefix(".") {
                let file = (path as NSString).appendingPathComponent(name)
                let lower = name.lowercased()
                var entry = stat()
                guard lstat(file, &entry) == 0, entry.st_mode & S_IFMT == S_IFREG else {
                    index.note("\(name): not a regular file; ignored")
                    continue
                }
                if lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl") {
                    try readLines(of: file, named: name)
                    read += 1
                } else if lower.hasSuffix(".json") {
                    try readBundle(at: file, named: name)
                    read += 1
                } else {
                    index.note("\(name): not an .ndjson or .json file; ignored")
                }
            }
            if read == 0 { throw FolioError(path: "--data", "\(path) holds no .ndjson or .json files of a FHIR export") }
        } else if info.st_mode & S_IFMT == S_IFREG {
            let name = (path as NSString).lastPathComponent
            if name.lowercased().hasSuffix(".json") {
                try readBundle(at: path, named: name)
            } else {
                try readLines(of: path, named: name)
            }
        } else {
            throw FolioError(path: "--data", "\(path) is not a regular file or a folder")
        }
        try index.finishLoading()
    }

    /// Reads one Bundle (or a single resource) given as bytes, as the render service receives it.
    package init(bundle data: Data, options: FHIRImportOptions) throws {
        index = try FHIRIndex(options: options)
        try read(bundle: data, named: "the request body")
        try index.finishLoading()
    }

    /// Calls `body` with each patient's record (see `FHIRRecordBuilder`); what a person running the
    /// export should be told about a record (an entry that names nothing) goes to `note`.
    package func forEachRecord(_ body: (TreeValue) throws -> Void, note: (String) -> Void = { _ in }) throws {
        try FHIRRecordBuilder(index: index).forEachRecord(body, note: note)
    }

    // MARK: reading

    /// Reads an NDJSON file a resource per line (the batch's JSON lines reader: streamed, a line over
    /// `InputLimits.documentBytes` skipped), noting each malformed line by file and line.
    private func readLines(of path: String, named name: String) throws {
        let reader = try RecordReader(path: path, format: .jsonLines)
        var ignored: [String: Int] = [:]
        while let line = try reader.next() {
            let place = "\(name):\(reader.lineNumber)"
            switch line.value {
            case .failure(let error):
                // The place names the file's line; within it, only the column means something.
                let reason = error.message.replacingOccurrences(of: "at line 1, column ", with: "at column ")
                index.note("\(place): not a JSON resource (\(reason))")
            case .success(let resource):
                if try !index.add(resource, fullUrl: nil, place: place) {
                    ignored[FHIRResource.string(resource, "resourceType") ?? "?", default: 0] += 1
                }
            }
        }
        for (type, count) in ignored.sorted(by: { $0.key < $1.key }) {
            index.note("\(name): \(count) \(type.prefix(40)) resource\(count == 1 ? "" : "s") ignored")
        }
    }

    private func readBundle(at path: String, named name: String) throws {
        let data = try BoundedFile.read(path, limit: FHIRExport.bundleBytes, field: "--data", what: "FHIR Bundle", regularOnly: true)
        try read(bundle: data, named: name)
    }

    /// The Bundle types whose entries are resources to read.
    static let bundleTypes: Set<String> = ["collection", "searchset", "transaction", "batch", "history", "document", "message"]

    private func read(bundle data: Data, named name: String) throws {
        let root: TreeValue
        do {
            root = try JSONTreeParser.parse(data)
        } catch {
            throw FolioError(path: "--data", "\(name) is not JSON: \(error)")
        }
        guard FHIRResource.string(root, "resourceType") == "Bundle" else {
            // A single resource in a .json file.
            if try !index.add(root, fullUrl: nil, place: name, fromBundle: true) {
                index.note("\(name): a \(FHIRResource.string(root, "resourceType")?.prefix(40) ?? "?") resource ignored")
            }
            return
        }
        let type = FHIRResource.string(root, "type") ?? ""
        guard FHIRExport.bundleTypes.contains(type) else {
            throw FolioError(
                path: "--data",
                "\(name): Bundle.type \"\(type.prefix(40))\" holds no resources to read (use collection, searchset or transaction)")
        }
        var ignored: [String: Int] = [:]
        let first = index.order + 1
        var subject: String?
        switch root["entry"] {
        case nil, .array?: break
        default: index.note("\(name): Bundle.entry is not an array of entries, so nothing in it was read")
        }
        for (position, entry) in FHIRResource.array(root, "entry").enumerated() {
            guard case .object = entry else {
                index.note("\(name) entry[\(position)]: not an object; ignored")
                continue
            }
            guard let resource = entry["resource"] else { continue }
            if FHIRResource.string(entry["request"], "method") == "DELETE" { continue }
            let added = try index.add(
                resource, fullUrl: FHIRResource.string(entry, "fullUrl"), place: "\(name) entry[\(position)]", fromBundle: true)
            // A document Bundle's first entry is its Composition: the document the record presents.
            if position == 0, type == "document", FHIRResource.string(resource, "resourceType") == "Composition" {
                index.documentCompositions.insert(index.order)
                subject = FHIRResource.patientKey(resource["subject"]).key
                if let language = FHIRResource.string(root, "language") { index.documentLanguages[index.order] = language }
            }
            if !added {
                ignored[FHIRResource.string(resource, "resourceType") ?? "?", default: 0] += 1
            }
        }
        for (type, count) in ignored.sorted(by: { $0.key < $1.key }) {
            index.note("\(name): \(count) \(type.prefix(40)) resource\(count == 1 ? "" : "s") ignored")
        }
        if type == "document", index.order >= first {
            index.documents.append(.init(name: name, first: first, last: index.order, subject: subject))
        }
    }
}
