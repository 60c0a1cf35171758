#include "folio_stream_compression.h"

#include <zlib.h>

/* The executable's own definition of zlib's deflateInit_ (the function zlib's deflateInit macro
   calls), which the dynamic linker binds every library's call to in place of zlib's: a request for
   zlib's default level (6) is compressed at FOLIO_DEFAULT_ZLIB_LEVEL, any other level as asked.
   Cairo 1.16 compresses each PDF's font subsets and images with deflateInit(Z_DEFAULT_COMPRESSION)
   and has no setting for it; page content, the rest of a Folio PDF, is compressed at level 1 by the
   finishing step (libdeflate). Measured on W3 (500 weekly summaries in one worker): zlib was 10.8 %
   of a render worker's time at level 6 and 7.5 % at level 1; the PDFs are 1.6 % larger.
   Only the executables have it (`folio`, and `folio-bench`, which measures what `folio` does): this
   target is not a dependency of the Folio library, so a program that uses the library keeps zlib's
   default. A test reads the level from the zlib header of every stream `folio render` writes. */
int deflateInit_(z_streamp stream, int level, const char *version, int stream_size) {
    int chosen = level == Z_DEFAULT_COMPRESSION ? FOLIO_DEFAULT_ZLIB_LEVEL : level;
    return deflateInit2_(stream, chosen, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY, version, stream_size);
}
