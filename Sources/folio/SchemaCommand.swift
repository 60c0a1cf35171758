import ArgumentParser
import Folio
import FolioFiles
import FolioSchema
import Foundation

/// `folio schema [--for document|template|theme] [-o FILE]`: the JSON Schema editors check and
/// complete documents with, made from Folio's own model.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Write the JSON Schema (2020-12) of documents, templates or themes.",
        discussion: """
            Made from the model Folio decodes with, so it accepts what folio render accepts. Point an \
            editor at it with a first line such as
              # yaml-language-server: $schema=schema/folio-document.schema.json
            (the repository keeps the three schemas in schema/).
            """)

    @Option(name: .customLong("for"), help: "What the schema describes: document, template or theme.")
    var subject: String = "document"

    @Option(name: .shortAndLong, help: "The file to write (written whole or not at all); - or none for standard output.")
    var output: String?

    func run() throws {
        do {
            guard let chosen = DocumentSchema.Subject(rawValue: subject) else {
                throw FolioError(
                    path: "--for", "expected one of: \(DocumentSchema.Subject.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let text = Data(DocumentSchema.text(chosen).utf8)
            if let output, output != "-" {
                try AtomicFile.write(text, to: URL(fileURLWithPath: output))
            } else {
                try StandardStreams.writeOutput(text)
            }
        } catch {
            StandardStreams.printError(StandardStreams.describe(error))
            throw ExitCode(1)
        }
    }
}
