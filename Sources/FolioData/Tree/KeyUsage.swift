import FolioModel
import Foundation

/// Records, while a tree is decoded, which members of each object the model asked
/// for; a member nobody asked for is an unknown key (a misspelling such as `titel`).
final class KeyUsage {
    private struct Object {
        /// Where the object is; its dotted path is made only for an unknown key's error.
        let codingPath: CodingPathNode?
        let members: [(key: String, value: TreeValue)]
        /// Whether the member at each position was asked for (by position: no key is hashed).
        var asked: [Bool]
        /// Keys asked for that the object does not have: the suggestions for a misspelling
        /// (listed as asked, repeats and all; only an object with an unknown key sorts them out).
        var missingAsked: [String] = []

        package var path: String { DocumentSyntax.path(codingPath?.keys ?? []) }
    }

    /// An object of the tree: its members' storage and its depth. Several containers on one object
    /// (a block's and its kind's) share its entry; an object a YAML alias repeats at the same depth
    /// shares it too, which only merges the keys asked of the same value.
    private struct Identity: Hashable {
        let storage: UnsafeRawPointer
        let depth: Int
    }

    private var objects: [Object] = []
    private var indexByIdentity: [Identity: Int] = [:]

    /// The object at `codingPath` with `members`; several containers on one object share it.
    func register(_ codingPath: CodingPathNode?, members: [(key: String, value: TreeValue)]) -> Int {
        let storage = members.withUnsafeBufferPointer { $0.baseAddress.map { UnsafeRawPointer($0) } }
        // An empty object has no storage of its own (and no member to ask for).
        guard let storage else {
            objects.append(Object(codingPath: codingPath, members: members, asked: []))
            return objects.count - 1
        }
        let identity = Identity(storage: storage, depth: codingPath?.depth ?? 0)
        if let index = indexByIdentity[identity] { return index }
        objects.append(Object(codingPath: codingPath, members: members, asked: Array(repeating: false, count: members.count)))
        indexByIdentity[identity] = objects.count - 1
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

    func askAll(_ object: Int) { objects[object].asked = Array(repeating: true, count: objects[object].members.count) }

    /// One error per unknown key, in document order, with the nearest known key as a suggestion.
    func unknownKeys() -> [FolioError] {
        var errors: [FolioError] = []
        for object in objects where object.asked.contains(false) {
            let keys = object.members.map(\.key)
            let askedKeys = Set(zip(keys, object.asked).filter(\.1).map(\.0)).union(object.missingAsked)
            let objectPath = object.path
            for (key, asked) in zip(keys, object.asked) where !asked && !askedKeys.contains(key) {
                let path = objectPath.isEmpty ? key : "\(objectPath).\(key)"
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
