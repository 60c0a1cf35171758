import FolioFiles
import FolioModel
import Foundation

/// Puts the files a document or template includes in place of its `$include`s.
///
/// `{$include: parts/banner.yaml}` stands for the included file's value: as an item of a list,
/// a file holding a list gives all its items (a shared footer of three blocks), any other file
/// one item; anywhere else, its value. Paths are relative to the including file, and every
/// file must be inside the input's folder (symbolic links followed first). A cycle, a path
/// outside the folder, an unreadable or malformed file is one error naming both files.
/// Includes are bounded: at most `mostIncludes` of them, `mostDepth` deep, and all files
/// together at most `InputLimits.documentBytes`.
package struct IncludeResolver {
    /// The most `$include`s one input may resolve (counting a file included twice twice).
    static let mostIncludes = 1_000
    /// The longest chain of files including one another.
    static let mostDepth = 16
    /// The key that includes a file.
    package static let key = "$include"

    private typealias Step = SourceLocator.Step
    private typealias File = SourceOrigins.File

    /// The real path of the input's folder: no included file may be outside it.
    private let root: String
    private var origins: SourceOrigins
    private var includes = 0
    private var bytesLeft = InputLimits.documentBytes
    /// The values the input and its included files may hold, shared with the input's own reading.
    private let budget: TreeBudget
    /// Each file read, by its real path: a file included again is not read again, and its values
    /// count as repeats.
    private var read: [String: (value: TreeValue, values: Int, file: File, mayInclude: Bool)] = [:]

    /// A resolver for the input at `shownPath` (as given on the command line), whose real path is
    /// `realPath` and whose text is `text`; the input's own values were counted in `budget`.
    init(input shownPath: String, realPath: String, text: String, budget: TreeBudget) {
        root = (realPath as NSString).deletingLastPathComponent
        origins = SourceOrigins(input: shownPath, text: text)
        bytesLeft = max(0, InputLimits.documentBytes - text.utf8.count)
        self.budget = budget
    }

    /// `tree` (the input's) with every include in place, and where each field came from.
    mutating func resolve(_ tree: TreeValue, inputRealPath: String) throws -> (tree: TreeValue, origins: SourceOrigins) {
        let input = Chain(file: origins.input, realPath: inputRealPath, parent: nil, mayInclude: true)
        let resolved = try resolved(tree, at: [], in: input, steps: []) ?? tree
        return (resolved, origins)
    }

    /// The files being included, innermost last: a file already in the chain is a cycle.
    private final class Chain {
        let file: File
        let realPath: String
        let parent: Chain?
        let depth: Int
        /// Whether the file's text names `$include` at all (a file that does not is not walked).
        let mayInclude: Bool

        init(file: File, realPath: String, parent: Chain?, mayInclude: Bool) {
            self.file = file
            self.realPath = realPath
            self.parent = parent
            self.mayInclude = mayInclude
            depth = (parent?.depth ?? 0) + 1
        }

        func contains(_ realPath: String) -> Bool { self.realPath == realPath || (parent?.contains(realPath) ?? false) }

        /// `weekly.yaml → parts/a.yaml → parts/b.yaml`.
        var names: [String] { (parent?.names ?? []) + [file.shownPath] }
    }

    /// `value` (at `steps` of the chain's innermost file; at `path` of the result) with its includes
    /// in place; nil when it holds none, so that a subtree without includes is never copied (a value a
    /// YAML alias repeats stays shared).
    private mutating func resolved(_ value: TreeValue, at path: [Step], in chain: Chain, steps: [Step]) throws -> TreeValue? {
        switch value {
        case .object(let members):
            if members.contains(where: { $0.key == IncludeResolver.key }) {
                let (included, inner) = try include(members, at: path, in: chain, steps: steps)
                origins.note(path, from: inner.file, at: [], site: (chain.file, steps + [.key(IncludeResolver.key)]))
                return try resolvedInside(included, at: path, in: inner, steps: [])
            }
            var result: [(key: String, value: TreeValue)]?
            for index in members.indices {
                let key = Step.key(members[index].key)
                guard let changed = try resolved(members[index].value, at: path + [key], in: chain, steps: steps + [key]) else { continue }
                if result == nil { result = members }
                result?[index].value = changed
            }
            return result.map { .object($0) }
        case .array(let items):
            guard let first = items.firstIndex(where: { IncludeResolver.isInclude($0) }) else {
                var result: [TreeValue]?
                for index in items.indices {
                    guard let changed = try resolved(items[index], at: path + [.index(index)], in: chain, steps: steps + [.index(index)])
                    else { continue }
                    if result == nil { result = items }
                    result?[index] = changed
                }
                return result.map { .array($0) }
            }
            var result: [TreeValue] = []
            result.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                guard case .object(let members) = item, IncludeResolver.isInclude(item) else {
                    let at = path + [.index(result.count)]
                    if index > first { origins.note(at, from: chain.file, at: steps + [.index(index)], site: nil) }
                    result.append(try resolved(item, at: at, in: chain, steps: steps + [.index(index)]) ?? item)
                    continue
                }
                try splice(members, at: path, in: chain, steps: steps + [.index(index)], into: &result)
            }
            return .array(result)
        default:
            return nil
        }
    }

    /// Appends to `result` (the list at `path`) what the `$include` mapping `members` (at `steps` of
    /// the chain's innermost file) names: a list's items, each in turn spliced in if it is an
    /// include itself, or any other value as one item.
    private mutating func splice(
        _ members: [(key: String, value: TreeValue)], at path: [Step], in chain: Chain, steps: [Step], into result: inout [TreeValue]
    ) throws {
        let site = (chain.file, steps + [.key(IncludeResolver.key)])
        let (included, inner) = try include(members, at: path + [.index(result.count)], in: chain, steps: steps)
        guard case .array(let includedItems) = included else {
            let at = path + [.index(result.count)]
            origins.note(at, from: inner.file, at: [], site: site)
            result.append(try resolvedInside(included, at: at, in: inner, steps: []))
            return
        }
        // A list's items join the including list; an item including a list joins its items too.
        for (innerIndex, innerItem) in includedItems.enumerated() {
            if inner.mayInclude, case .object(let innerMembers) = innerItem, IncludeResolver.isInclude(innerItem) {
                try splice(innerMembers, at: path, in: inner, steps: [.index(innerIndex)], into: &result)
                continue
            }
            let at = path + [.index(result.count)]
            origins.note(at, from: inner.file, at: [.index(innerIndex)], site: site)
            result.append(try resolvedInside(innerItem, at: at, in: inner, steps: [.index(innerIndex)]))
        }
    }

    /// A value of an included file with the includes it holds in place: walked only when the file
    /// names the key at all.
    private mutating func resolvedInside(_ value: TreeValue, at path: [Step], in chain: Chain, steps: [Step]) throws -> TreeValue {
        guard chain.mayInclude else { return value }
        return try resolved(value, at: path, in: chain, steps: steps) ?? value
    }

    /// Whether `value` is an `$include` mapping.
    private static func isInclude(_ value: TreeValue) -> Bool {
        guard case .object(let members) = value else { return false }
        return members.contains { $0.key == IncludeResolver.key }
    }

    /// The value of the file an `$include` mapping names, and the chain with that file innermost.
    private mutating func include(
        _ members: [(key: String, value: TreeValue)], at path: [Step], in chain: Chain, steps: [Step]
    ) throws -> (TreeValue, Chain) {
        let field = SourceLocator.path(of: path + [.key(IncludeResolver.key)])
        let keySteps = steps + [.key(IncludeResolver.key)]
        func failure(_ message: String) -> FolioError {
            var error = FolioError(path: field, message)
            error.file = chain.parent == nil ? nil : chain.file.shownPath
            error.position = SourceLocator.locate(keySteps, in: chain.file.text ?? "")
            return error
        }
        if let other = members.first(where: { $0.key != IncludeResolver.key }) {
            throw failure("stands alone in its mapping (found \"\(other.key)\" beside it); put the included file's fields in it")
        }
        guard case .string(let name)? = members.first?.value, !name.isEmpty, name.utf8.count <= 1024, !name.contains("\0") else {
            throw failure("expected the path of a YAML or JSON file, relative to this file")
        }
        guard !name.hasPrefix("/") else {
            throw failure("\"\(name)\" is an absolute path; give it relative to \(chain.file.shownPath)")
        }
        includes += 1
        guard includes <= IncludeResolver.mostIncludes else {
            throw failure("more than \(IncludeResolver.mostIncludes) files are included")
        }
        guard chain.depth < IncludeResolver.mostDepth else {
            throw failure("files include one another more than \(IncludeResolver.mostDepth) deep (\(chain.names.joined(separator: " → ")))")
        }
        let shownPath = IncludeResolver.joined(directoryOf: chain.file.shownPath, name)
        let outside = FolioError(
            path: "", "\"\(shownPath)\" is outside the folder of \(origins.input.shownPath), which includes may not leave")
        let folder = root.hasSuffix("/") ? root : root + "/"
        // Outside by its name, or once symbolic links are followed.
        guard IncludeResolver.joined(directoryOf: chain.realPath, name).hasPrefix(folder) else { throw failure(outside.message) }
        let candidate = ((chain.realPath as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
        guard let realPath = IncludeResolver.realPath(candidate) else {
            throw failure("cannot read \"\(shownPath)\": \(String(cString: strerror(errno)))")
        }
        guard realPath.hasPrefix(folder) else { throw failure(outside.message) }
        guard !chain.contains(realPath) else {
            throw failure(
                "\(chain.file.shownPath) includes \(shownPath), which includes it again (\((chain.names + [shownPath]).joined(separator: " → ")))"
            )
        }
        if let known = read[realPath] {
            // Included again: the same values once more, as a YAML alias repeats its anchor's.
            do {
                try budget.spend(repeated: known.values)
            } catch let exceeded as TreeBudget.Exceeded {
                throw failure("\"\(shownPath)\" is included once too often: \(exceeded.message)")
            }
            return (known.value, Chain(file: known.file, realPath: realPath, parent: chain, mayInclude: known.mayInclude))
        }
        let data: Data
        do {
            data = try BoundedFile.read(
                realPath, limit: bytesLeft, field: field, what: "included file", shownAs: shownPath, regularOnly: true)
        } catch let error as FolioError {
            guard error.message.hasSuffix(" are allowed") || error.message.hasSuffix(" bytes") else { throw failure(error.message) }
            throw failure("\"\(shownPath)\" would take the input and the files it includes past \(InputLimits.documentBytes) bytes")
        }
        bytesLeft -= data.count
        origins.noteIncluded(realPath)
        guard let text = String(validatingUTF8Bytes: data) else { throw failure("\"\(shownPath)\" is not UTF-8 text") }
        let file = File(shownPath: shownPath, text: text)
        // The included value nests where it is included: its depth counts from there.
        let depth = path.count
        let value: TreeValue
        let before = budget.values
        do {
            if DocumentSyntax.Format(fileName: shownPath) == .json {
                value = try JSONTreeParser.parse(data, depth: depth)
                try budget.spend(literal: value.valueCount)
            } else {
                value = try YAMLTree.parse(text, budget: budget, depth: depth)
            }
        } catch let exceeded as TreeBudget.Exceeded {
            throw failure("\"\(shownPath)\" makes the document too large: \(exceeded.message)")
        } catch let error as FolioError {
            // The included file's own syntax, at its line.
            var located = error.rephrased(
                error.message.replacingOccurrences(of: "the input is", with: "the included file is")
                    .replacingOccurrences(of: "the input", with: "the included file"))
            located.file = shownPath
            if located.position == nil { located.path = field }
            throw located
        }
        let mayInclude = data.range(of: Data(IncludeResolver.key.utf8)) != nil
        read[realPath] = (value, budget.values - before, file, mayInclude)
        return (value, Chain(file: file, realPath: realPath, parent: chain, mayInclude: mayInclude))
    }

    /// The path, resolved through symbolic links, of an existing file; nil (with `errno`) otherwise.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `name` joined to the folder of `file`, with `.` and `..` steps taken: `Templates/parts/a.yaml`.
    static func joined(directoryOf file: String, _ name: String) -> String {
        var parts = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
        let absolute = file.hasPrefix("/")
        for part in name.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != "..", !last.isEmpty { parts.removeLast() } else if !absolute { parts.append("..") }
            default: parts.append(String(part))
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute && !joined.hasPrefix("/") ? "/" + joined : joined
    }
}
