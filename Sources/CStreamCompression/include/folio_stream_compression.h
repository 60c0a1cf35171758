#ifndef FOLIO_STREAM_COMPRESSION_H
#define FOLIO_STREAM_COMPRESSION_H

/// The zlib level `folio` compresses with where a library asks zlib for its default level (Cairo's
/// font subsets and images): 1, zlib's fastest. See folio_stream_compression.c.
#define FOLIO_DEFAULT_ZLIB_LEVEL 1

/// The level zlib's default stands for in this process (FOLIO_DEFAULT_ZLIB_LEVEL); referring to it
/// keeps this target's `deflateInit_` in the executable.
int folio_default_zlib_level(void);

#endif
