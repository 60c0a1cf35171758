#ifndef FOLIO_STREAM_COMPRESSION_H
#define FOLIO_STREAM_COMPRESSION_H

/// The zlib level the executables compress with where a library asks zlib for its default level
/// (Cairo's font subsets and images): 1, zlib's fastest. See folio_stream_compression.c.
#define FOLIO_DEFAULT_ZLIB_LEVEL 1

#endif
