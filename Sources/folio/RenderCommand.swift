import ArgumentParser
import Folio
import Foundation

/// `folio render INPUT [-o OUTPUT] [--format pdf|html] [--fragment]`.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render one document to PDF or HTML.",
        discussion: """
            The input is JSON when its name ends in .json, YAML otherwise (JSON is valid YAML). \
            Image paths in the document are relative to the input file's folder \
            (the current folder for standard input). \
            On bad input folio prints one line naming the field, such as \
            "elements[3].rows[2]: expected an array of strings", and exits with status 1.
            """
    )

    @Argument(help: "The document, JSON or YAML; '-' reads standard input.")
    var input: String

    @Option(name: .shortAndLong, help: "Where to write; '-' is standard output. Default: the input's name with the format's extension.")
    var output: String?

    @Option(help: "pdf or html. Default: from the output's extension, else pdf.")
    var format: OutputFormat?

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
        if input == "-", output == nil {
            throw ValidationError("reading standard input needs -o (use '-o -' for standard output)")
        }
        if signing.isSigning, resolvedFormat != .pdf {
            throw ValidationError("--sign-key signs a PDF; HTML output cannot be signed")
        }
        if passwordFile != nil, resolvedFormat != .pdf {
            throw ValidationError("--password-file protects a PDF; HTML output cannot be encrypted")
        }
    }

    var resolvedFormat: OutputFormat {
        if let format { return format }
        if let output, output.lowercased().hasSuffix(".html") || output.lowercased().hasSuffix(".htm") { return .html }
        return .pdf
    }

    var outputPath: String {
        if let output { return output }
        let base =
            input.hasSuffix(".json") || input.hasSuffix(".yaml") || input.hasSuffix(".yml")
            ? String(input[..<(input.lastIndex(of: ".") ?? input.endIndex)]) : input
        return base + "." + resolvedFormat.rawValue
    }

    @OptionGroup var lenient: LenientOption

    @OptionGroup var signing: SigningOptions

    @Option(
        help: "PDF only: protect the PDF (AES-256) with the password in FILE (its first line), over the document's protection.userPassword."
    )
    var passwordFile: String?

    /// The first line of `path`, a regular file of at most 4 KB; never shown in an error.
    static func password(in path: String) throws -> String {
        let data = try BoundedFile.read(path, limit: 4096, field: "--password-file", what: "password file", regularOnly: true)
        let text = String(decoding: data, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard !password.isEmpty else { throw FolioError(path: "--password-file", "the file's first line (the password) is empty") }
        return password
    }

    func run() throws {
        StandardStreams.ignoreBrokenPipes()
        StandardStreams.exitOnInterrupt()
        // A crash inside a C library is one error line and status 1, saying what was being drawn.
        RenderActivity.reportCrashes(prefix: "folio: error: ")
        do {
            try RenderDeadline.$current.withValue(RenderActivity.deadline()) { try render() }
        } catch {
            StandardStreams.printError(StandardStreams.describe(error))
            throw ExitCode(1)
        }
    }

    private func render() throws {
        // The key and certificate are checked before the document is read.
        let signer = try signing.load { StandardStreams.printError("folio: warning: \($0)") }
        let data: Data
        let baseDirectory: URL
        if input == "-" {
            data = try BoundedFile.readStandardInput(limit: InputLimits.documentBytes)
            baseDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        } else {
            data = try BoundedFile.read(input, limit: InputLimits.documentBytes, field: "", what: "input")
            baseDirectory = URL(fileURLWithPath: input).deletingLastPathComponent()
        }
        var decoded = try DocumentDecoder.decodeForRendering(
            data, format: DocumentDecoder.Format(fileName: input), lenient: lenient.lenient
        ) {
            StandardStreams.printError("folio: warning: \($0)")
        }
        if let passwordFile {
            // The user password from a file, so it is never in a process list; the document's other
            // protection settings (owner password, allow) stay.
            let password = try RenderCommand.password(in: passwordFile)
            var protection = decoded.protection ?? Protection(userPassword: password)
            protection.userPassword = password
            decoded.protection = protection
            try decoded.validate()
        }
        var options = RenderOptions(
            baseDirectory: baseDirectory, theme: try theme.load(),
            html: htmlOutput.html ?? (fragment ? .fragment : .page), idPrefix: idPrefix)
        options.pageTemplate = try pageShell.load()
        options.signer = signer
        // Validated, themed and with its images read once, whatever is rendered from it.
        let document = try decoded.prepared(options: options)
        var report: LayoutReport?
        var bytes: Data?
        if layoutReport != nil || strict {
            let result = try document.pdfWithReport(signer: options.signer)
            report = result.report
            if resolvedFormat == .pdf { bytes = result.data }
            if let path = layoutReport {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                try AtomicFile.write(try encoder.encode(result.report), to: URL(fileURLWithPath: path))
            }
        }
        if resolvedFormat == .html {
            let rendered = try document.renderedHTML(options: options)
            bytes = Data(rendered.html.utf8)
            if csp { StandardStreams.printError("Content-Security-Policy: \(rendered.contentSecurityPolicy)") }
        } else if bytes == nil {
            bytes = try document.renderCountingPages(as: resolvedFormat, options: options).data
        }
        if outputPath == "-" {
            try StandardStreams.writeOutput(bytes ?? Data())
        } else {
            try AtomicFile.write(bytes ?? Data(), to: URL(fileURLWithPath: outputPath))
        }
        if strict, let warnings = report?.warnings, let first = warnings.first {
            let more = warnings.count > 1 ? " (and \(warnings.count - 1) more)" : ""
            throw FolioError(path: first.path, "layout: \(first.message)\(more)")
        }
    }
}

extension OutputFormat: ExpressibleByArgument {}
extension HTMLRenderer.Output: ExpressibleByArgument {}
