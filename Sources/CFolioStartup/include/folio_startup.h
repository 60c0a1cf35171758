#ifndef FOLIO_STARTUP_H
#define FOLIO_STARTUP_H

/// The subcommand whose process starts reading the font configuration as it is loaded, before
/// `main` (`folio render`: `RenderCommand`'s name, as `RenderRequestTests` checks).
#define FOLIO_RENDER_COMMAND "render"

#endif
