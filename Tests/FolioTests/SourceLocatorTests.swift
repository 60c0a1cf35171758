import Foundation
import XCTest

@testable import Folio
@testable import FolioData
@testable import FolioTemplate

/// Errors say the line and column of the field they name (#43): in YAML and JSON, at a key or an
/// item, and at the nearest enclosing field for one the text does not hold.
final class SourceLocatorTests: XCTestCase {
    private let yaml = """
        title: Weekly summary
        elements:
          - type: paragraph
            text: Hello
          - type: chart
            kind: bar
            categories: [Mon, Tue]
            series:
              - title: Pain
                values: [3, "four"]
        """

    func testAFieldIsFoundAtItsKeyOrItem() {
        XCTAssertEqual(SourceLocator.locate("title", in: yaml)?.description, "1:1")
        XCTAssertEqual(SourceLocator.locate("elements[1]", in: yaml)?.description, "5:5")
        XCTAssertEqual(SourceLocator.locate("elements[1].series[0].values[1]", in: yaml)?.description, "10:21")
        XCTAssertEqual(SourceLocator.locate("elements[0].text", in: yaml)?.description, "4:5")
        // A field the model adds is placed at the nearest one the text holds.
        XCTAssertEqual(SourceLocator.locate("elements[1].series[0].dataTable", in: yaml)?.description, "9:9")
        XCTAssertNil(SourceLocator.locate("theme.accent", in: yaml))
        XCTAssertNil(SourceLocator.locate("", in: yaml))
    }

    func testJSONIsPlacedTooAndBrokenTextIsNotAnError() {
        let json = "{\n  \"title\": \"T\",\n  \"elements\": [\n    {\"type\": \"table\", \"rows\": [[\"a\", 2]]}\n  ]\n}"
        XCTAssertEqual(SourceLocator.locate("elements[0].rows[0][1]", in: json)?.description, "4:38")
        // Text that breaks off places what it read before the break.
        XCTAssertEqual(SourceLocator.locate("elements[0]", in: "elements: [first, {unclosed")?.description, "1:12")
        XCTAssertEqual(SourceLocator.locate("elements[1].text", in: "elements: [first, {unclosed")?.description, "1:19")
        XCTAssertNil(SourceLocator.steps(of: "elements[x]"))
        XCTAssertEqual(SourceLocator.steps(of: "a[1][2].b"), [.key("a"), .index(1), .index(2), .key("b")])
    }

