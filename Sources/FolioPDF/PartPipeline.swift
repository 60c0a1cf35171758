import CCairoPango
import FolioGraphics
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Finishes a long document's parts on a second thread while the renderer draws the next one: the
/// finishing step (most of what tagging costs beyond Cairo's own work) runs beside the drawing
/// instead of after it. Parts pass through a `BlockingQueue` of one place, so memory holds the part
/// being drawn, the one waiting and the one being finished; after each part the heap's free memory
/// goes back to the system, so one part's garbage is not resident while the next is made. A
/// document of one part, or a process that cannot start a thread (a worker's address-space limit),
/// has its parts finished on the caller's thread.
///
/// The thread is a POSIX thread given this object through an unmanaged pointer: it is the only
/// user of the finisher while it runs.
final class PartPipeline {
    /// One part as Cairo wrote it, and what the canvas recorded while drawing it.
    private struct Part: Sendable {
        let pdf: Data
        let structure: StructureRecord
    }

    private struct State {
        /// The first part's failure; no part is finished after it.
        var failure: (any Error)?
        /// Set by `close`: parts still queued are dropped.
        var dropping = false
    }

    private let finisher: PDFFinisher
    private let parts = BlockingQueue<Part>(capacity: 1)
    private let state = Mutex(State())
    private var thread: pthread_t?
    /// Set when the thread could not be started: parts are then finished on the caller's thread.
    private var threadless = false

    /// A pipeline into `finisher`.
    init(finisher: PDFFinisher) {
        self.finisher = finisher
    }

    deinit { close() }

    /// Hands a drawn part over, waiting while another part still waits; throws the error an
    /// earlier part failed with. A document's only part (the first is `last`) is finished on the
    /// caller's thread: no thread is started for it.
    func submit(_ pdf: Data, structure: StructureRecord, last: Bool = false) throws {
        if let failure = state.withLock({ $0.failure }) { throw failure }
        if thread == nil && !threadless {
            if last {
                try finisher.add(pdf, structure: structure)
                return
            }
            threadless = !startThread()
        }
        if threadless {
            try finisher.add(pdf, structure: structure)
            folio_return_free_memory()
        } else {
            parts.push(Part(pdf: pdf, structure: structure))
        }
    }

    /// Waits until every part handed over is finished; throws the first failure.
    func finishAll() throws {
        stop()
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Stops taking parts (a render that failed or stopped): the part being finished completes, a
    /// waiting one is dropped, and the thread ends.
    func close() {
        state.withLock { $0.dropping = true }
        stop()
    }

    private func stop() {
        parts.close()
        guard let running = thread else { return }
        pthread_join(running, nil)
        thread = nil
    }

    private func startThread() -> Bool {
        let context = Unmanaged.passRetained(self).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // The structure pass recurses at most 512 levels: a small stack is plenty.
        pthread_attr_setstacksize(&attributes, 1 << 20)
        var created = pthread_t()
        let status = pthread_create(
            &created, &attributes,
            { context in
                guard let context else { return nil }
                Unmanaged<PartPipeline>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<PartPipeline>.fromOpaque(context).release()
            return false
        }
        thread = created
        return true
    }

    /// The thread: finishes each part as it comes until the queue is closed and drained; after a
    /// failure or a `close`, parts are taken and dropped.
    private func run() {
        while case .item(let part) = parts.pop() {
            guard state.withLock({ $0.failure == nil && !$0.dropping }) else { continue }
            do {
                try finisher.add(part.pdf, structure: part.structure)
                folio_return_free_memory()
            } catch {
                state.withLock { $0.failure = error }
            }
        }
    }
}
