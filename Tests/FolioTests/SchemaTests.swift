import Foundation
import XCTest

@testable import Folio
@testable import FolioData
@testable import FolioSchema
@testable import FolioTemplate

/// The JSON Schema of documents, templates and themes (#43): made from the model's decoding, kept
/// in `schema/`, accepted by a validator nobody here wrote for every sample and template, and in
/// agreement with the decoder on documents changed at random.
final class SchemaTests: XCTestCase {
    private let root = TestSupport.root

    func testTheRepositorysSchemasAreTheModels() throws {
        for subject in DocumentSchema.Subject.allCases {
            let kept = try String(contentsOf: root.appendingPathComponent("schema/\(subject.fileName)"), encoding: .utf8)
            XCTAssertEqual(
                kept, DocumentSchema.text(subject), "schema/\(subject.fileName) is not what `folio schema --for \(subject)` writes")
        }
    }

    func testFolioSchemaWritesEachSchema() throws {
        try TestSupport.integrationOnly()
        let folder = try TestSupport.temporaryDirectory()
        for subject in DocumentSchema.Subject.allCases {
            let file = folder.appendingPathComponent(subject.fileName)
            let result = try TestSupport.run(TestSupport.folioBinary.path, ["schema", "--for", subject.rawValue, "-o", file.path])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), DocumentSchema.text(subject))
        }
        let wrong = try TestSupport.run(TestSupport.folioBinary.path, ["schema", "--for", "report"])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertEqual(wrong.stderr, "folio: error: --for: expected one of: document, template, theme\n")
    }

    func testTheSchemaNamesEveryBlockKindChartKindAndKey() throws {
        let tree = DocumentSchema.tree(.document)
        let definitions = try XCTUnwrap(tree["$defs"])
        for kind in Block.typeNames where kind != "chart" { XCTAssertNotNil(definitions["Block.\(kind)"], kind) }
        for kind in Chart.kinds { XCTAssertNotNil(definitions["Block.chart.\(kind)"], kind) }
        // Keys read only under a condition are there too: a cell's span, a header place's barcode.
        let text = DocumentSchema.text(.document)
        for key in ["\"span\"", "\"barcode\"", "\"continuedCaption\"", "\"secondaryYAxis\"", "\"minHeight\"", "\"keepTogether\""] {
            XCTAssertTrue(text.contains(key), key)
        }
        // A word a NamedOption accepts is listed.
        XCTAssertTrue(text.contains(#""enum": ["left","center","right","justify"]"#))
    }

    /// Every document, template and theme of the repository, as JSON (read by Folio's own YAML
    /// reader, as an editor's YAML 1.2 reads it), passes Python's jsonschema.
    func testEverySampleAndTemplatePassesAnIndependentValidator() throws {
        try TestSupport.integrationOnly()
        let samples = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Samples").path)
            .filter { $0.hasSuffix(".yaml") }.sorted().map { "Samples/" + $0 }
        XCTAssertGreaterThanOrEqual(samples.count, 7)
        let templates = ["Templates/weekly-summary.yaml", "Templates/fhir-weekly-summary.yaml", "Templates/patient-summary.yaml"]
        for (subject, files) in [(DocumentSchema.Subject.document, samples), (.template, templates), (.theme, ["Templates/theme.yaml"])] {
            let cases = try files.map { file -> (String, TreeValue) in
                let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                XCTAssertTrue(
                    text.hasPrefix("# yaml-language-server: $schema=../schema/\(subject.fileName)\n"),
                    "\(file) has no modeline for its schema")
                return (file, try YAMLTree.parse(text))
            }
            let verdicts = try validate(cases, subject: subject)
            for (file, _) in cases { XCTAssertEqual(verdicts[file], "valid", "\(file) against \(subject.fileName)") }
        }
    }

    /// Every YAML example of docs/ (a fragment — blocks, or a document's top-level members — made
    /// into a template around it) passes the template schema, as an editor would check it.
    func testEveryExampleOfTheDocsPassesTheSchema() throws {
        try TestSupport.integrationOnly()
        var cases: [(String, TreeValue)] = []
        let folder = root.appendingPathComponent("docs")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".md") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for (index, match) in text.matches(of: #/```yaml\n(.*?)```/#.dotMatchesNewlines()).enumerated() {
                let body = String(match.output.1)
                // A modeline alone shows where the schema is; it is no example.
                guard body.split(separator: "\n").contains(where: { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }) else {
                    continue
                }
                let value = try YAMLTree.parse(body)
                let example: TreeValue
                switch value {
                case .array: example = .object([("title", .string("Example")), ("elements", value)])
                case .object(let members):
                    var whole = members
                    if !members.contains(where: { $0.key == "title" }) { whole.insert(("title", .string("Example")), at: 0) }
                    if !members.contains(where: { $0.key == "elements" }) { whole.append(("elements", .array([]))) }
                    example = .object(whole)
                default:
                    XCTFail("\(name) example \(index + 1) is neither blocks nor a document's members")
                    continue
                }
                cases.append(("\(name)#\(index + 1)", example))
            }
        }
        XCTAssertGreaterThanOrEqual(cases.count, 3, "the docs' examples were found")
        let verdicts = try validate(cases, subject: .template)
        for (name, _) in cases { XCTAssertEqual(verdicts[name], "valid", "\(name) against the template schema") }
    }

    /// Documents changed at random: unknown keys and words, and members of the wrong kind of value,
    /// are refused by both the schema and the decoder; a member left out is refused by both or
    /// accepted by both; and the schema never refuses what the decoder accepts.
    func testTheSchemaAndTheDecoderAgreeOnChangedDocuments() throws {
        try TestSupport.integrationOnly()
        var random = SeededGenerator(seed: 43)
        var cases: [(id: String, document: TreeValue, change: Change)] = []
        let samples = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Samples").path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
        for sample in samples {
            let tree = try YAMLTree.parse(try String(contentsOf: root.appendingPathComponent("Samples/" + sample), encoding: .utf8))
            let places = Self.places(in: tree)
            for index in 0..<45 {
                let change = Change.allCases[index % Change.allCases.count]
                guard let changed = change.apply(to: tree, places: places, random: &random) else { continue }
                cases.append(("\(sample)#\(index)", changed, change))
            }
        }
        XCTAssertGreaterThan(cases.count, 250)
        let verdicts = try validate(cases.map { ($0.id, $0.document) }, subject: .document)
        var counts: [Change: (both: Int, total: Int)] = [:]
        for (id, document, change) in cases {
            let schemaAccepts = try XCTUnwrap(verdicts[id]) == "valid"
            var decoderAccepts = true
            var decoderError = ""
            do {
                _ = try DocumentDecoder.decode(Document.self, from: document)
            } catch {
                decoderAccepts = false
                decoderError = "\(error)"
            }
            let shown = "\(id) (\(change)): schema \(verdicts[id] ?? "?"), decoder \(decoderAccepts ? "accepts" : decoderError)"
            XCTAssertFalse(decoderAccepts && !schemaAccepts, "the schema is stricter than Folio: \(shown)")
            switch change {
            case .unknownKey, .unknownWord:
                XCTAssertFalse(schemaAccepts || decoderAccepts, shown)
            case .leftOut:
                XCTAssertEqual(schemaAccepts, decoderAccepts, shown)
            case .otherKind:
                break
            }
            counts[change, default: (0, 0)].total += 1
            if schemaAccepts == decoderAccepts { counts[change, default: (0, 0)].both += 1 }
        }
        // Both refuse most values of the wrong kind (a number where text is expected passes both).
        print("schema and decoder agree:", counts.map { "\($0.key) \($0.value.both)/\($0.value.total)" }.sorted())
        let otherKind = try XCTUnwrap(counts[.otherKind])
        XCTAssertGreaterThan(Double(otherKind.both) / Double(otherKind.total), 0.9, "\(otherKind)")
    }

    /// Lengths and colours: what an author mistypes is refused by the schema (an editor underlines
    /// it) as `folio render` refuses it, and every form Folio reads passes both.
    func testTheSchemaFlagsTheLengthsAndColoursFolioRefuses() throws {
        try TestSupport.integrationOnly()
        func document(margins: TreeValue, tint: TreeValue) -> TreeValue {
            .object([
                ("page", .object([("margins", margins)])),
                (
                    "elements",
                    .array([
                        .object([("type", .string("message")), ("title", .string("Note")), ("text", .string("Read it")), ("tint", tint)])
                    ])
                ),
            ])
        }
        let lengths: [(TreeValue, Bool)] = [
            (.number(36), true), (.string("2cm"), true), (.string("20 mm"), true), (.string("1IN"), true), (.string("12pt"), true),
            (.string("12"), true), (.string(" 1.5cm "), true), (.string(".5in"), true),
            (.string("3cn"), false), (.string("2 cm cm"), false), (.string("cm"), false), (.string("2c m"), false),
            (.string("12px"), false), (.string("1,5cm"), false),
        ]
        let colours: [(TreeValue, Bool)] = [
            (.string("#3E63DD"), true), (.string("3E63DD"), true), (.string("#abc"), true), (.string("#3E63DD80"), true),
            (.string("#3E63D"), false), (.string("#GGGGGG"), false), (.string("blue"), false), (.string("#3E63DD8"), false),
        ]
        var cases: [(String, TreeValue, Bool)] = []
        for (index, (length, valid)) in lengths.enumerated() {
            cases.append(("length\(index)", document(margins: length, tint: .string("#3E63DD")), valid))
        }
        for (index, (colour, valid)) in colours.enumerated() {
            cases.append(("colour\(index)", document(margins: .number(36), tint: colour), valid))
        }
        let verdicts = try validate(cases.map { ($0.0, $0.1) }, subject: .document)
        for (id, document, valid) in cases {
            let decoded = (try? DocumentDecoder.decode(Document.self, from: document)) != nil
            XCTAssertEqual(decoded, valid, "\(id): folio \(decoded ? "reads" : "refuses") \(document.json)")
            XCTAssertEqual(verdicts[id] == "valid", valid, "\(id): the schema says \(verdicts[id] ?? "?") of \(document.json)")
        }
    }

    /// Python jsonschema's verdict on each case against the schema in the repository.
    private func validate(_ cases: [(String, TreeValue)], subject: DocumentSchema.Subject) throws -> [String: String] {
        let file = try TestSupport.temporaryDirectory().appendingPathComponent("cases.jsonl")
        let lines = cases.map { TreeValue.object([("id", .string($0.0)), ("document", $0.1)]).json }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let result = try TestSupport.run(
            try TestSupport.python(),
            [
                root.appendingPathComponent("Tests/FolioTests/Fixtures/schema_check.py").path,
                root.appendingPathComponent("schema/\(subject.fileName)").path, file.path,
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        var verdicts: [String: String] = [:]
        for line in result.text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count >= 2 { verdicts[String(parts[0])] = String(parts[1]) }
        }
        return verdicts
    }

    /// A change made to a document.
    enum Change: CaseIterable {
        /// A key no field has, added to a mapping.
        case unknownKey
        /// A block's `type`, a chart's `kind` or a word of a closed list, replaced by an unknown word.
        case unknownWord
        /// A member of a mapping left out.
        case leftOut
        /// A value replaced by one of another kind (a number, a text, true, a list, a mapping).
        case otherKind

        func apply(to tree: TreeValue, places: [Place], random: inout SeededGenerator) -> TreeValue? {
            switch self {
            case .unknownKey:
                let mappings = places.filter { if case .object = $0.value { return true } else { return false } }
                guard let place = mappings.randomElement(using: &random), case .object(var members) = place.value else { return nil }
                members.append(("zzUnknownKey", .number(1)))
                return tree.replacing(at: place.path, with: .object(members))
            case .unknownWord:
                let words = places.filter { place in
                    guard case .key(let key)? = place.path.last, case .string = place.value else { return false }
                    return ["type", "kind", "align", "orientation", "position", "scale", "symbology", "conformance"].contains(key)
                }
                guard let place = words.randomElement(using: &random) else { return nil }
                return tree.replacing(at: place.path, with: .string("zzUnknownWord"))
            case .leftOut:
                let members = places.filter { if case .key = $0.path.last { return true } else { return false } }
                guard let place = members.randomElement(using: &random) else { return nil }
                return tree.removing(at: place.path)
            case .otherKind:
                guard let place = places.filter({ !$0.path.isEmpty }).randomElement(using: &random) else { return nil }
                let others: [TreeValue] = [.number(1), .string("x"), .bool(true), .array([]), .object([])].filter {
                    $0.kindName != place.value.kindName
                }
                guard let other = others.randomElement(using: &random) else { return nil }
                return tree.replacing(at: place.path, with: other)
            }
        }
    }

    /// A value in a document and the path to it.
    struct Place {
        let path: [SourceLocator.Step]
        let value: TreeValue
    }

    static func places(in tree: TreeValue, at path: [SourceLocator.Step] = []) -> [Place] {
        var found = [Place(path: path, value: tree)]
        switch tree {
        case .object(let members):
            for member in members { found += places(in: member.value, at: path + [.key(member.key)]) }
        case .array(let items):
            // The first few items of a long list are enough.
            for (index, item) in items.prefix(4).enumerated() { found += places(in: item, at: path + [.index(index)]) }
        default: break
        }
        return found
    }
}

