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

    @Flag(help: "HTML only: write one embeddable <div> with scoped styles instead of a whole page.")
    var fragment = false

    func validate() throws {
        if fragment, resolvedFormat != .html {
            throw ValidationError("--fragment needs HTML output (--format html or an .html output)")
        }
        if input == "-", output == nil {
            throw ValidationError("reading standard input needs -o (use '-o -' for standard output)")
        }
    }

    var resolvedFormat: OutputFormat {
        if let format { return format }
        if let output, output.lowercased().hasSuffix(".html") || output.lowercased().hasSuffix(".htm") { return .html }
        return .pdf
    }

    var outputPath: String {
        if let output { return output }
        let base = input.hasSuffix(".json") || input.hasSuffix(".yaml") || input.hasSuffix(".yml")
            ? String(input[..<(input.lastIndex(of: ".") ?? input.endIndex)]) : input
        return base + "." + resolvedFormat.rawValue
    }

    func run() throws {
        do {
            let data: Data
            let baseDirectory: URL
            if input == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
                baseDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            } else {
                guard let contents = FileManager.default.contents(atPath: input) else {
                    throw FolioError(path: "", "cannot read \(input)")
                }
                data = contents
                baseDirectory = URL(fileURLWithPath: input).deletingLastPathComponent()
            }
            let document = try DocumentDecoder.decode(data, format: DocumentDecoder.Format(fileName: input))
            let options = RenderOptions(baseDirectory: baseDirectory, fragment: fragment)
            let bytes = try document.render(as: resolvedFormat, options: options)
            if outputPath == "-" {
                FileHandle.standardOutput.write(bytes)
            } else {
                try bytes.write(to: URL(fileURLWithPath: outputPath), options: .atomic)
            }
        } catch let error as FolioError {
            FileHandle.standardError.write(Data("folio: error: \(error)\n".utf8))
            throw ExitCode(1)
        } catch let error as CocoaError {
            FileHandle.standardError.write(Data("folio: error: \(error.localizedDescription)\n".utf8))
            throw ExitCode(1)
        }
    }
}

extension OutputFormat: ExpressibleByArgument {}
