import ArgumentParser

/// The `folio` command: renders reports from documents.
@main
struct FolioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folio",
        abstract: "Render PDF and HTML reports with charts from a JSON or YAML document.",
        discussion: """
        A document has a title, an optional page header and footer, page setup, \
        metadata and a list of elements (subtitle, paragraph, image, table, chart, \
        message, widgets, pageBreak). See README.md for the full input format.

        Examples:
          folio render Samples/weekly-summary.yaml -o out/weekly-summary.pdf
          folio render report.json --format html --fragment -o -
          cat report.yaml | folio render - --format pdf > report.pdf
        """,
        subcommands: [RenderCommand.self, BatchCommand.self]
    )
}
