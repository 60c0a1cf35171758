import Dispatch
import Folio
import Foundation
import Synchronization

/// What the preview shows: the latest render (the last good one's pages and HTML stay beside an
/// error), its number (each render a new one, which the page's event stream announces), and the
/// record chosen. Renders run one at a time on a queue of their own, a burst of saves rendering once.
final class PreviewState: Sendable {
    /// The state a request reads.
    struct Shown: Sendable {
        /// Each render's number, from 1.
        var version = 0
        /// The pages and HTML shown: the last render that had no error, and its number.
        var good = PreviewRender()
        var goodVersion = 0
        /// The latest render's error, if it stopped.
        var failure: PreviewRender.Failure?
        /// The latest render's warnings.
        var warnings: [PreviewRender.Warning] = []
        /// The record shown, from 1, and how many the data holds (nil without data).
        var record = 1
        var records: Int?
    }

    let settings: PreviewSettings
    private let shown: Mutex<Shown>
    /// Whether a render is waiting to start (more changes while it waits are the same render).
    private let pending = Mutex(false)
    private let queue = DispatchQueue(label: "folio-preview-render")
    private let stopping = Mutex(false)

    /// Whether the preview is shutting down (its event streams end).
    var isStopping: Bool { stopping.withLock { $0 } }

    /// The preview is shutting down.
    func stop() { stopping.withLock { $0 = true } }

    init(settings: PreviewSettings) {
        self.settings = settings
        shown = Mutex(Shown(record: settings.record))
    }

    /// What is shown now.
    var current: Shown { shown.withLock { $0 } }

    /// Renders again after a short pause (saving a file is often several writes).
    func renderSoon() {
        let start = pending.withLock { waiting -> Bool in
            defer { waiting = true }
            return !waiting
        }
        guard start else { return }
        queue.asyncAfter(deadline: .now() + .milliseconds(80)) { [self] in
            pending.withLock { $0 = false }
            renderNow()
        }
    }

    /// Shows record `number` (from 1) of the data.
    func choose(record number: Int) {
        shown.withLock { $0.record = max(1, number) }
        renderSoon()
    }

    /// Renders the document now, on the calling thread (the queue's, or start-up's).
    func renderNow() {
        let record = shown.withLock { $0.record }
        let render = PreviewRender.make(settings, record: record)
        let records = settings.data.flatMap { PreviewState.countRecords(in: $0) }
        shown.withLock { state in
            state.version += 1
            state.failure = render.failure
            state.warnings = render.warnings
            state.records = records
            if render.failure == nil {
                state.good = render
                state.goodVersion = state.version
            }
        }
    }

    /// How many records the data file holds (JSON lines, a JSON array or CSV); nil when it cannot be read.
    private static func countRecords(in path: String) -> Int? {
        guard let reader = try? RecordReader(path: path) else { return nil }
        var count = 0
        while (try? reader.next()) != nil, count < 100_000 { count += 1 }
        return count
    }
}
