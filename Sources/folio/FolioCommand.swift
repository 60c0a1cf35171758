import ArgumentParser

/// The `folio` command: renders reports from documents.
@main
struct FolioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folio",
        abstract: "Render PDF and HTML reports with charts from a JSON or YAML document.",
        discussion: """
        A document has a title, an optional page header and footer, page setup, \
        metadata, a theme and a list of elements (subtitle, paragraph, image, table, chart, \
        message, widgets, pageBreak, section). Charts: bar, line, scatter, pie, donut, \
        rings, range. See README.md for the full input format.

        Examples:
          folio render Samples/weekly-summary.yaml -o out/weekly-summary.pdf
          folio render report.json --format html --html shadow --csp -o report.html
          cat report.yaml | folio render - --format pdf -o - > report.pdf
          folio batch Templates/weekly-summary.yaml --data patients.jsonl --out out --name '{{patient.id}}'
        """,
        subcommands: [RenderCommand.self, BatchCommand.self]
    )
}
