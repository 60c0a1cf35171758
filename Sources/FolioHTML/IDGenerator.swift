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

    /// `folio-` and an FNV-1a hash of the document's title, header, metadata and blocks.
    static func prefix(for document: Document) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            hash = (hash ^ 0x1F) &* 0x0000_0100_0000_01b3
        }
        mix(document.title)
        mix(document.header ?? "")
        mix(document.metadata.subject ?? "")
        mix(document.metadata.author ?? "")
        mix(String(document.elements.count))
        for block in document.elements {
            switch block {
            case .subtitle(let s): mix(s.text)
            case .paragraph(let p): mix(p.text.source)
            case .message(let m): mix(m.title + m.text.source)
            case .widgets(let w): w.items.forEach { mix($0.title + $0.value) }
            case .table(let t): t.rows.prefix(50).forEach { mix($0.joined(separator: "\u{1F}")) }
            case .chart(let c): mix((c.title ?? "") + c.kind)
            case .image(let i): mix(i.alt)
            case .pageBreak: mix("break")
            case .section(let section): mix(section.title)
            case .columns(let columns): mix("columns \(columns.items.count)")
            }
        }
        return "folio-" + String(hash, radix: 36)
    }
}
