import FolioGraphics
import FolioModel

/// Measures chart text for HTML: one Pango engine per thread kept across renders, with the
/// sizes of the lines it measured (day names, tick numbers, legend titles repeat from report to
/// report), so an HTML render neither shapes them again nor builds and frees an engine. The
/// sizes are the ones the PDF uses: the same engine settings, without keeping any layout.
package final class ScreenTextMeasurer: TextMeasurer {
    private struct Key: Hashable {
        let text: String
        let font: FontSpec
    }

    /// Lines measured on this thread; emptied at 20,000, so a long-running server's memory stays
    /// bounded (a W1 report measures a few hundred).
    private var sizes = BoundedCache<Key, TextMetrics>(limit: 20_000)
    /// The thread's left-to-right engine, which the PDF renders of the thread share.
    private let engine = PangoTextEngine.forCurrentThread(rightToLeft: false)

    private init() {}

    /// This thread's measurer (Pango's font map is per thread, so each thread has its own).
    package static func forCurrentThread() -> ScreenTextMeasurer {
        let text = ThreadText.current
        if let measurer = text.screenMeasurer { return measurer }
        let measurer = ScreenTextMeasurer()
        text.screenMeasurer = measurer
        return measurer
    }

    /// The size of `text` on one line in `font`, as the PDF draws it.
    package func measure(_ text: String, font: FontSpec) -> TextMetrics {
        let key = Key(text: text, font: font)
        if let known = sizes[key] { return known }
        let metrics = engine.singleLine(text, font: font).metrics
        sizes.keep(metrics, for: key)
        return metrics
    }
}
