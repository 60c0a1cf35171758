import FolioModel

/// Element ids from a per-document prefix and counters: deterministic, and
/// distinct between two different reports on one page.
struct IDGenerator {
    let prefix: String
    private var counter = 0

    init(prefix: String) { self.prefix = prefix }

    mutating func next(_ kind: String) -> String {
        counter += 1
        return "\(prefix)-\(kind)\(counter)"
    }

    /// `folio-` and an FNV-1a hash of the document's title, header and block count.
    static func prefix(for document: Document) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in (document.title + "\u{1F}" + (document.header ?? "") + "\(document.elements.count)").utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return "folio-" + String(hash, radix: 36)
    }
}
