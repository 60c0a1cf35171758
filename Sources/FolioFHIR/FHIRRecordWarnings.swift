import FolioModel
import Foundation

/// What was skipped for one patient and why, counted, in the order first seen.
struct FHIRRecordWarnings {
    private(set) var list: [(reason: String, count: Int)] = []
    private var positions: [String: Int] = [:]

    mutating func add(_ reason: String, _ count: Int) {
        if let position = positions[reason] {
            list[position].count += count
        } else {
            positions[reason] = list.count
            list.append((reason, count))
        }
    }
}
