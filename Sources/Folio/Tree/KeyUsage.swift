import Foundation

/// Records, while a tree is decoded, which members of each object the model asked
/// for; a member nobody asked for is an unknown key (a misspelling such as `titel`).
final class KeyUsage {
    private struct Object {
        let path: String
        let keys: [String]
        /// Whether the member at each position was asked for (by position: no key is hashed).
        var asked: [Bool]
        /// Keys asked for that the object does not have: the suggestions for a misspelling
        /// (listed as asked, repeats and all; only an object with an unknown key sorts them out).
        var missingAsked: [String] = []
    }

    private var objects: [Object] = []
    private var indexByPath: [String: Int] = [:]

    /// The object at `codingPath` with `keys`; several containers on one object share it.
    func register(_ codingPath: [CodingKey], keys: [String]) -> Int {
        let path = DocumentDecoder.path(codingPath)
        if let index = indexByPath[path] { return index }
        objects.append(Object(path: path, keys: keys, asked: Array(repeating: false, count: keys.count)))
        indexByPath[path] = objects.count - 1
        return objects.count - 1
    }

    /// The member at `position` of `object` (as registered) was asked for.
    func ask(_ object: Int, position: Int) {
        guard objects[object].asked.indices.contains(position) else { return }
        objects[object].asked[position] = true
    }

    /// The member named `key` was asked for, though the object does not have it (a key the model
    /// knows, which may be suggested for a misspelling).
    func ask(_ object: Int, missing key: String) { objects[object].missingAsked.append(key) }

    func askAll(_ object: Int) { objects[object].asked = Array(repeating: true, count: objects[object].keys.count) }

    /// One error per unknown key, in document order, with the nearest known key as a suggestion.
    func unknownKeys() -> [FolioError] {
        var errors: [FolioError] = []
        for object in objects where object.asked.contains(false) {
            let askedKeys = Set(zip(object.keys, object.asked).filter(\.1).map(\.0)).union(object.missingAsked)
            for (key, asked) in zip(object.keys, object.asked) where !asked && !askedKeys.contains(key) {
                let path = object.path.isEmpty ? key : "\(object.path).\(key)"
                // Keys for editors (`$schema`) are accepted but not offered.
                let known = askedKeys.filter { !$0.hasPrefix("$") }.sorted()
                if let suggestion = KeyUsage.nearest(key, in: known) {
                    errors.append(FolioError(path: path, "unknown key; did you mean \"\(suggestion)\"?"))
                } else {
                    errors.append(FolioError(path: path, "unknown key; expected one of: \(known.joined(separator: ", "))"))
                }
            }
        }
        return errors
    }

    /// The known key closest to `key`: case-insensitive, a swap of neighbours counting as one
    /// edit, at most one edit per three characters (at least one).
    static func nearest(_ key: String, in known: [String]) -> String? {
        let target = Array(key.lowercased())
        var best: (String, Int)?
        for candidate in known {
            let distance = editDistance(target, Array(candidate.lowercased()))
            if distance <= max(1, target.count / 3), distance < (best?.1 ?? .max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard a.count < 200, b.count < 200 else { return .max }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
