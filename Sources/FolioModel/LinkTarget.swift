/// Where a link goes: an `http`, `https` or `mailto` address, or an anchor of the document
/// (`#id`), without spaces, quotes, `<`, `>`, backslashes or control characters that could end it
/// early in HTML or PDF. Only `init?(_:)` makes one, and it checks, so no output — a paragraph, a
/// cell, a footnote, a table of contents, an appended page — can carry any other link: a link that
/// fails the check is no link at all (`TextRun.rejectedLink` keeps it for the error).
public struct LinkTarget: Sendable, Hashable, CustomStringConvertible {
    /// The URL schemes a link may use.
    public static let allowedSchemes = ["http", "https", "mailto"]

    /// The address, or `#` and the anchor's id.
    public let url: String

    /// The target `url` names, or nil when it is not a link a document may hold.
    public init?(_ url: String) {
        guard LinkTarget.isAllowed(url) else { return nil }
        self.url = url
    }

    /// A link to the anchor `id` of the document, or nil when `id` could not be one.
    public static func anchor(_ id: String) -> LinkTarget? { LinkTarget("#" + id) }

    /// The anchor's id when the target is one of the document's (`#id`), else nil.
    public var anchor: String? { url.hasPrefix("#") ? String(url.dropFirst()) : nil }

    /// The address as written.
    public var description: String { url }

    /// Whether `url` starts with an allowed scheme, or is an internal `#anchor`, and has no control
    /// characters, spaces or quotes that could end it early in HTML or PDF.
    private static func isAllowed(_ url: String) -> Bool {
        guard url.utf8.count <= 8192,
            !url.unicodeScalars.contains(where: {
                $0.value <= 0x20 || (0x7F...0x9F).contains($0.value)
                    || $0 == "\"" || $0 == "<" || $0 == ">" || $0 == "\\" || $0 == "`"
            })
        else { return false }
        if url.hasPrefix("#") { return url.count > 1 }
        guard let colon = url.firstIndex(of: ":") else { return false }
        return allowedSchemes.contains(url[..<colon].lowercased())
    }
}
