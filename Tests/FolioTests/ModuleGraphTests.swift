import Foundation
import XCTest

/// CONTRIBUTING.md's table of modules is the package's: every Swift module of Package.swift is a
/// row, and the row's "uses" column is the module's dependencies among Folio's own Swift modules,
/// no more and no fewer (#56). docs/design.md names every module, C ones included.
final class ModuleGraphTests: XCTestCase {
    /// Each target of Package.swift with the targets it depends on (products of other packages left out).
    private func manifestTargets() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: TestSupport.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [String: Set<String>] = [:]
        let declaration = #/\.(?:target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([^"]+)"/#
        for match in manifest.matches(of: declaration) {
            let name = String(match.output.1)
            let rest = manifest[match.range.upperBound...]
            var dependencies: Set<String> = []
            // The dependencies list, when the target has one, comes before the target's closing parenthesis.
            if let list = rest.firstMatch(of: #/^\s*,\s*dependencies:\s*\[/#) {
                var depth = 1
                var index = list.range.upperBound
                var text = ""
                while index < rest.endIndex, depth > 0 {
                    let character = rest[index]
                    if character == "[" { depth += 1 }
                    if character == "]" { depth -= 1 }
                    if depth > 0 { text.append(character) }
                    index = rest.index(after: index)
                }
                let withoutProducts = text.replacing(#/\.product\([^)]*\)/#, with: "")
                let withoutComments = withoutProducts.replacing(#/\/\/[^\n]*/#, with: "")
                dependencies = Set(withoutComments.matches(of: #/"([^"]+)"/#).map { String($0.output.1) })
            }
            targets[name] = dependencies
        }
        return targets
    }

    /// A Swift module of Folio's own: not a C module (`CSQLite`), not a test target.
    private func isSwiftModule(_ name: String, in targets: [String: Set<String>]) -> Bool {
        let cModule = name.count > 1 && name.first == "C" && name.dropFirst().first?.isUppercase == true
        return targets[name] != nil && !cModule && !name.hasSuffix("Tests") && name != "folio-fuzz"
    }

    /// CONTRIBUTING.md's module table: each row's module and the modules in its "uses" column.
    private func contributingTable() throws -> [String: Set<String>] {
        let text = try String(contentsOf: TestSupport.root.appendingPathComponent("CONTRIBUTING.md"), encoding: .utf8)
        guard let header = text.range(of: "| module | holds | uses |") else { throw FixtureError("CONTRIBUTING.md has no module table") }
        var rows: [String: Set<String>] = [:]
        for line in text[header.upperBound...].split(separator: "\n").dropFirst() {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let uses = cells[cells.count - 2]
            rows[cells[1]] = uses == "—" ? [] : Set(uses.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return rows
    }

    func testContributingsModuleTableIsThePackagesGraph() throws {
        let targets = try manifestTargets()
        XCTAssertGreaterThan(targets.count, 30, "the manifest was read: \(targets.keys.sorted())")
        let modules = targets.keys.filter { isSwiftModule($0, in: targets) }
        let table = try contributingTable()
        XCTAssertEqual(Set(table.keys), Set(modules), "CONTRIBUTING.md's module table lists other modules than Package.swift")
        for module in modules {
            let own = (targets[module] ?? []).filter { isSwiftModule($0, in: targets) }
            XCTAssertEqual(table[module], own, "CONTRIBUTING.md says \(module) uses other modules than Package.swift does")
        }
    }

    func testDesignNamesEveryModule() throws {
        let targets = try manifestTargets()
        let design = try String(contentsOf: TestSupport.root.appendingPathComponent("docs/design.md"), encoding: .utf8)
        let listed = Set(design.split(separator: "\n").compactMap { line in line.split(separator: " ").first.map(String.init) })
        let missing = targets.keys.filter { !$0.hasSuffix("Tests") && $0 != "folio-fuzz" && !listed.contains($0) }
        XCTAssertEqual(missing.sorted(), [], "docs/design.md's module list lacks these modules")
    }
}
