import FolioData
import FolioModel
import Foundation

extension FHIRClinicalRecord {
    /// Results measured more than once (by code) as series to chart: their times, values, unit and
    /// reference range (as a band, `thresholds`); titled in the record's language.
    func series(of results: [FHIRClinicalEntry], words: FHIRWords) -> [TreeValue] {
        var byCode: [String: [FHIRClinicalEntry]] = [:]
        var order: [String] = []
        for entry in results {
            guard case .string(let code)? = entry.value["code"], entry.instant != nil else { continue }
            if byCode[code] == nil { order.append(code) }
            byCode[code, default: []].append(entry)
        }
        return order.compactMap { code -> TreeValue? in
            guard let list = byCode[code]?.sorted(by: { ($0.instant ?? 0) < ($1.instant ?? 0) }), list.count >= 2,
                let last = list.last
            else { return nil }
            // One unit for the series: the most recent result's; others in another unit are left out.
            let unit = last.value["unit"] ?? .null
            let points = list.filter { ($0.value["unit"] ?? .null) == unit }
            guard points.count >= 2 else { return nil }
            let numbers: [Double] = points.compactMap { if case .number(let n)? = $0.value["number"] { n } else { nil } }
            let times: [TreeValue] = points.compactMap { entry in
                entry.instant.map { .string(clock.text(of: FHIRTime(milliseconds: $0, dateOnly: false))) }
            }
            let low: Double? = if case .number(let n)? = last.value["low"] { n } else { nil }
            let high: Double? = if case .number(let n)? = last.value["high"] { n } else { nil }
            var thresholds: [TreeValue] = []
            let label = last.value["range"]?.textOrNil.map { "\(words[.referenceRange]) \($0)" } ?? words[.referenceRange]
            switch (low, high) {
            case (let l?, let h?) where l <= h:
                thresholds.append(
                    .object([("kind", .string("range")), ("value", .number(l)), ("upper", .number(h)), ("label", .string(label))]))
            case (let l?, nil):
                thresholds.append(.object([("kind", .string("lessThan")), ("value", .number(l)), ("label", .string(label))]))
            case (nil, let h?):
                thresholds.append(.object([("kind", .string("greaterThan")), ("value", .number(h)), ("label", .string(label))]))
            default: break
            }
            let name = last.value["name"]?.textOrNil ?? last.value["text"]?.textOrNil ?? ""
            var members: [(key: String, value: TreeValue)] = []
            members.append(("name", .string(name)))
            members.append(("title", .string(words.format(.overTime, ["name": name]))))
            members.append(("code", .string(code)))
            members.append(("unit", unit))
            members.append(("count", .number(Double(points.count))))
            members.append(("times", .array(times)))
            members.append(("values", .array(numbers.map(TreeValue.number))))
            members.append(("low", low.map(TreeValue.number) ?? .null))
            members.append(("high", high.map(TreeValue.number) ?? .null))
            members.append(("range", last.value["range"] ?? .null))
            members.append(("thresholds", .array(thresholds)))
            members.append(("last", last.value["value"] ?? .null))
            members.append(("lastFlag", last.value["flagText"] ?? .null))
            return .object(members)
        }
    }
}
