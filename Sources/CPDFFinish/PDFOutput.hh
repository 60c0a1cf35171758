// The finished PDF's bytes, handed to Swift (see include/folio_pdf_finish.h).
#ifndef FOLIO_PDF_OUTPUT_HH
#define FOLIO_PDF_OUTPUT_HH

// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif
#include "folio_pdf_finish.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>

/// A finished PDF's bytes. It grows with realloc, which moves a large block by remapping its pages
/// (glibc uses mremap), so a long document's file is never held twice while it grows.
struct folio_pdf_output {
    char *data = nullptr;
    size_t size = 0;
    size_t capacity = 0;
    /// The SHA-256 of the finished bytes, when the finishing step took it (a signed file's).
    unsigned char sha256[32] = {};
    bool hasSHA256 = false;
    /// Bytes already written to the finishing's file descriptor (they come before `data`).
    size_t written = 0;

    folio_pdf_output() = default;
    folio_pdf_output(folio_pdf_output const &) = delete;
    folio_pdf_output &operator=(folio_pdf_output const &) = delete;
    ~folio_pdf_output() { std::free(data); }

    void append(char const *bytes, size_t count) {
        if (count > capacity - size) {
            size_t wanted = std::max(size + count, capacity + capacity / 2 + 65536);
            void *grown = std::realloc(data, wanted);
            if (grown == nullptr) throw std::bad_alloc();
            data = static_cast<char *>(grown);
            capacity = wanted;
        }
        std::memcpy(data + size, bytes, count);
        size += count;
    }
    void append(std::string_view text) { append(text.data(), text.size()); }

    /// The bytes replaced by `bytes`.
    void assign(std::string const &bytes) {
        size = 0;
        append(bytes);
    }
};

#endif
