import ArgumentParser
import Folio
import FolioData
import FolioFHIR
import Foundation

/// `folio records DATA [--data-format fhir --period START/END --zone ZONE]`: the records a batch
/// template is bound to, as JSON lines, so they can be seen and tested.
struct RecordsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "records",
        abstract: "Print the records a batch would bind its template to, one JSON line each.",
        discussion: """
            With --data-format fhir, DATA is a FHIR R4 Bulk Data export folder, an NDJSON file or a Bundle, \
            and each line is one Patient's record (for the period, when one is given): patient, period, series \
            (heartRate, steps, bodyWeight, systolic, diastolic, glucose, oxygenSaturation, bodyTemperature, \
            painSeverity, respiratoryRate, in canonical units), codes (other coded observations), bloodPressure, \
            medications (adherence), the patient summary (composition and its sections) and the clinical lists \
            (problems, allergies, medicationList, immunizations, procedures, results with flags, resultGroups, \
            resultSeries, socialHistory, devices, planOfCare, alerts, advanceDirectives, …) and warnings (see \
            docs/fhir.md). Problems with the export as a whole go to standard error.

            Example:
              folio records export/ --data-format fhir --period 2026-11-09/2026-11-15 --zone America/New_York
            """)

    @Argument(help: "The data: a JSON lines, JSON or CSV file, or (with --data-format fhir) a FHIR export folder, NDJSON file or Bundle.")
    var data: String

    @OptionGroup var format: DataFormatOption

    func run() throws {
        do {
            if let options = try format.fhirOptions() {
                let export = try FHIRExport(path: data, options: options)
                for note in export.notes { StandardStreams.printError("folio: warning: \(note)".escapingInvisibleControls) }
                var pending = Data()
                try export.forEachRecord { record in
                    pending.append(contentsOf: (record.json + "\n").utf8)
                    if pending.count >= 1 << 16 {
                        try StandardStreams.writeOutput(pending)
                        pending.removeAll(keepingCapacity: true)
                    }
                } note: {
                    StandardStreams.printError("folio: warning: \($0)".escapingInvisibleControls)
                }
                try StandardStreams.writeOutput(pending)
            } else {
                let reader = try RecordReader(path: data)
                while let record = try reader.next() {
                    switch record.value {
                    case .success(let value): try StandardStreams.writeOutput(Data((value.json + "\n").utf8))
                    case .failure(let error): StandardStreams.printError("folio: record \(record.number): \(error)")
                    }
                }
            }
        } catch {
            StandardStreams.printError(StandardStreams.describe(error))
            throw ExitCode(1)
        }
    }
}