extension TreeValue {
    /// The tree with the value at `path` replaced by `value`.
    fileprivate func replacing(at path: [SourceLocator.Step], with value: TreeValue) -> TreeValue {
        guard let first = path.first else { return value }
        let rest = Array(path.dropFirst())
        switch (self, first) {
        case (.object(var members), .key(let key)):
            guard let index = members.firstIndex(where: { $0.key == key }) else { return self }
            members[index].value = members[index].value.replacing(at: rest, with: value)
            return .object(members)
        case (.array(var items), .index(let index)) where items.indices.contains(index):
            items[index] = items[index].replacing(at: rest, with: value)
            return .array(items)
        default: return self
        }
    }

    /// The tree without the member at `path`.
    fileprivate func removing(at path: [SourceLocator.Step]) -> TreeValue {
        guard let first = path.first else { return self }
        let rest = Array(path.dropFirst())
        switch (self, first) {
        case (.object(var members), .key(let key)):
            guard let index = members.firstIndex(where: { $0.key == key }) else { return self }
            if rest.isEmpty {
                members.remove(at: index)
            } else {
                members[index].value = members[index].value.removing(at: rest)
            }
            return .object(members)
        case (.array(var items), .index(let index)) where items.indices.contains(index):
            items[index] = items[index].removing(at: rest)
            return .array(items)
        default: return self
        }
    }
}
