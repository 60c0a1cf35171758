import ArgumentParser
import Folio

/// What `folio render` writes: a PDF, HTML, or a PNG picture of each page.
enum RenderFormat: String, CaseIterable, ExpressibleByArgument {
    case pdf, html, png
}
