import Folio
import FolioData
import FolioFHIR
import FolioFiles
import FolioTemplate
import FolioWorkers
import Foundation

/// What one `folio render` does, as plain values: `RenderCommand` builds it from ArgumentParser's
/// parse, and `RenderRequest.commonForm` from the arguments of the common invocations directly, so
/// the usual render does not pay for reflecting over every command's options (21 M of a cold
/// render's 227 M instructions). Both run the same `run()`.
struct RenderRequest: Equatable {
    /// The document, JSON or YAML; "-" is standard input.
    var input: String
    /// Where to write; "-" is standard output; nil: the input's name with the format's extension.
    var output: String?
    /// pdf, html or png; nil: from the output's extension, else pdf.
    var format: RenderCommandFormat?
    /// PNG only: pixels per inch (nil: 96).
    var dpi: Double?
    /// HTML only: one embeddable `<div>` (the same as `html: .fragment`).
    var fragment = false
    /// HTML only: page, fragment or shadow.
    var html: HTMLRenderer.Output?
    /// HTML pages only: a Mustache page shell's path.
    var pageShellPath: String?
    /// A theme file's path.
    var themePath: String?
    /// HTML only: the prefix of every element id.
    var idPrefix: String?
    /// HTML only: print the Content-Security-Policy on standard error.
    var csp = false
    /// Where to write the layout report.
    var layoutReport: String?
    /// Exit with status 1 when the layout report has warnings.
    var strict = false
    /// Unknown keys are warnings, not errors.
    var lenient = false
    /// PDF only: the file with the protection password.
    var passwordFile: String?
    /// The signing key and certificates; nil when none were given.
    var signing: SigningFiles?
    /// A data file whose one record the input (a template) is bound to.
    var data: String?
    /// The data is FHIR, with this period and zone (nil: all of the data, UTC).
    var fhir: (period: String?, zone: String?, masked: [String])?
    /// FHIR data: the Patient id of the record.
    var patientID: String?
    /// The record's number (1 is the first).
    var recordNumber: Int?
    /// The IANA zone the template's dates are shown in where it names none (`--zone`).
    var zone: String? = nil

    static func == (a: RenderRequest, b: RenderRequest) -> Bool {
        a.input == b.input && a.output == b.output && a.format == b.format && a.dpi == b.dpi && a.fragment == b.fragment && a.html == b.html
            && a.pageShellPath == b.pageShellPath && a.themePath == b.themePath && a.idPrefix == b.idPrefix && a.csp == b.csp
            && a.layoutReport == b.layoutReport && a.strict == b.strict && a.lenient == b.lenient && a.passwordFile == b.passwordFile
            && a.signing == b.signing && a.data == b.data && a.fhir?.period == b.fhir?.period && a.fhir?.zone == b.fhir?.zone
            && (a.fhir == nil) == (b.fhir == nil) && a.fhir?.masked == b.fhir?.masked && a.patientID == b.patientID
            && a.recordNumber == b.recordNumber && a.zone == b.zone
    }

