import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Finishes a long document's parts on a second thread while the renderer draws the next one: the
/// finishing step (most of what tagging costs beyond Cairo's own work) runs beside the drawing
/// instead of after it. At most one part waits, so memory holds the part being drawn, the one
/// waiting and the one being finished. A document of one part, or a process that cannot start a
/// thread (a worker's address-space limit), has its parts finished on the caller's thread.
///
/// The thread is a POSIX thread given this object through an unmanaged pointer; the part handed
/// over and the first failure sit under a `Mutex`; a semaphore counts free places for a part (the
/// caller waits on it), another the parts and the closing (the thread waits on it).
final class PartPipeline {
    private struct Handover {
        var waiting: (sink: PDFSink, structure: StructureRecord)?
        var failure: (any Error)?
        var closing = false
    }

    private let finisher: PDFFinisher
    private let handover = Mutex(Handover())
    /// A free place for a part. Made at 0 and raised to 1: libdispatch traps when a semaphore is
    /// released below its starting value.
    private let place = DispatchSemaphore(value: 0)
    /// Parts handed over, plus one for the closing.
    private let ready = DispatchSemaphore(value: 0)
    private var thread: pthread_t?
    private var threadless: Bool

    /// A pipeline into `finisher`; with `threaded` false (a document of one part), parts are
    /// finished on the caller's thread.
    init(finisher: PDFFinisher, threaded: Bool) {
        self.finisher = finisher
        threadless = !threaded
        place.signal()
    }

    deinit { close() }

    /// Hands a drawn part over, waiting while another part still waits; throws the error an
    /// earlier part failed with.
    func submit(_ sink: PDFSink, structure: StructureRecord) throws {
        if thread == nil && !threadless { threadless = !startThread() }
        if threadless {
            try finish(sink, structure)
            return
        }
        place.wait()
        let failure = handover.withLock { (state: inout Handover) -> (any Error)? in
            if state.failure == nil { state.waiting = (sink, structure) }
            return state.failure
        }
        if let failure {
            place.signal()
            throw failure
        }
        ready.signal()
    }

    /// Waits until every part handed over is finished; throws the first failure.
    func finishAll() throws {
        stop(droppingWaitingPart: false)
        if let failure = handover.withLock({ $0.failure }) { throw failure }
    }

    /// Stops taking parts (a render that failed or stopped): the part being finished completes, a
    /// waiting one is dropped, and the thread ends.
    func close() { stop(droppingWaitingPart: true) }

    private func stop(droppingWaitingPart: Bool) {
        guard let running = thread else { return }
        handover.withLock { state in
            state.closing = true
            if droppingWaitingPart { state.waiting = nil }
        }
        ready.signal()
        pthread_join(running, nil)
        thread = nil
    }

    private func finish(_ sink: PDFSink, _ structure: StructureRecord) throws {
        try withExtendedLifetime(sink) { try finisher.add(sink.bytes, structure: structure) }
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

    /// The thread: finishes each part as it is handed over until the pipeline closes; after a
    /// failure, parts are taken and dropped.
    private func run() {
        while true {
            ready.wait()
            let (part, closing, failed) = handover.withLock { state in
                let part = state.waiting
                state.waiting = nil
                return (part, state.closing, state.failure != nil)
            }
            guard let part else {
                if closing { return }
                continue
            }
            place.signal()
            if failed { continue }
            do {
                try finish(part.sink, part.structure)
            } catch {
                handover.withLock { $0.failure = error }
            }
        }
    }
}
