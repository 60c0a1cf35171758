import ArgumentParser
import Folio

/// `--html page|fragment|shadow`, the same for `render` and `batch` (the service takes it per request).
struct HTMLOutputOption: ParsableArguments {
    @Option(
        help:
            "HTML only: page (default), fragment (one <div>, styles scoped under its id) or shadow (a <div> with a declarative shadow root: fully isolated styles, no script)."
    )
    var html: HTMLRenderer.Output?
}
