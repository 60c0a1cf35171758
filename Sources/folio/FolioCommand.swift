import ArgumentParser
import Folio
import FolioBatch
import FolioServer
import FolioWorkers
import Foundation

/// The `folio` command: renders reports from documents.
@main
struct FolioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folio",
        abstract: "Render PDF and HTML reports with charts from a JSON or YAML document.",
        discussion: """
            A document has a title, an optional page header and footer, page setup, \
            metadata, a theme and a list of elements (\(Block.typeNames.joined(separator: ", "))). \
            Charts: \(Chart.kinds.joined(separator: ", ")). See docs/input-format.md for the full input format.

            Examples:
              folio render Samples/weekly-summary.yaml -o out/weekly-summary.pdf
              folio render report.json --format html --html shadow --csp -o report.html
              cat report.yaml | folio render - --format pdf -o - > report.pdf
              folio batch Templates/weekly-summary.yaml --data patients.jsonl --out out --name '{{patient.id}}'
              folio serve --port 8080 --templates Templates --assets Templates
            """,
        subcommands: [
            RenderCommand.self, BatchCommand.self, RecordsCommand.self, CheckCommand.self, ServeCommand.self, PreviewCommand.self,
            SchemaCommand.self, FetchCommand.self,
        ]
    )

    /// Runs the command. The exit status is 0 (done), 1 (an error, said in one line) or
    /// 130 (interrupted) and nothing else: usage errors are 1 too, not ArgumentParser's 64.
    static func main() {
        PDFRenderer.compressStreamsOnce()
        // `folio __render-worker`: a render worker process started by `folio batch` or `folio serve`.
        if CommandLine.arguments.dropFirst().first == WorkerSettings.workerArgument {
            RenderWorker.main(arguments: CommandLine.arguments, jobs: [BatchWorkerJob.self, ServiceWorkerJob.self])
        }
        StandardStreams.ignoreBrokenPipes()
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == RenderCommand.configuration.commandName {
            // A render needs the font configuration: it is read while the arguments and the document are.
            startLoadingFonts()
            // The common forms skip ArgumentParser's reflection over every command's options.
            if let request = RenderRequest.commonForm(arguments.dropFirst()) { Foundation.exit(request.run() ? 0 : 1) }
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error).rawValue
            let message = fullMessage(for: error)
            if code == 0 {
                if !message.isEmpty { print(message) }
                Foundation.exit(0)
            }
            // One line: ArgumentParser's first line without its "Error: ", and where help is.
            if var first = message.split(whereSeparator: \.isNewline).first.map(String.init), !first.isEmpty {
                if first.hasPrefix("Error: ") { first.removeFirst(7) }
                if !first.hasPrefix("folio") { first = "folio: error: \(first) (see folio --help)" }
                StandardStreams.printError(first.escapingInvisibleControls)
            }
            Foundation.exit(code == 130 ? 130 : 1)
        }
    }
}
