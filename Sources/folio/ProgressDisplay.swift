import Folio
import FolioBatch
import FolioFiles
import Foundation

/// Batch progress on standard error: a bar on a terminal, a line every two seconds otherwise.
final class ProgressDisplay: BatchProgress {
    enum Mode { case bar, lines, quiet }

    private let mode: Mode
    /// The template, whose lines the template's warnings name.
    private let template: SourceFile?
    private var total = 0
    private var lastLine = Date.distantPast

    init(mode: Mode, template: SourceFile?) {
        self.mode = mode
        self.template = template
    }

    func started(total: Int) { self.total = total }

    /// The template's warnings, printed whatever the mode, as `folio render --lenient` prints them
    /// (with the line and column that hold the field).
    func warned(_ warning: FolioError) { write((template?.describe(warning, as: "warning") ?? "folio: warning: \(warning)") + "\n") }

    func progressed(_ summary: BatchSummary) {
        switch mode {
        case .quiet: return
        case .bar: write("\r" + bar(summary))
        case .lines:
            guard Date().timeIntervalSince(lastLine) >= 2 else { return }
            lastLine = Date()
            write(text(summary) + "\n")
        }
    }

    func finished(_ summary: BatchSummary) {
        if mode == .bar { write("\r" + bar(summary) + "\n") }
    }

    private func text(_ s: BatchSummary) -> String {
        let done = s.written + s.failed + s.skipped
        let remaining = max(total - done, 0)
        let eta = s.rate > 0 ? String(format: "ETA %.0f s", Double(remaining) / s.rate) : "ETA –"
        return String(format: "%d/%d documents, %.1f/s, %@, %d failed", done, total, s.rate, eta as NSString, s.failed)
    }

    private func bar(_ s: BatchSummary) -> String {
        let done = s.written + s.failed + s.skipped
        let width = 30
        let filled = total > 0 ? min(width, done * width / total) : width
        let percent = total > 0 ? done * 100 / total : 100
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + String(format: "%3d%% ", percent) + text(s) + "   "
    }

    private func write(_ text: String) {
        try? AtomicFile.writeAll(Data(text.utf8), to: STDERR_FILENO)
    }
}
