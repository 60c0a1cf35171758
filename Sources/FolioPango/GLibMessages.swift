import CCairoPango

/// Where GLib's diagnostics go (its own, and Pango's and Cairo's through it).
package enum GLibMessages {
    /// Sends every GLib diagnostic to `sink` as one line instead of to standard error (see
    /// `folio_glib_messages_capture`): a render worker records them where its supervisor reads them.
    /// Call once per process.
    package static func capture(into sink: @convention(c) (UnsafePointer<CChar>?, Int, Int32) -> Void) {
        folio_glib_messages_capture(sink)
    }
}
