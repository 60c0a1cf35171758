/// A place in an input's text, such as where a YAML or JSON syntax error is: its line and column,
/// both from 1.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public let line: Int
    /// The column, from 1.
    public let column: Int

    /// The place at `line` and `column`, both from 1.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`, the form editors and CI logs read after a file's name.
    public var description: String { "\(line):\(column)" }
}
