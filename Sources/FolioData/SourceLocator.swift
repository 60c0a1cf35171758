internal import CYaml
import FolioModel
import Foundation

/// Where a field of a YAML or JSON input is written: the line and column of the field an error
/// names (`elements[1].series[0].values[1]`), so that an editor or a CI log can point at it.
///
/// It reads the text again with libyaml's event parser, only when there is an error to place (a
/// document that decodes is never read twice). A field the text does not hold (one the model adds,
/// such as a default) is placed at the nearest enclosing field that it does hold.
package enum SourceLocator {
    /// A place in a text: its line and column, both from 1 (columns count Unicode scalars).
    package typealias Position = SourcePosition

    /// One step of a field path: a member's key or an item's index.
    package enum Step: Hashable {
        case key(String)
        case index(Int)
    }

    /// The position of the field at `path` in `text` (YAML or JSON), or of the nearest field
    /// enclosing it; nil when the text cannot be parsed or the path names nothing in it.
    package static func locate(_ path: String, in text: String) -> Position? {
        guard let target = steps(of: path) else { return nil }
        return locate(target, in: text)
    }

    /// The position of the field `target` leads to in `text`, or of the nearest field enclosing it.
    package static func locate(_ target: [Step], in text: String) -> Position? {
        guard !target.isEmpty else { return nil }
        var text = text
        return text.withUTF8 { bytes in locate(target, in: bytes) }
    }

    /// `elements[3].rows[2][1]` as steps; nil for a path that is not one.
    package static func steps(of path: String) -> [Step]? {
        var steps: [Step] = []
        var key = ""
        var index: Int?
        func endKey() {
            if !key.isEmpty { steps.append(.key(key)) }
            key = ""
        }
        for character in path {
            if let current = index {
                if character == "]" {
                    steps.append(.index(current))
                    index = nil
                } else if let digit = character.wholeNumberValue, current < 100_000_000 {
                    index = current * 10 + digit
                } else {
                    return nil
                }
            } else if character == "[" {
                endKey()
                index = 0
            } else if character == "." {
                endKey()
            } else {
                key.append(character)
            }
        }
        guard index == nil else { return nil }
        endKey()
        return steps
    }

    /// The dotted path `steps` name: `elements[3].rows[2]`.
    package static func path(of steps: [Step]) -> String {
        var result = ""
        for step in steps {
            switch step {
            case .key(let key): result += result.isEmpty ? key : "." + key
            case .index(let index): result += "[\(index)]"
            }
        }
        return result
    }

    /// An open mapping or sequence: its path, the key waiting for its value, the next item's index.
    private struct Frame {
        let path: [Step]
        let isMapping: Bool
        var pendingKey: String?
        var nextIndex = 0
    }

    private static func locate(_ target: [Step], in bytes: UnsafeBufferPointer<UInt8>) -> Position? {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        parser.initialize(to: yaml_parser_t())
        yaml_parser_initialize(parser)
        defer {
            yaml_parser_delete(parser)
            parser.deallocate()
        }
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
        var stack: [Frame] = []
        var nearest: (depth: Int, position: Position)?
        /// The exact position when `path` is the target; else notes it when it leads to the target.
        func visit(_ path: [Step], at position: Position) -> Position? {
            if path == target { return position }
            let deeper = path.count > (nearest?.depth ?? -1)
            // The document itself encloses everything: a field it does not hold is not placed.
            if deeper, !path.isEmpty, target.count > path.count, Array(target.prefix(path.count)) == path {
                nearest = (path.count, position)
            }
            return nil
        }
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(parser, &event) == 1 else { return nearest?.position }
            defer { yaml_event_delete(&event) }
            let position = Position(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return nearest?.position
            case YAML_SCALAR_EVENT, YAML_ALIAS_EVENT, YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
                // A mapping's key: the field it names is placed at the key.
                if var top = stack.last, top.isMapping, top.pendingKey == nil {
                    var name = ""
                    if event.type == YAML_SCALAR_EVENT {
                        let scalar = event.data.scalar
                        if let value = scalar.value {
                            name = String(decoding: UnsafeBufferPointer(start: value, count: scalar.length), as: UTF8.self)
                        }
                    }
                    top.pendingKey = name
                    stack[stack.count - 1] = top
                    if let found = visit(top.path + [.key(name)], at: position) { return found }
                    if event.type == YAML_MAPPING_START_EVENT || event.type == YAML_SEQUENCE_START_EVENT {
                        // A key that is a collection names no field; its contents are skipped over.
                        stack.append(Frame(path: [.key("\u{0}")], isMapping: event.type == YAML_MAPPING_START_EVENT))
                    }
                    continue
                }
                // A value: of the key before it, of the next index, or the document itself.
                var path: [Step] = []
                if var top = stack.last {
                    if top.isMapping {
                        path = top.path + [.key(top.pendingKey ?? "")]
                        top.pendingKey = nil
                    } else {
                        path = top.path + [.index(top.nextIndex)]
                        top.nextIndex += 1
                    }
                    stack[stack.count - 1] = top
                }
                if let found = visit(path, at: position) { return found }
                if event.type == YAML_MAPPING_START_EVENT || event.type == YAML_SEQUENCE_START_EVENT {
                    guard stack.count < InputLimits.nestingDepth * 2 else { return nearest?.position }
                    stack.append(Frame(path: path, isMapping: event.type == YAML_MAPPING_START_EVENT))
                }
            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                if !stack.isEmpty { stack.removeLast() }
            default:
                continue
            }
        }
    }
}
