// zlib-format compression with libdeflate, for the finishing step.
#ifndef FOLIO_DEFLATE_HH
#define FOLIO_DEFLATE_HH

// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif
#include <libdeflate.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace folio_finish {

/// zlib-format compression and decompression of page content with libdeflate, two to three
/// times faster than zlib at the same level: Cairo's content is inflated and compressed again
/// once per page, and that round trip is most of what the finishing step costs.
class Deflate {
  public:
    Deflate() : compressor(libdeflate_alloc_compressor(1)), decompressor(libdeflate_alloc_decompressor()) {
        if (compressor == nullptr || decompressor == nullptr) throw std::runtime_error("libdeflate could not allocate");
    }
    ~Deflate() {
        libdeflate_free_compressor(compressor);
        libdeflate_free_decompressor(decompressor);
    }
    Deflate(Deflate const &) = delete;
    Deflate &operator=(Deflate const &) = delete;

    std::string compress(std::string const &data) { return compress(data.data(), data.size()); }

    /// The `length` bytes at `data`, zlib-compressed.
    std::string compress(void const *data, size_t length) {
        std::string out(libdeflate_zlib_compress_bound(compressor, length), '\0');
        size_t size = libdeflate_zlib_compress(compressor, data, length, out.data(), out.size());
        if (size == 0) throw std::runtime_error("libdeflate could not compress a stream");
        out.resize(size);
        return out;
    }

    /// The inflated `data`, or false when it is not one zlib stream (the caller then asks qpdf).
    bool decompress(unsigned char const *data, size_t size, std::string &out) {
        size_t capacity = size * 4 + 1024;
        // Content inflates to a few times its size; the bound stops a stream that would not end.
        for (int attempt = 0; attempt < 8; ++attempt, capacity *= 2) {
            out.resize(capacity);
            size_t produced = 0;
            libdeflate_result result = libdeflate_zlib_decompress(decompressor, data, size, out.data(), capacity, &produced);
            if (result == LIBDEFLATE_SUCCESS) {
                out.resize(produced);
                return true;
            }
            if (result != LIBDEFLATE_INSUFFICIENT_SPACE) return false;
        }
        return false;
    }

  private:
    libdeflate_compressor *compressor;
    libdeflate_decompressor *decompressor;
};

} // namespace folio_finish

#endif
