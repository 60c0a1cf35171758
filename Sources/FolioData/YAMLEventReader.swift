internal import CYaml
import FolioModel
import Foundation

/// Reads one YAML document with libyaml's event parser straight into a `TreeValue`, without
/// recursion (an explicit stack of open collections) and without a node tree between: a scalar's
/// text becomes the tree's string as the event arrives, and an alias is the value of its anchor.
/// The rules are `YAMLTree`'s: plain scalars are typed (`YAMLTree.plain`), quoted ones are text;
/// mapping keys are text (a key that is not a scalar is ""); a key twice in one mapping is an
/// error; `<<` merges the mapping (or mappings) it is given, below the mapping's own keys.
final class YAMLEventReader {
    /// libyaml's parser, at an address of its own: it points into itself, so it is never moved.
    private let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    /// The values the input (and the files it includes) may still hold; `TreeBudget.Exceeded` when spent.
    private let budget: TreeBudget
    /// How deep the document starts: the nesting of the place that includes it.
    private let startingDepth: Int
    /// Each anchor's value and how many values it holds (an alias spends that many of the budget).
    private var anchors: [String: (value: TreeValue, count: Int)] = [:]

    /// An open sequence or mapping.
    private struct Frame {
        let isMapping: Bool
        let anchor: String?
        /// Values in the collection so far, itself included (for an anchor's count).
        var count = 1
        var items: [TreeValue] = []
        var members: [(key: String, value: TreeValue)] = []
        var keys = Set<String>()
        /// Members of mappings merged in with `<<`, added after the mapping's own.
        var merged: [(key: String, value: TreeValue)] = []
        /// The key read, waiting for its value (with its line, and whether it is a merge key).
        var pendingKey: (name: String, line: Int, column: Int, isMerge: Bool)?
    }

