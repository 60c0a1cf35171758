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

    /// `folio-` and an FNV-1a hash of the document's title, header, metadata and each block's
    /// kind and printed text (`Block.textContent`).
    static func prefix(for document: Document) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            hash = (hash ^ 0x1F) &* 0x0000_0100_0000_01b3
        }
        mix(document.title)
        for slot in RunningLine.Slot.allCases { mix(document.header?[slot] ?? "") }
        mix(document.metadata.subject ?? "")
        mix(document.metadata.author ?? "")
        mix(String(document.elements.count))
        for block in document.elements {
            mix(block.typeName)
            // A long table's first thousand cells tell reports apart as well as all of them.
            block.textContent.prefix(1000).forEach(mix)
        }
        return "folio-" + String(hash, radix: 36)
    }
}
