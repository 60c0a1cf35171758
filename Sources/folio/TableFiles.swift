import Folio
import FolioFiles
import Foundation

/// Where `folio render --format csv` writes the document's tables: one table to `-o`'s name (or
/// standard output), several as NAME-1.csv, NAME-2.csv (or where `-o table-%d.csv` puts the number).
/// Each file is written whole (atomically); when one fails, those written before it are removed.
struct TableFiles {
    /// The output as given.
    let pattern: String
    /// How many tables there are.
    let count: Int

    init(pattern: String, count: Int) throws {
        if pattern == "-", count > 1 {
            throw FolioError(path: "", "-o: the document has \(count) tables, a CSV file each; give a name such as table-%d.csv")
        }
        self.pattern = pattern
        self.count = count
    }

    /// The file of table `number` (from 1).
    func path(ofTable number: Int) -> String {
        if let range = pattern.range(of: "%d") { return pattern.replacingCharacters(in: range, with: String(number)) }
        guard count > 1 else { return pattern }
        let base = pattern.lowercased().hasSuffix(".csv") ? String(pattern.dropLast(4)) : pattern
        return "\(base)-\(number).csv"
    }

    /// Writes every table, each whole; none left behind when one fails.
    func write(_ tables: [Data]) throws {
        if pattern == "-", let only = tables.first {
            try AtomicFile.writeAll(only, to: STDOUT_FILENO)
            return
        }
        var written: [URL] = []
        do {
            for (index, table) in tables.enumerated() {
                let url = URL(fileURLWithPath: path(ofTable: index + 1))
                try AtomicFile.write(table, to: url)
                written.append(url)
            }
        } catch {
            for url in written { unlink(url.path) }
            throw error
        }
    }
}
