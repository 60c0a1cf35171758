import FolioModel
import Foundation

/// Problems with an export as a whole, one line each (the first 200 kept, the rest counted).
struct FHIRNotes: Sendable {
    /// The lines kept.
    private(set) var lines: [String] = []
    /// Lines beyond the first 200.
    private(set) var dropped = 0

    mutating func add(_ line: String) {
        if lines.count < 200 { lines.append(line) } else { dropped += 1 }
    }

    /// Every line, and one more counting those left out.
    var all: [String] { dropped > 0 ? lines + ["… and \(dropped) more problems like these"] : lines }
}
