import FolioData
import FolioModel
import Foundation

/// A template string split once into its literal runs and its placeholders' parsed expressions
/// (`Dose: {{dose}} at {{time | upper}}`), so binding a record evaluates the expressions without
/// finding and parsing the placeholders again.
package struct TemplateText: Sendable {
    /// The text before, between and after the placeholders: one more than `expressions`.
    let literals: [String]
    /// Each placeholder's expression, in order.
    package let expressions: [TemplateExpression]
    /// Whether the text is one placeholder and nothing else (white space aside): its value is then
    /// taken as it is (a number stays a number).
    let isLonePlaceholder: Bool

    /// Whether `text` holds a placeholder (`{{`): a scan of its bytes.
    static func hasPlaceholder(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "{") && previous == UInt8(ascii: "{") { return true }
            previous = byte
        }
        return false
    }

    /// `text` parsed; errors name `path` (an unclosed `{{`, an unknown filter).
    package init(_ text: String, path: String) throws {
        var literals: [String] = []
        var sources: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw FolioError(path: path, "a placeholder opened with {{ is not closed with }}")
            }
            literals.append(String(rest[..<open.lowerBound]))
            sources.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        literals.append(String(rest))
        self.literals = literals
        // Every placeholder is closed before any is parsed: an unclosed one is the error named first.
        expressions = try sources.map { try TemplateExpression(parsing: $0.trimmingCharacters(in: .whitespaces), templatePath: path) }
        isLonePlaceholder = expressions.count == 1 && literals.allSatisfy { $0.allSatisfy(\.isWhitespace) }
    }

    /// The text with every placeholder replaced by its value in `scope`, escaped for `kind` (and
    /// between FSI and PDI when it holds bidirectional controls); a lone placeholder's value as it is.
    package func evaluate(in scope: TemplateScope, path: String, kind: DocumentTemplate.TextKind) throws -> TreeValue {
        if isLonePlaceholder {
            return kind.literal(try expressions[0].evaluate(in: scope, templatePath: path))
        }
        var out = literals[0]
        for (expression, literal) in zip(expressions, literals.dropFirst()) {
            // A value between words is isolated from them: its bidirectional controls turn nothing around it.
            out += kind.literal(try expression.evaluate(in: scope, templatePath: path).text.isolatingBidirectionalControls)
            out += literal
        }
        return .string(out)
    }
}
