import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Finishes a long document's parts on a second thread while the renderer draws the next one: the
/// finishing step (most of what tagging costs beyond Cairo's own work) runs beside the drawing
/// instead of after it. At most one part waits, so memory holds the part being drawn, the one
/// waiting and the one being finished. When no thread can be started (a worker's address-space
/// limit), parts are finished on the caller's thread as they come.
final class PartPipeline: @unchecked Sendable {
    private let finisher: PDFFinisher
    private let condition = NSCondition()
    /// The part handed over and not yet taken by the thread.
    private var waiting: (sink: PDFSink, structure: StructureRecord)?
    /// Whether the thread is finishing a part.
    private var working = false
    /// The first part's failure; no part is finished after it.
    private var failure: Error?
    /// Set when no more parts come: the thread ends once it has nothing left.
    private var closing = false
    private var thread: pthread_t?
    private var threadless = false

    /// A pipeline into `finisher`; with `threaded` false (a document of one part), parts are
    /// finished on the caller's thread.
    init(finisher: PDFFinisher, threaded: Bool) {
        self.finisher = finisher
        threadless = !threaded
    }

    deinit { close() }

    /// Hands a drawn part over, waiting while another part still waits; throws the error an
    /// earlier part failed with.
    func submit(_ sink: PDFSink, structure: StructureRecord) throws {
        condition.lock()
        while waiting != nil && failure == nil { condition.wait() }
        if let failure {
            condition.unlock()
            throw failure
        }
        if thread == nil && !threadless { threadless = !startThread() }
        if threadless {
            condition.unlock()
            try finish(sink, structure)
            return
        }
        waiting = (sink, structure)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every part handed over is finished; throws the first failure.
    func finishAll() throws {
        condition.lock()
        closing = true
        condition.broadcast()
        while (waiting != nil || working) && failure == nil { condition.wait() }
        let failure = self.failure
        condition.unlock()
        join()
        if let failure { throw failure }
    }

    /// Stops taking parts (a render that failed or stopped): the part being finished completes, the
    /// waiting one is dropped, and the thread ends.
    func close() {
        condition.lock()
        closing = true
        waiting = nil
        condition.broadcast()
        condition.unlock()
        join()
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

    private func join() {
        condition.lock()
        let running = thread
        thread = nil
        condition.unlock()
        if let running { pthread_join(running, nil) }
    }

    /// The thread: takes each part as it is handed over and finishes it, until closed or failed.
    private func run() {
        condition.lock()
        while true {
            while waiting == nil && !closing { condition.wait() }
            guard let part = waiting else { break }
            waiting = nil
            working = true
            condition.broadcast()
            condition.unlock()
            var error: Error?
            do { try finish(part.sink, part.structure) } catch let failed { error = failed }
            condition.lock()
            working = false
            if let error {
                failure = error
                waiting = nil
                condition.broadcast()
                break
            }
            condition.broadcast()
        }
        condition.unlock()
    }
}
