import FolioData
import FolioModel
import Foundation

/// The one record `folio render TEMPLATE --data FILE` binds: a FHIR patient (by `--id`, by its
/// place with a number, or the only one), or one record of JSON lines, a JSON array or CSV (by `--record`, or the only one).
package enum RecordSelection {
    /// The record of `path`; `fhir` reads it as FHIR (whose notes go to `note`). Errors name `--id`,
    /// `--record` or `--data`.
    package static func record(
        in path: String, fhir: FHIRImportOptions?, id: String?, number: Int?, note: (String) -> Void
    ) throws -> TreeValue {
        if let fhir {
            let export = try FHIRExport(path: path, options: fhir)
            export.notes.forEach(note)
            var chosen: TreeValue?
            var ids: [String] = []
            /// Thrown to stop reading once the patient asked for is found (the rest of the export need not be built).
            struct Found: Error {}
            do {
                try export.forEachRecord { record in
                    let recordID = record.value(at: "patient.id")?.text ?? ""
                    ids.append(recordID)
                    if let id {
                        if recordID == id {
                            chosen = record
                            throw Found()
                        }
                    } else if let number {
                        // The patient at `number`, in the export's order (the preview's record picker).
                        if ids.count == number {
                            chosen = record
                            throw Found()
                        }
                    } else if ids.count == 1 {
                        chosen = record
                    } else {
                        chosen = nil
                    }
                } note: {
                    note($0)
                }
            } catch is Found {}
            if let chosen { return chosen }
            let listed = ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
            if let id {
                throw FolioError(
                    path: "--id", "no patient \"\(id.prefix(64))\" in \(path) (its patients: \(ids.isEmpty ? "none" : listed))")
            }
            if ids.isEmpty { throw FolioError(path: "--data", "\(path) holds no patient with data") }
            if let number {
                throw FolioError(path: "--record", "\(path) holds \(ids.count) patient\(ids.count == 1 ? "" : "s"), not \(number)")
            }
            throw FolioError(path: "--id", "\(path) holds \(ids.count) patients (\(listed)); choose one with --id")
        }
        guard id == nil else { throw FolioError(path: "--id", "--id picks a patient of FHIR data (--data-format fhir); use --record N") }
        let reader = try RecordReader(path: path)
        var count = 0
        var chosen: DataRecord?
        while let record = try reader.next() {
            count += 1
            if let number {
                if count == number {
                    chosen = record
                    break
                }
            } else if count == 1 {
                chosen = record
            } else {
                throw FolioError(path: "--record", "\(path) holds more than one record; choose one with --record N (1 is the first)")
            }
        }
        guard let chosen else {
            if let number { throw FolioError(path: "--record", "\(path) holds \(count) record\(count == 1 ? "" : "s"), not \(number)") }
            throw FolioError(path: "--data", "\(path) holds no record")
        }
        switch chosen.value {
        case .success(let value): return value
        case .failure(let error): throw FolioError(path: "--data", "record \(chosen.number): \(error.message)")
        }
    }
}