    /// A reader of `bytes` (UTF-8, borrowed for the reader's life) spending `budget`, its document
    /// starting `depth` levels deep.
    init(_ bytes: UnsafeBufferPointer<UInt8>, budget: TreeBudget, depth: Int = 0) {
        self.budget = budget
        startingDepth = depth
        parser.initialize(to: yaml_parser_t())
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    /// The stream's one document (null when there is none); a second document is an error.
    func document() throws -> TreeValue {
        var value = TreeValue.null
        var documents = 0
        var stack: [Frame] = []
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(parser, &event) == 1 else { throw syntaxError() }
            defer { yaml_event_delete(&event) }
            let line = Int(event.start_mark.line) + 1
            let column = Int(event.start_mark.column) + 1
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return value
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    throw FolioError(
                        path: "",
                        "the input is not valid YAML: line \(line), column \(column): expected a single document in the stream",
                        position: SourcePosition(line: line, column: column))
                }
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = YAMLEventReader.text(scalar.value, length: scalar.length)
                let node: TreeValue = scalar.style == YAML_PLAIN_SCALAR_STYLE ? YAMLTree.plain(text) : .string(text)
                if let anchor = YAMLEventReader.optionalText(scalar.anchor) { anchors[anchor] = (node, 1) }
                try add(
                    node, count: 1, to: &stack, line: line, column: column, keyText: text,
                    isPlainKey: scalar.style == YAML_PLAIN_SCALAR_STYLE, into: &value
                )
            case YAML_ALIAS_EVENT:
                let name = YAMLEventReader.optionalText(event.data.alias.anchor) ?? ""
                guard let anchored = anchors[name] else {
                    throw FolioError(
                        path: "",
                        "the input is not valid YAML: line \(line), column \(column): found undefined alias",
                        position: SourcePosition(line: line, column: column))
                }
                try add(
                    anchored.value, count: anchored.count, to: &stack, line: line, column: column, keyText: nil, isPlainKey: false,
                    into: &value, repeats: true)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                guard startingDepth + stack.count < InputLimits.nestingDepth else {
                    throw FolioError(
                        path: "", "the input is nested more than \(InputLimits.nestingDepth) levels deep (line \(line))",
                        position: SourcePosition(line: line, column: column))
                }
                try budget.spend(literal: 1)
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                let anchor = YAMLEventReader.optionalText(isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor)
                stack.append(Frame(isMapping: isMapping, anchor: anchor))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard var frame = stack.popLast() else { continue }
                let node: TreeValue
                if frame.isMapping {
                    for member in frame.merged where frame.keys.insert(member.key).inserted { frame.members.append(member) }
                    node = .object(frame.members)
                } else {
                    node = .array(frame.items)
                }
                if let anchor = frame.anchor { anchors[anchor] = (node, frame.count) }
                // The collection and its contents were counted as they were read.
                try add(
                    node, count: frame.count, to: &stack, line: line, column: column, keyText: nil, isPlainKey: false, into: &value,
                    spent: frame.count)
            default:
                continue
            }
        }
    }

    /// Adds `node` (holding `count` values, `spent` of them already counted; all of them repeats of
    /// an anchor's when `repeats`) where the innermost open collection expects it: an item, a
    /// mapping's key (`keyText`, a merge key when it is a plain `<<`), or a member's value; at the
    /// top, the document's value.
    private func add(
        _ node: TreeValue, count: Int, to stack: inout [Frame], line: Int, column: Int, keyText: String?, isPlainKey: Bool,
        into value: inout TreeValue, spent: Int = 0, repeats: Bool = false
    ) throws {
        if repeats {
            try budget.spend(repeated: count - spent)
        } else if count > spent {
            try budget.spend(literal: count - spent)
        }
        guard var frame = stack.popLast() else {
            value = node
            return
        }
        defer { stack.append(frame) }
        frame.count += count
        guard frame.isMapping else {
            frame.items.append(node)
            return
        }
        guard let key = frame.pendingKey else {
            // A key: its text (a key that is not a scalar is "").
            let name = keyText ?? ""
            frame.pendingKey = (name, line, column, name == "<<" && isPlainKey)
            return
        }
        frame.pendingKey = nil
        if key.isMerge {
            // A merge key: the members of the aliased mapping(s), unless given here.
            switch node {
            case .object(let inherited): frame.merged += inherited
            case .array(let list):
                for case .object(let inherited) in list { frame.merged += inherited }
            default:
                throw FolioError(
                    path: "", "a << merge key needs a mapping (line \(key.line))",
                    position: SourcePosition(line: key.line, column: key.column))
            }
            return
        }
        guard frame.keys.insert(key.name).inserted else {
            throw FolioError(
                path: "", "the key \"\(key.name)\" appears twice in one mapping (line \(key.line))",
                position: SourcePosition(line: key.line, column: key.column))
        }
        frame.members.append((key.name, node))
    }

    /// The parser's error as one line: where it is (line and column) and what it expected, never the
    /// text there (a line of a document may hold a secret).
    private func syntaxError() -> FolioError {
        let problem = parser.pointee.problem.map { String(cString: $0) } ?? "a syntax error"
        var message: String
        var position: SourcePosition?
        if parser.pointee.error == YAML_READER_ERROR {
            message = "byte \(parser.pointee.problem_offset): \(problem)"
        } else {
            position = SourcePosition(line: Int(parser.pointee.problem_mark.line) + 1, column: Int(parser.pointee.problem_mark.column) + 1)
            message = "line \(Int(parser.pointee.problem_mark.line) + 1), column \(Int(parser.pointee.problem_mark.column) + 1): \(problem)"
            if let context = parser.pointee.context {
                message +=
                    " (\(String(cString: context)) at line \(Int(parser.pointee.context_mark.line) + 1), column \(Int(parser.pointee.context_mark.column) + 1))"
            }
        }
        return FolioError(path: "", "the input is not valid YAML: \(message)", position: position)
    }

    private static func text(_ bytes: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
        guard let bytes else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    private static func optionalText(_ bytes: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        bytes.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}
