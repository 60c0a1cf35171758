import CCairoPango
import FolioGraphics
import Foundation
import Synchronization

/// The font families installed on this machine, read once from fontconfig through Pango.
///
/// A family Pango does not have is drawn with a fallback font anyway, but every distinct name
/// asked for makes fontconfig sort and cache a new font set (about 50 KB each, kept for the life
/// of the process): a long-running server fed made-up family names would grow without bound.
/// So names that are neither installed nor generic are dropped before Pango sees them; what is
/// drawn does not change.
enum InstalledFontFamilies {
    /// Generic names fontconfig resolves by its own rules.
    private static let generic: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "system-ui",
        "cursive", "fantasy", "emoji", "math",
    ]

    /// Lowercased names of the installed families.
    private static let installed: Set<String> = {
        var families: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>?
        var count: Int32 = 0
        pango_font_map_list_families(folio_font_map_for_this_thread(), &families, &count)
        defer { g_free(families) }
        var names = Set<String>()
        guard let families else { return names }
        for index in 0..<Int(max(0, count)) {
            if let family = families[index], let name = pango_font_family_get_name(family) {
                names.insert(String(cString: name).lowercased())
            }
        }
        return names
    }()

    private static let resolved = Mutex<[String: String]>([:])

    /// `family` (a comma-separated list) without the names that are neither installed nor generic;
    /// `FontSpec.defaultFamily` when none is left.
    static func resolve(_ family: String) -> String {
        if let known = resolved.withLock({ $0[family] }) { return known }
        let kept = family.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            let name = $0.lowercased()
            return installed.contains(name) || generic.contains(name)
        }
        let result = kept.isEmpty ? FontSpec.defaultFamily : kept.joined(separator: ", ")
        // At most 4,096 names are remembered, so this map stays small too; others are resolved each time.
        resolved.withLock { if $0.count < 4096 { $0[family] = result } }
        return result
    }
}
