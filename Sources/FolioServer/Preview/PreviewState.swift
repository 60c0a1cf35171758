import Folio
import FolioData
import FolioFHIR
import Foundation
import Synchronization

/// What the preview shows: the latest render (the last good one's pages and HTML stay beside an
/// error), its number (each render a new one, which the page's event stream announces), and the
/// record chosen. Renders run one at a time on a thread of their own, a burst of saves rendering once.
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
    /// Whether a render thread runs, and whether a change came since its render began.
    private let work = Mutex((running: false, dirty: false))
    private let stopping = Mutex(false)
    /// Told the files each render included.
    private let includedFilesHandler = Mutex<(@Sendable ([String]) -> Void)?>(nil)

    /// Calls `handler` with the files each render included (which a watcher then watches too).
    func onIncludedFiles(_ handler: @escaping @Sendable ([String]) -> Void) {
        includedFilesHandler.withLock { $0 = handler }
    }

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

    /// Renders again after a short pause (saving a file is often several writes), on a thread of
    /// its own; changes while it renders make it render once more.
    func renderSoon() {
        let start = work.withLock { work -> Bool in
            work.dirty = true
            defer { work.running = true }
            return !work.running
        }
        guard start else { return }
        let thread = Thread { [self] in
            // An editor's save is often a few writes (a new file, a rename) within a few milliseconds.
            usleep(30_000)
            while work.withLock({ work -> Bool in
                if work.dirty {
                    work.dirty = false
                    return true
                }
                work.running = false
                return false
            }) {
                renderNow()
            }
        }
        thread.name = "folio-preview-render"
        thread.start()
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
        if !render.includedFiles.isEmpty, let handler = includedFilesHandler.withLock({ $0 }) { handler(render.includedFiles) }
        let records = settings.data.flatMap { countedRecords(in: $0) }
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

    /// The data file's record count, counted again only when the file changed (its size or time).
    private let recordCount = Mutex<(stamp: String, count: Int?)>(("", nil))

    private func countedRecords(in path: String) -> Int? {
        var info = stat()
        let stamp = stat(path, &info) == 0 ? "\(info.st_size) \(info.st_mtim.tv_sec) \(info.st_mtim.tv_nsec)" : ""
        if let known = recordCount.withLock({ $0.stamp == stamp && !stamp.isEmpty ? $0.count : nil }) { return known }
        let count = PreviewState.countRecords(in: path, fhir: settings.fhir)
        recordCount.withLock { $0 = (stamp, count) }
        return count
    }

    /// How many records the data file holds (JSON lines, a JSON array or CSV; with `fhir`, patients);
    /// nil when it cannot be read.
    private static func countRecords(in path: String, fhir: FHIRImportOptions?) -> Int? {
        if let fhir {
            guard let export = try? FHIRExport(path: path, options: fhir) else { return nil }
            var count = 0
            try? export.forEachRecord { _ in count += 1 }
            return count
        }
        guard let reader = try? RecordReader(path: path) else { return nil }
        var count = 0
        while (try? reader.next()) != nil, count < 100_000 { count += 1 }
        return count
    }
}
