import FolioData
import FolioModel
import Foundation

/// Results read once, digested: each test (by code, else by name) listed once, with its latest value,
/// flag and date and its earlier values beside it (at most `earlierShown`); the tests grouped under
/// the report their latest value came from, newest report first; and each test measured more than
/// once as a series to chart (`FHIRClinicalRecord.series`). A patient with 5,000 creatinine results
/// reads as one row and one chart, not thousands of rows.
struct FHIRResultDigest {
    let words: FHIRWords

    /// The most earlier values shown beside a test's latest.
    static let earlierShown = 5

    /// One result and the report (or "Other results") it was listed in.
    struct Listed {
        let entry: FHIRClinicalEntry
        let group: Int
        let order: Int
    }

    /// The groups results come in (a report's name and details, or "Other results"), by position.
    struct Group {
        let name: String
        let details: String?
    }

    /// Each test once as a row under the group of its latest value, groups newest first:
    /// `[{name, details, results: [{name, value, range, flagText, date, earlier, count, abnormal, note}]}]`.
    func panels(_ listed: [Listed], groups: [Group]) -> [TreeValue] {
        var byTest: [String: [Listed]] = [:]
        var firstSeen: [String] = []
        for item in listed {
            let key = FHIRResultDigest.testKey(item.entry)
            if byTest[key] == nil { firstSeen.append(key) }
            byTest[key, default: []].append(item)
        }
        var rows: [(group: Int, order: Int, instant: Int64, row: TreeValue)] = []
        for key in firstSeen {
            guard let all = byTest[key] else { continue }
            let ordered = all.sorted { ($0.entry.instant ?? .min, -$0.order) > ($1.entry.instant ?? .min, -$1.order) }
            guard let latest = ordered.first else { continue }
            let earlier = ordered.dropFirst().prefix(FHIRResultDigest.earlierShown).compactMap { item -> String? in
                guard let value = item.entry.value["value"]?.textOrNil else { return nil }
                guard let date = item.entry.value["date"]?.textOrNil else { return value }
                return words.format(.earlierValue, ["value": value, "date": date])
            }
            let more = ordered.count - 1 - min(ordered.count - 1, FHIRResultDigest.earlierShown)
            var earlierText = earlier.joined(separator: "; ")
            if more > 0 { earlierText += (earlierText.isEmpty ? "" : "; ") + "…" }
            let value = latest.entry.value
            // The latest value with its comments under it: a result's note is read with it.
            let note = value["note"]?.textOrNil.map { words.format(.note, ["text": $0]) }
            let shown = [value["value"]?.textOrNil, note].compactMap { $0 }.joined(separator: "\n")
            let row: TreeValue = .object([
                ("name", value["name"] ?? value["text"] ?? .null), ("value", value["value"] ?? .null),
                ("shown", shown.isEmpty ? .null : .string(shown)), ("range", value["range"] ?? .null),
                ("flagText", value["flagText"] ?? .null), ("abnormal", value["abnormal"] ?? .bool(false)), ("date", value["date"] ?? .null),
                ("earlier", earlierText.isEmpty ? .null : .string(earlierText)), ("count", .number(Double(ordered.count))),
                ("note", value["note"] ?? .null), ("code", value["code"] ?? .null),
            ])
            rows.append((latest.group, latest.order, latest.entry.instant ?? .min, row))
        }
        var newestOfGroup: [Int: Int64] = [:]
        for row in rows { newestOfGroup[row.group] = max(newestOfGroup[row.group] ?? .min, row.instant) }
        let groupOrder = newestOfGroup.keys.sorted { (newestOfGroup[$0] ?? .min, -$0) > (newestOfGroup[$1] ?? .min, -$1) }
        return groupOrder.compactMap { group -> TreeValue? in
            let members = rows.filter { $0.group == group }.sorted { $0.order < $1.order }.map(\.row)
            guard !members.isEmpty, groups.indices.contains(group) else { return nil }
            return .object([
                ("name", .string(groups[group].name)), ("details", groups[group].details.map(TreeValue.string) ?? .null),
                ("results", .array(members)),
            ])
        }
    }

    /// What makes two results the same test: their code, else their name and unit.
    static func testKey(_ entry: FHIRClinicalEntry) -> String {
        if case .string(let code)? = entry.value["code"], !code.isEmpty { return "code:" + code }
        return "name:" + (entry.value["name"]?.textOrNil ?? entry.value["text"]?.textOrNil ?? "") + "|"
            + (entry.value["unit"]?.textOrNil ?? "")
    }
}
