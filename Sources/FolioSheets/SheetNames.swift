import FolioModel

/// Names of a workbook's sheets, as Excel allows them: at most 31 characters (UTF-16 units), none
/// of `[ ] : * ? / \`, not beginning or ending with an apostrophe, unique without regard to case.
package enum SheetNames {
    /// `names` made valid and unique: a table without a caption is "Table N"; a repeated name gets " (2)".
    package static func unique(_ names: [String]) -> [String] {
        var used: Set<String> = []
        return names.enumerated().map { index, name in
            var base = String(
                name.map { "[]:*?/\\".contains($0) || $0.isNewline ? " " : $0 }
            ).trimmingCharacters(in: " '")
            if base.isEmpty { base = "Table \(index + 1)" }
            base = cut(base, to: 31)
            var candidate = base
            var number = 2
            while used.contains(candidate.lowercased()) {
                let suffix = " (\(number))"
                candidate = cut(base, to: 31 - suffix.utf16.count) + suffix
                number += 1
            }
            used.insert(candidate.lowercased())
            return candidate
        }
    }

    /// `text` if it fits `units` UTF-16 units, else its first words that fit with "…" after them
    /// (cut inside a word only when its first word alone is too long).
    static func cut(_ text: String, to units: Int) -> String {
        guard text.utf16.count > units else { return text.trimmingCharacters(in: " '") }
        var result = ""
        for character in text {
            guard result.utf16.count + character.utf16.count <= units - 1 else { break }
            result.append(character)
        }
        if let space = result.lastIndex(of: " "), result.distance(from: result.startIndex, to: space) >= result.count / 2 {
            result = String(result[..<space])
        }
        return result.trimmingCharacters(in: " '") + "…"
    }

    /// About how many characters wide a cell shows.
    static func width(of cell: SheetCell) -> Int {
        switch cell {
        case .empty: return 0
        case .text(let text): return min(text.count, 80)
        case .number(let value, let style): return String(value).count + (style.unit?.count ?? 0) + 2
        case .date(let date): return date.secondOfDay == nil ? 10 : 16
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, set.contains(first) { scalars = scalars.dropFirst() }
        while let last = scalars.last, set.contains(last) { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