    /// The request of `folio render ARGUMENTS` when ARGUMENTS are one of the common forms: one
    /// input (a path or "-") with at most `-o`/`--output PATH` and `--format pdf|html`, each at most
    /// once, in any order. Anything else (another option, help, a value that looks like an option,
    /// standard input without `-o`) is nil: ArgumentParser parses it and says what is wrong. What this
    /// accepts, ArgumentParser accepts with the same meaning (`RenderRequestTests` checks both).
    static func commonForm(_ arguments: ArraySlice<String>) -> RenderRequest? {
        var input: String?
        var output: String?
        var format: RenderCommandFormat?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-"), argument != "-" else {
                if input != nil { return nil }
                input = argument
                continue
            }
            guard index < arguments.endIndex else { return nil }
            let value = arguments[index]
            index += 1
            if value.hasPrefix("-"), value != "-" { return nil }
            switch argument {
            case "-o", "--output":
                if output != nil { return nil }
                output = value
            case "--format":
                guard format == nil, let parsed = RenderCommandFormat(rawValue: value) else { return nil }
                format = parsed
            default:
                return nil
            }
        }
        guard let input, input != "-" || output != nil else { return nil }
        return RenderRequest(input: input, output: output, format: format)
    }

    /// The format written: `format`, else from the output's extension, else pdf.
    var resolvedFormat: RenderCommandFormat {
        if let format { return format }
        if let output, output.lowercased().hasSuffix(".png") { return .png }
        if let output, output.lowercased().hasSuffix(".xlsx") { return .xlsx }
        if let output, output.lowercased().hasSuffix(".csv") { return .csv }
        if let output, output.lowercased().hasSuffix(".html") || output.lowercased().hasSuffix(".htm") { return .html }
        return .pdf
    }

    /// The path written: `output`, else the input's name with the format's extension.
    var outputPath: String {
        if let output { return output }
        let base =
            input.hasSuffix(".json") || input.hasSuffix(".yaml") || input.hasSuffix(".yml")
            ? String(input[..<(input.lastIndex(of: ".") ?? input.endIndex)]) : input
        return base + "." + resolvedFormat.rawValue
    }

    /// What `produce` writes to a file descriptor, written to the output: atomically to its path, or
    /// to standard output for `-`.
    @discardableResult
    private func writeOutput<Result>(_ produce: (Int32) throws -> Result) throws -> Result {
        guard outputPath == "-" else { return try AtomicFile.write(to: URL(fileURLWithPath: outputPath), producing: produce) }
        do {
            return try produce(STDOUT_FILENO)
        } catch let error as FolioError where error.path.isEmpty && error.message.hasPrefix("cannot write") {
            throw FolioError(path: "", "cannot write to standard output: \(error.message)")
        }
    }

    /// Renders, printing an error as one line on standard error; false after an error.
    func run() -> Bool {
        StandardStreams.ignoreBrokenPipes()
        StandardStreams.exitOnInterrupt()
        // A crash inside a C library is one error line and status 1, saying what was being drawn.
        RenderActivity.reportCrashes(prefix: "folio: error: ")
        // The input file, read again only to place the fields errors and warnings name.
        let source = SourceFile(input)
        do {
            try RenderDeadline.$current.withValue(RenderActivity.deadline()) {
                // A crash before the first block is drawn still says what was under way.
                try RenderDeadline.check(at: "reading the document")
                try render(source: source)
            }
            return true
        } catch {
            // A document's field is named with the line and column that hold it; a bound template's
            // field, with the template's line that made it.
            if let inFile = error as? InputFileError {
                StandardStreams.printError(source?.describe(inFile.error, as: "error") ?? StandardStreams.describe(inFile.error))
            } else {
                let located =
                    SourceFile.describeElsewhere(error)
                    ?? (error as? FolioError).flatMap {
                        data == nil ? source?.describe($0, as: "error") : source?.describeBound($0, as: "error")
                    }
                StandardStreams.printError(located ?? StandardStreams.describe(error))
            }
            return false
        }
    }

    private func render(source: SourceFile?) throws {
        // The key and certificate are checked before the document is read.
        let signer = try signing?.load { StandardStreams.printError("folio: warning: \($0)") }
        let baseDirectory =
            input == "-"
            ? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            : URL(fileURLWithPath: input).deletingLastPathComponent()
        // The input's bytes are let go of once parsed.
        let read = {
            input == "-"
                ? try BoundedFile.readStandardInput(limit: InputLimits.documentBytes)
                : try BoundedFile.read(input, limit: InputLimits.documentBytes, field: "", what: "input")
        }
        var decoded = try data.map { try boundDocument(source: source, data: $0, read: read) } ?? readDocument(source: source, read: read)
        if let passwordFile {
            // The user password from a file, so it is never in a process list; the document's other
            // protection settings (owner password, allow) stay.
            let password = try RenderCommand.password(in: passwordFile)
            var protection = decoded.protection ?? Protection(userPassword: password)
            protection.userPassword = password
            decoded.protection = protection
            try decoded.validate()
        }
        if resolvedFormat == .xlsx {
            let workbook = try decoded.xlsx()
            try writeOutput { fd in try AtomicFile.writeAll(workbook, to: fd) }
            return
        }
        if resolvedFormat == .csv {
            let tables = try decoded.csvTables()
            try TableFiles(pattern: outputPath, count: tables.count).write(tables)
            return
        }
        var options = RenderOptions(
            baseDirectory: baseDirectory, theme: try ThemeOption.load(path: themePath),
            html: html ?? (fragment ? .fragment : .page), idPrefix: idPrefix)
        options.pageTemplate = try PageShellOption.load(path: pageShellPath)
        options.signer = signer
        // Validated, themed and with its images read once, whatever is rendered from it.
        let report = try writeRendered(try decoded.prepared(options: options), options: options)
        try finish(report: report)
    }

    /// The template of `input` bound to the one record of `data` that the options choose (a FHIR
    /// patient, or a record of JSON lines or CSV), decoded.
    private func boundDocument(source: SourceFile?, data: String, read: () throws -> Data) throws -> Document {
        let template: DocumentTemplate
        do {
            if let source {
                let read = try DocumentTemplate.read(input, regularOnly: false)
                template = read.template.withDefaultZone(zone)
                source.origins = read.origins
            } else {
                template = try DocumentTemplate(data: try read(), format: DocumentDecoder.Format(fileName: input)).withDefaultZone(zone)
            }
        } catch let error as FolioError {
            throw InputFileError(error: error)
        }
        let options = try fhir.map { given in
            var options = try FHIRImportOptions(period: given.period, zone: given.zone)
            options.maskedIdentifierSystems = Set(given.masked)
            return options
        }
        let record = try RecordSelection.record(
            in: data, fhir: options, id: patientID, number: recordNumber,
            note: { StandardStreams.printError("folio: warning: --data: \($0)") })
        // The binding's errors name the template's fields; the bound document's, fields that
        // the template's lines made (found again only when there is an error to place).
        let bound: TreeValue
        do {
            bound = try template.bind(record)
        } catch let error as FolioError {
            throw InputFileError(error: error)
        }
        source?.templateField = { template.templatePath(ofBound: $0, record: record) }
        return try DocumentDecoder.decode(Document.self, from: bound, lenient: lenient)
    }

    /// The document of `input`, decoded; with a source to place errors in, its includes are read
    /// too and each field placed in the file that holds it.
    private func readDocument(source: SourceFile?, read: () throws -> Data) throws -> Document {
        let warn = { (warning: FolioError) in
            StandardStreams.printError(source?.describe(warning, as: "warning") ?? "folio: warning: \(warning)")
        }
        let format = DocumentDecoder.Format(fileName: input)
        guard let source else {
            return try DocumentDecoder.decodeForRendering(reading: read, format: format, lenient: lenient, warning: warn)
        }
        let read = try SourceDocument.read(input)
        source.origins = read.origins
        return try DocumentDecoder.decode(Document.self, from: read.tree, quotingHint: format == .yaml, lenient: lenient, warning: warn)
    }

    /// Writes `document` as PNG pages, a PDF (as it is made) or HTML; returns the layout report
    /// of its pages when one was made (always for pictures and PDFs; for HTML when asked for).
    private func writeRendered(_ document: PreparedDocument, options: RenderOptions) throws -> LayoutReport? {
        if resolvedFormat == .png {
            // A picture of each page, and its text, beside one another; none left when drawing fails.
            var files = try PagePictureFiles(pattern: outputPath)
            do {
                return try document.pagePictures(dpi: dpi ?? 96) { try files.write($0) }
            } catch {
                files.removeWritten()
                throw error
            }
        }
        if resolvedFormat == .pdf {
            // Written as it is made: a long document's file is never held in memory whole.
            return try writeOutput { fd in try document.writePDF(to: fd, options: options) }.report
        }
        let report = layoutReport != nil || strict ? try document.pdfWithReport(signer: options.signer).report : nil
        let rendered = try document.renderedHTML(options: options)
        if csp { StandardStreams.printError("Content-Security-Policy: \(rendered.contentSecurityPolicy)") }
        try writeOutput { fd in try AtomicFile.writeAll(Data(rendered.html.utf8), to: fd) }
        return report
    }

    /// The layout report written where `--layout-report` asks, characters no font can draw said,
    /// and with `--strict` the first of the report's warnings an error.
    private func finish(report: LayoutReport?) throws {
        if let path = layoutReport, let report {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try AtomicFile.write(try encoder.encode(report), to: URL(fileURLWithPath: path))
        }
        // Boxes instead of letters are said whatever is asked: a reader would otherwise find them only on the page.
        for warning in report?.warnings ?? [] where warning.kind == .missingGlyphs {
            StandardStreams.printError("folio: warning: \(warning.path): \(warning.message)".escapingInvisibleControls)
        }
        if strict, let warnings = report?.warnings, let first = warnings.first {
            let more = warnings.count > 1 ? " (and \(warnings.count - 1) more)" : ""
            throw FolioError(path: first.path, "layout: \(first.message)\(more)")
        }
    }
}
