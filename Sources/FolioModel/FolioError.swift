/// A problem with the input, named by the path of the field that holds it,
/// such as `elements[3].series[1].values`.
public struct FolioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is: a dotted field path, or empty for the whole document.
    public var path: String
    /// What is wrong, in words a document author understands.
    public var message: String

    /// A problem at `path` (a dotted field path, or empty) described by `message`.
    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    /// The value as one line of text: `path: message`, with control and bidirectional-override
    /// characters from the input shown as escapes (`\u{1B}`), never acted on by a terminal.
    public var description: String { (path.isEmpty ? message : "\(path): \(message)").escapingInvisibleControls }
}
