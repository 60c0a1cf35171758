import FolioData
import FolioModel
import Foundation

/// One patient per document: a `document` Bundle (an International Patient Summary) is about the
/// patient its Composition names, so its entries about anyone else are left out of every record —
/// listed under "Left out" in its patient's, and noted for the person running the export — and a
/// Patient it holds that is no document's subject gets no record of its own (no "Unnamed patient").
extension FHIRIndex {
    /// A `document` Bundle read: where its entries are in the reading order, and its Composition's subject.
    struct DocumentBundle {
        let name: String
        let first: Int64
        let last: Int64
        /// The key of the Composition's subject (`Patient/ID`, a URN, an identifier).
        let subject: String?
    }

    /// After the tables are sorted by patient: each document Bundle's rows about another patient than
    /// its Composition's subject are removed and counted for that subject, and its other Patients skipped.
    func keepDocumentsToTheirSubject() throws {
        guard !documents.isEmpty else { return }
        let subjectOrd = try database.prepare("SELECT ord FROM patient_keys WHERE key = ? AND ord >= 0")
        var subjects = Set<Int64>()
        var resolved: [(document: DocumentBundle, pord: Int64?)] = []
        // A document whose first entry is no Composition naming a patient is kept as read.
        for document in documents where document.subject != nil {
            var pord: Int64?
            if let key = document.subject {
                subjectOrd.bind(1, key)
                if try subjectOrd.step() { pord = subjectOrd.integer(0) }
                subjectOrd.reset()
            }
            if let pord { subjects.insert(pord) }
            resolved.append((document, pord))
        }
        let recordLeftOut = try database.prepare("INSERT INTO left_out VALUES (?,?,?,?)")
        let skip = try database.prepare("INSERT OR IGNORE INTO skipped_patients VALUES (?)")
        for (document, pord) in resolved {
            // Rows of the document's range not of its subject (known by its Patient, or only by the key).
            let others =
                pord != nil
                ? "ord BETWEEN \(document.first) AND \(document.last) AND (pord IS NULL OR pord != \(pord ?? 0))"
                : "ord BETWEEN \(document.first) AND \(document.last) AND NOT (pord IS NULL AND patient = ?)"
            var counts: [(type: String, count: Int64)] = []
            for (table, type) in [
                ("clinical_by_patient", "type"), ("readings_by_patient", "'Observation'"),
                ("doses_by_patient", "'MedicationAdministration'"),
            ] {
                let count = try database.prepare("SELECT \(type), count(DISTINCT ord) FROM \(table) WHERE \(others) GROUP BY 1 ORDER BY 1")
                if pord == nil { count.bind(1, document.subject) }
                while try count.step() { counts.append((count.text(0) ?? "resource", count.integer(1) ?? 0)) }
                let delete = try database.prepare("DELETE FROM \(table) WHERE \(others)")
                if pord == nil { delete.bind(1, document.subject) }
                try delete.run()
            }
            let delete = try database.prepare("DELETE FROM compartment_by_patient WHERE \(others)")
            if pord == nil { delete.bind(1, document.subject) }
            try delete.run()
            for (type, count) in counts where count > 0 {
                recordLeftOut.bind(1, pord)
                recordLeftOut.bind(2, document.subject)
                recordLeftOut.bind(3, "a \(type) about another patient than the summary's")
                recordLeftOut.bind(4, count)
                try recordLeftOut.run()
                note(
                    "\(document.name): \(count) \(type) resource\(count == 1 ? "" : "s") about another patient than its Composition's left out"
                )
            }
            // The Bundle's other Patients: no record of their own unless another document is about them.
            let patients = try database.prepare("SELECT ord FROM patients WHERE first_read BETWEEN ? AND ?")
            patients.bind(1, document.first)
            patients.bind(2, document.last)
            while try patients.step() {
                guard let ord = patients.integer(0), ord != pord, !subjects.contains(ord) else { continue }
                skip.bind(1, ord)
                try skip.run()
                note("\(document.name): a Patient other than its Composition's subject gets no summary of its own")
            }
        }
    }
}
