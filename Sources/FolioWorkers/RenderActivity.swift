import CProcessSupport
import FolioGraphics
import Foundation

/// What this process's render is doing, recorded where a crash cannot erase it: in a render
/// worker, the page it shares with its supervisor; in `folio render`, a page of its own, which
/// the crash report reads.
package enum RenderActivity {
    /// A deadline `seconds` from now whose checks record each step of the render, and which stops
    /// when a supervisor asks (in a worker).
    package static func deadline(seconds: Double = .infinity) -> RenderDeadline {
        RenderDeadline(
            seconds: seconds, stopRequested: { folio_stop_requested() != 0 },
            activity: { step in
                var step = step
                step.withUTF8 { folio_activity_set($0.baseAddress, $0.count) }
            })
    }

    /// Makes a crash of this process one line on standard error, `prefix` followed by "the
    /// renderer crashed (signal 11, SIGSEGV) while drawing elements[3] on page 2", and exit
    /// status 1, instead of a core dump or a backtrace.
    package static func reportCrashes(prefix: String) {
        folio_crash_report_install(prefix)
    }
}
