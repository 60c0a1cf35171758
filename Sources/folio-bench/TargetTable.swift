import Foundation

/// The speed and memory targets, each Folio figure beside the C program's from the same run,
/// their ratio and whether the target holds.
struct TargetTable {
    /// One target.
    struct Row {
        /// What is measured.
        let name: String
        /// Folio's figure, in `unit`.
        let folio: Double?
        /// The C program's figure, in `unit`, when it has one.
        let c: Double?
        /// Unit of both figures ("ms", "MB", "documents/s").
        let unit: String
        /// The target, said as in the issue.
        let target: String
        /// Whether Folio's figure meets it (nil when not measured).
        let holds: Bool?
    }

    private(set) var rows: [Row] = []

    /// A target on the ratio Folio / C, lower is better (`limit` 1.05 means at most 5 % slower).
    mutating func ratio(_ name: String, folio: Double?, c: Double?, unit: String, atMost limit: Double) {
        let holds = folio.flatMap { f in c.map { f / $0 <= limit } }
        rows.append(Row(name: name, folio: folio, c: c, unit: unit, target: String(format: "≤ %.2f× C", limit), holds: holds))
    }

    /// A target on the ratio Folio / C, higher is better (documents per second).
    mutating func ratio(_ name: String, folio: Double?, c: Double?, unit: String, atLeast limit: Double) {
        let holds = folio.flatMap { f in c.map { f / $0 >= limit } }
        rows.append(Row(name: name, folio: folio, c: c, unit: unit, target: String(format: "≥ %.2f× C", limit), holds: holds))
    }

    /// An absolute target: Folio's figure at most `limit`, the C program's shown for scale.
    mutating func absolute(_ name: String, folio: Double?, c: Double?, unit: String, atMost limit: Double) {
        rows.append(
            Row(
                name: name, folio: folio, c: c, unit: unit, target: String(format: "≤ %g %@", limit, unit as NSString),
                holds: folio.map { $0 <= limit }))
    }

    /// A figure without a target, beside the C program's for scale.
    mutating func forScale(_ name: String, folio: Double?, c: Double?, unit: String) {
        rows.append(Row(name: name, folio: folio, c: c, unit: unit, target: "", holds: nil))
    }

    /// The table as printed by `make bench`.
    func printed() -> String {
        func figure(_ value: Double?, _ unit: String) -> String {
            guard let value else { return "—" }
            return String(format: value >= 100 ? "%.0f %@" : "%.1f %@", value, unit as NSString)
        }
        var lines = ["Targets (Folio beside the C cairo+pango program, same run):"]
        let nameWidth = rows.map(\.name.count).max() ?? 0
        for row in rows {
            let ratio = row.folio.flatMap { f in row.c.map { String(format: "%.2f×", f / $0) } } ?? "—"
            let verdict = row.holds.map { $0 ? "holds" : "MISSED" } ?? (row.folio == nil ? "not measured" : "")
            lines.append(
                "  " + row.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                    + "  Folio \(figure(row.folio, row.unit).padding(toLength: 18, withPad: " ", startingAt: 0))"
                    + "C \(figure(row.c, row.unit).padding(toLength: 18, withPad: " ", startingAt: 0))"
                    + ratio.padding(toLength: 7, withPad: " ", startingAt: 0)
                    + (row.target.isEmpty ? "(no target)" : "target \(row.target): \(verdict)"))
        }
        return lines.joined(separator: "\n")
    }
}
