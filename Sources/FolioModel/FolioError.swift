/// A problem with the input, named by the path of the field that holds it,
/// such as `elements[3].series[1].values`.
public struct FolioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is: a dotted field path, or empty for the whole document.
    public var path: String
    /// What is wrong, in words a document author understands.
    public var message: String
    /// Where in the text the problem is, when the text itself is at fault (a YAML or JSON syntax
    /// error, a key given twice); a field's place is found from `path` instead.
    public var position: SourcePosition?
    /// The file that holds the problem when it is not the input named on the command line (a file
    /// the input includes), as a path from the current folder; nil for the input itself.
    public var file: String?

    /// A problem at `path` (a dotted field path, or empty) described by `message`, at `position`
    /// of the text when the text itself is at fault.
    public init(path: String, _ message: String, position: SourcePosition? = nil) {
        self.path = path
        self.message = message
        self.position = position
    }

    /// The same problem said with another message (its field, place and file kept).
    public func rephrased(_ message: String) -> FolioError {
        var error = self
        error.message = message
        return error
    }

    /// The value as one line of text: `path: message`, with control and bidirectional-override
    /// characters from the input shown as escapes (`\u{1B}`), never acted on by a terminal.
    public var description: String { (path.isEmpty ? message : "\(path): \(message)").escapingInvisibleControls }
}