    func testTheCommandLineSaysFileLineAndColumn() throws {
        try TestSupport.integrationOnly()
        let file = try TestSupport.temporaryFile(Data(yaml.utf8), name: "located.yaml")
        let result = try TestSupport.run(TestSupport.folioBinary.path, ["render", file.path, "-o", file.path + ".pdf"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderr.trimmingCharacters(in: .whitespacesAndNewlines),
            "\(file.path):10:21: error: elements[1].series[0].values[1]: expected a number, found a string")
        // A lenient render's warnings say where too.
        let misspelt = try TestSupport.temporaryFile(Data("titel: T\nelements: []\n".utf8), name: "misspelt.yaml")
        let lenient = try TestSupport.run(
            TestSupport.folioBinary.path, ["render", misspelt.path, "--lenient", "-o", misspelt.path + ".pdf"])
        XCTAssertTrue(lenient.stderr.hasPrefix("\(misspelt.path):1:1: warning: titel: unknown key"), lenient.stderr)
    }

    /// A malformed input of every kind the command line reads is named at its file, line and column.
    func testSyntaxErrorsOfEveryInputKindSayFileLineAndColumn() throws {
        try TestSupport.integrationOnly()
        let folio = TestSupport.folioBinary.path
        let good = try TestSupport.temporaryFile(Data("title: T\nelements: []\n".utf8), name: "good.yaml")
        let badYAML = try TestSupport.temporaryFile(Data("title: T\nelements:\n  - type: paragraph\n    text: [a\n".utf8), name: "bad.yaml")
        let badJSON = try TestSupport.temporaryFile(Data("{\"title\": \"T\",\n \"elements\": [1,]}".utf8), name: "bad.json")
        let twice = try TestSupport.temporaryFile(Data("title: T\nelements: []\ntitle: U\n".utf8), name: "twice.yaml")
        let badTheme = try TestSupport.temporaryFile(Data("colors:\n  accent: [1,\n".utf8), name: "theme.yaml")
        let data = try TestSupport.temporaryFile(Data("{\"a\": 1}\n".utf8), name: "data.jsonl")
        let folder = try TestSupport.temporaryDirectory()
        try Data("title: T\nelements:\n  - $include: part.yaml\n".utf8).write(to: folder.appendingPathComponent("main.yaml"))
        try Data("type: paragraph\ntext: {a: \n  b\n".utf8).write(to: folder.appendingPathComponent("part.yaml"))
        let cases: [(arguments: [String], place: String)] = [
            (["render", badYAML.path, "-o", badYAML.path + ".pdf"], "\(badYAML.path):5:1: error: the input is not valid YAML"),
            (["render", badJSON.path, "-o", badJSON.path + ".pdf"], "\(badJSON.path):2:17: error: the input is not valid JSON"),
            (["render", twice.path, "-o", twice.path + ".pdf"], "\(twice.path):3:1: error: the key \"title\" appears twice"),
            (
                ["render", badYAML.path, "--data", data.path, "-o", badYAML.path + ".pdf"],
                "\(badYAML.path):5:1: error: the template is not valid YAML"
            ),
            (["check", badJSON.path, "--data", data.path], "\(badJSON.path):2:17: error: the template is not valid JSON"),
            (
                ["render", good.path, "--theme", badTheme.path, "-o", good.path + ".pdf"],
                "\(badTheme.path):3:1: error: --theme: the theme is not valid YAML"
            ),
            (
                ["render", folder.appendingPathComponent("main.yaml").path, "-o", folder.appendingPathComponent("o.pdf").path],
                "\(folder.path)/part.yaml:4:1: error: the included file is not valid YAML"
            ),
        ]
        for (arguments, place) in cases {
            let result = try TestSupport.run(folio, arguments)
            XCTAssertEqual(result.status, 1, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.hasPrefix(place), "\(arguments.joined(separator: " ")): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
    }

    private let repeating = """
        title: T
        elements:
          - type: paragraph
            text: intro
          - $each: charts
            $as: c
            $item:
              type: chart
              kind: bar
              categories: [a, b]
              series:
                - title: s
                  values: "{{c.values}}"
          - type: paragraph
            text: "{{note}}"
        """

    /// A record's value that the bound document refuses is placed at the template's line that
    /// made the field, through the lists `$each` repeated.
    func testABoundFieldIsTracedToTheTemplateFieldThatMadeIt() throws {
        let template = try DocumentTemplate(data: Data(repeating.utf8), format: .yaml)
        let record = try JSONTreeParser.parse(Data(#"{"charts": [{"values": [1, 2]}, {"values": [1, "x"]}], "note": "n"}"#.utf8))
        XCTAssertEqual(
            template.templatePath(ofBound: "elements[2].series[0].values[1]", record: record), "elements[1].$item.series[0].values[1]")
        XCTAssertEqual(template.templatePath(ofBound: "elements[3].text", record: record), "elements[2].text")
        XCTAssertEqual(template.templatePath(ofBound: "title", record: record), "title")
        XCTAssertEqual(
            SourceLocator.locate("elements[1].$item.series[0].values[1]", in: repeating)?.description, "13:11",
            "placed at the key whose placeholder the value came from")
    }

    func testTheCommandLinePlacesABoundRecordsErrorInTheTemplate() throws {
        try TestSupport.integrationOnly()
        let template = try TestSupport.temporaryFile(Data(repeating.utf8), name: "repeating.yaml")
        let data = try TestSupport.temporaryFile(
            Data(
                (#"{"charts": [{"values": [1, 2]}, {"values": [1, "x"]}], "note": "n"}"# + "\n"
                    + #"{"charts": [{"values": [1]}], "note": "n"}"# + "\n").utf8), name: "records.jsonl")
        let folio = TestSupport.folioBinary.path
        let render = try TestSupport.run(
            folio, ["render", template.path, "--data", data.path, "--record", "1", "-o", template.path + ".pdf"])
        XCTAssertEqual(render.status, 1)
        XCTAssertEqual(
            render.stderr, "\(template.path):13:11: error: elements[2].series[0].values[1]: expected a number, found a string\n")
        // A check names the record's line, then the template's.
        let check = try TestSupport.run(folio, ["check", template.path, "--data", data.path])
        XCTAssertEqual(check.status, 1)
        let lines = check.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, check.stderr)
        XCTAssertEqual(
            lines.first,
            "folio: error: \(data.path):1: record 1: elements[2].series[0].values[1]: expected a number, found a string (template \(template.path):13:11)"
        )
        // A validation error (a series shorter than its categories) is traced the same way.
        XCTAssertTrue(
            lines.last?.hasPrefix("folio: error: \(data.path):2: record 2: elements[1].series[0].values: ") ?? false, check.stderr)
        XCTAssertTrue(lines.last?.hasSuffix("(template \(template.path):13:11)") ?? false, check.stderr)
    }
}
