import CCairoPango

/// What a thread keeps for shaping text across its renders: its Pango engines, one per direction
/// (`PangoTextEngine.forCurrentThread`), and its screen measurer (`ScreenTextMeasurer`). Pango's
/// font map is per thread, so each thread has its own; released when the thread ends.
final class ThreadText {
    var leftToRight: PangoTextEngine?
    var rightToLeft: PangoTextEngine?
    var screenMeasurer: ScreenTextMeasurer?

    /// This thread's, made on first use. Kept in POSIX thread-specific data: Foundation's
    /// `Thread.current.threadDictionary` made the main thread's `Thread` first, 3 M instructions of
    /// a cold render.
    static var current: ThreadText {
        if let stored = pthread_getspecific(key) { return Unmanaged<ThreadText>.fromOpaque(stored).takeUnretainedValue() }
        let text = ThreadText()
        pthread_setspecific(key, Unmanaged.passRetained(text).toOpaque())
        return text
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { stored in
            guard let stored else { return }
            Unmanaged<ThreadText>.fromOpaque(stored).release()
        }
        return key
    }()
}
