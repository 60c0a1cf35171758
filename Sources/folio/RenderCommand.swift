import ArgumentParser
import Folio
import FolioConnect
import FolioFiles
import FolioSheets
import Foundation

/// `folio render INPUT [-o OUTPUT] [--format pdf|html] [--fragment]`.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render one document to PDF, HTML or PNG pages.",
        discussion: """
            The input is JSON when its name ends in .json, YAML otherwise (JSON is valid YAML). \
            Image paths in the document are relative to the input file's folder \
            (the current folder for standard input). \
            On bad input folio prints one line naming the file, line and column and the field, such as \
            "weekly.yaml:12:7: error: elements[3].rows[2]: expected an array of strings", and exits with status 1.
            """
    )

    @Argument(help: "The document, JSON or YAML; '-' reads standard input. With --data, a template.")
    var input: String

    @Option(help: "Bind the input as a template to one record of this file (JSON lines, a JSON array, CSV, or FHIR data).")
    var data: String?

    @OptionGroup var dataFormat: DataFormatOption

    @Option(help: "FHIR data: the Patient id of the record to render (needed when the data holds several patients).")
    var id: String?

    @OptionGroup var patientServer: PatientServerOption

    @Option(help: "The record to render, 1 for the first (needed when the data holds several records).")
    var record: Int?

    @Option(name: .shortAndLong, help: "Where to write; '-' is standard output. Default: the input's name with the format's extension.")
    var output: String?

    @Option(
        help:
            "pdf, html, png (a picture of each page, and its text in a .txt beside it; -o page-%d.png numbers them), xlsx (the tables, a sheet each) or csv (a file per table; -o table-%d.csv numbers them). Default: from the output's extension, else pdf."
    )
    var format: RenderCommandFormat?

    @Option(help: "PNG only: pixels per inch, 18 to 600 (default 96).")
    var dpi: Double?

    @Flag(help: "HTML only: write one embeddable <div> with scoped styles instead of a whole page (same as --html fragment).")
    var fragment = false

    @OptionGroup var htmlOutput: HTMLOutputOption

    @OptionGroup var pageShell: PageShellOption

    @OptionGroup var theme: ThemeOption

    @Option(help: "HTML only: prefix for every element id (default: derived from the document).")
    var idPrefix: String?

    @Flag(help: "HTML only: print the Content-Security-Policy the output works under (its stylesheet allowed by hash) on standard error.")
    var csp = false

    @Option(
        help:
            "Write the layout report (pages, each block's pages, split tables, broken keep rules, overflow, missing glyphs, images without alt text) as JSON to this file."
    )
    var layoutReport: String?

    @Flag(help: "Exit with status 1 when the layout report has warnings (the output is still written).")
    var strict = false

    func validate() throws {
        let html = htmlOutput.html
        if fragment || html != nil || pageShell.path != nil || idPrefix != nil || csp, resolvedFormat != .html {
            throw ValidationError(
                "--fragment, --html, --template, --id-prefix and --csp need HTML output (--format html or an .html output)")
        }
        if fragment, let html, html != .fragment {
            throw ValidationError("--fragment and --html \(html.rawValue) contradict each other")
        }
        if patientServer.fhirServer != nil {
            guard patientServer.patient != nil else { throw ValidationError("--fhir-server needs --patient ID") }
            guard data == nil, id == nil, record == nil else {
                throw ValidationError("--fhir-server reads the record: no --data, --id or --record")
            }
        } else if patientServer.patient != nil {
            throw ValidationError("--patient chooses the patient of --fhir-server; with --data FILE, use --id")
        }
        if data == nil, patientServer.fhirServer == nil, id != nil || record != nil || dataFormat.dataFormat != .auto {
            throw ValidationError("--id, --record and --data-format choose a record of --data FILE")
        }
        if data == nil, patientServer.fhirServer == nil, dataFormat.zone != nil {
            throw ValidationError(
                "--zone sets the zone a template's dates are shown in, with --data FILE; a document names its own (metadata.timeZone)")
        }
        if let record, record < 1 { throw ValidationError("--record counts from 1") }
        if data == "-", input == "-" { throw ValidationError("the template and --data cannot both be standard input") }
        if input == "-", output == nil {
            throw ValidationError("reading standard input needs -o (use '-o -' for standard output)")
        }
        if dpi != nil, resolvedFormat != .png { throw ValidationError("--dpi is for PNG pages (--format png or a .png output)") }
        if signing.isSigning, resolvedFormat != .pdf {
            throw ValidationError("--sign-key signs a PDF; \(resolvedFormat.rawValue.uppercased()) output cannot be signed")
        }
        if passwordFile != nil, resolvedFormat != .pdf {
            throw ValidationError("--password-file protects a PDF; \(resolvedFormat.rawValue.uppercased()) output cannot be encrypted")
        }
    }

    var resolvedFormat: RenderCommandFormat { request.resolvedFormat }

    @OptionGroup var lenient: LenientOption

    @OptionGroup var signing: SigningOptions

    @Option(
        help: "PDF only: protect the PDF (AES-256) with the password in FILE (its first line), over the document's protection.userPassword."
    )
    var passwordFile: String?

    /// The first line of `path`, a regular file of at most 4 KB; never shown in an error.
    static func password(in path: String) throws -> String {
        try SecretFile.read(path, option: "--password-file", what: "password file")
    }

    /// The options as plain values, what `folio render`'s fast path builds for the common forms.
    var request: RenderRequest {
        RenderRequest(
            input: input, output: output, format: format, dpi: dpi, fragment: fragment, html: htmlOutput.html,
            pageShellPath: pageShell.path, themePath: theme.theme, idPrefix: idPrefix, csp: csp,
            layoutReport: layoutReport, strict: strict, lenient: lenient.lenient, passwordFile: passwordFile,
            signing: signing.files, data: data,
            fhir: dataFormat.dataFormat == .fhir ? (dataFormat.period, dataFormat.zone, dataFormat.maskedSystems) : nil,
            patientID: id, recordNumber: record, zone: dataFormat.zone)
    }

    func run() throws {
        guard let patient = patientServer.patient, patientServer.fhirServer != nil else {
            if !request.run() { throw ExitCode(1) }
            return
        }
        var request = self.request
        do {
            guard let file = try patientServer.fetchRecord() else { return }
            // The record is the patient's: its folder is removed when the render is done.
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            request.data = file.path
            request.fhir = (dataFormat.period, dataFormat.zone, dataFormat.maskedSystems)
            request.patientID = patient
            if !request.run() { throw ExitCode(1) }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            StandardStreams.printError(StandardStreams.describe(error))
            throw ExitCode(1)
        }
    }
}

extension OutputFormat: ExpressibleByArgument {}
extension HTMLRenderer.Output: ExpressibleByArgument {}
