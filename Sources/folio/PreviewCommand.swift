import ArgumentParser
import Dispatch
import Folio
import FolioConnect
import FolioServer
import Foundation
import Logging

/// `folio preview INPUT [--data FILE [--record N]] [--theme FILE] [--port P]`: a page on this
/// machine showing the document's PDF pages beside its HTML, rendered again on every save.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Show a document's PDF pages and HTML side by side, rendered again whenever a file changes.",
        discussion: """
            Serves a page on 127.0.0.1 only (this machine; there is no token, so it never listens \
            elsewhere): the PDF's pages as pictures beside the HTML, the layout report's warnings marked \
            on their pages, and an error at its file, line and column with the lines around it (the last \
            render that worked stays shown). The document, the data, the theme and every file beside them \
            are watched; a save renders again and the page follows without a reload. With --data, a \
            picker chooses the record. Stop it with Ctrl-C.

              folio preview Templates/weekly-summary.yaml --data Samples/patients.jsonl
            """
    )

    @Argument(help: "The document, JSON or YAML; with --data, a template.")
    var input: String

    @Option(help: "Bind the input as a template to a record of this file (JSON lines, a JSON array or CSV; FHIR with --data-format fhir).")
    var data: String?

    @OptionGroup var dataFormat: DataFormatOption

    @OptionGroup var patientServer: PatientServerOption

    @Option(help: "The record shown first, 1 for the first (a picker on the page chooses another).")
    var record = 1

    @OptionGroup var theme: ThemeOption

    @Option(help: "The port on 127.0.0.1 (0 picks a free one).")
    var port = 8700

    @OptionGroup var lenient: LenientOption

    func validate() throws {
        if record < 1 { throw ValidationError("--record counts from 1") }
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0 to 65535") }
        if input == "-" { throw ValidationError("preview watches a file: give its path, not '-'") }
        if patientServer.fhirServer != nil {
            guard patientServer.patient != nil, data == nil, dataFormat.dataFormat == .fhir else {
                throw ValidationError("--fhir-server needs --patient ID and --data-format fhir, and no --data")
            }
        } else if patientServer.patient != nil {
            throw ValidationError("--patient chooses the patient of --fhir-server")
        }
        if dataFormat.dataFormat == .fhir, data == nil, patientServer.fhirServer == nil {
            throw ValidationError("--data-format fhir needs --data (or --fhir-server)")
        }
    }

    func run() throws {
        let themePath = theme.theme
        // The patient's record from the server, read once into a folder only this user may read, removed at the end.
        let fetched: URL?
        do {
            fetched = try patientServer.fetchRecord()
        } catch {
            StandardStreams.printError(StandardStreams.describe(error))
            throw ExitCode(1)
        }
        defer { if let fetched { try? FileManager.default.removeItem(at: fetched.deletingLastPathComponent()) } }
        let settings = PreviewSettings(
            input: input, data: fetched?.path ?? data, fhir: try dataFormat.fhirOptions(), record: record, theme: themePath, port: port,
            lenient: lenient.lenient,
            loadTheme: { try ThemeOption.load(path: themePath) }, zone: dataFormat.zone)
        var logger = Logger(label: "folio-preview")
        logger.logLevel = .warning
        let outcome = Locked<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task { [settings, logger] in
            do {
                try await FolioPreview.run(settings: settings, logger: logger) { port in
                    StandardStreams.printError("folio: preview at http://127.0.0.1:\(port)/ (this machine only; Ctrl-C stops it)")
                }
            } catch {
                outcome.set(error)
            }
            done.signal()
        }
        done.wait()
        if let error = outcome.value {
            StandardStreams.printError(StandardStreams.describe(error))
            throw ExitCode(1)
        }
    }
}
