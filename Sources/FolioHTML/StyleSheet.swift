import FolioGraphics
import FolioModel

/// The rules a report needs beyond its base stylesheet, gathered while its blocks are written:
/// any block's writer adds the rules its markup uses (a class per tint, per column share, per
/// column width), each once, and the renderer appends them to the base rules (`HTMLStyle`).
/// The page's Content-Security-Policy forbids `style` attributes, so this is the one way a
/// block styles itself.
struct StyleSheet {
    /// The report's root selector (`#id`), which every rule starts with.
    let root: CSS
    /// The rules, in the order first added.
    private(set) var rules: [CSS] = []
    private var added: Set<String> = []

    /// An empty sheet for the report whose root element has id `id`.
    init(root id: String) { root = "#\(identifier: id)" }

    /// Adds `rule` (written with `root`) unless a rule was added under `key` before.
    mutating func add(_ key: String, _ rule: (CSS) -> CSS) {
        guard added.insert(key).inserted else { return }
        rules.append(rule(root))
    }

    /// The class that sets `--folio-tint` (and its light background) to `tint`, its rule added once.
    mutating func tintClass(_ tint: Color) -> String {
        let name = "folio-tint-" + tint.withAlpha(1).hex.dropFirst().lowercased()
        add(name) { r in "\(r) .\(identifier: name){--folio-tint:\(tint);--folio-tint-bg:\(tint.lightened(0.9))}" }
        return name
    }
}
