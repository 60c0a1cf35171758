// qpdf's crypto provider (GnuTLS), bound when it is first used.
//
// Folio links qpdf statically (libqpdf.a): loading libqpdf.so, and with it GnuTLS and its eight
// libraries (nettle, hogweed, gmp, p11-kit, idn2, unistring, tasn1, brotli), cost every process
// 3.5 ms of symbol binding before main, though only an encrypted PDF uses GnuTLS. The ten GnuTLS
// functions qpdf's provider calls are defined here: the first call opens libgnutls.so.30 and every
// call goes on to GnuTLS's own function. The declarations come from GnuTLS's headers, so their types
// are GnuTLS's. When the library cannot be opened, each returns GnuTLS's error
// (GNUTLS_E_CRYPTO_INIT_FAILED), which qpdf reports as an exception with gnutls_strerror's text.
#include "folio_pdf_finish.h"

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>

#include <dlfcn.h>
#include <mutex>

namespace {

struct GnuTLS {
    decltype(&::gnutls_cipher_init) cipherInit = nullptr;
    decltype(&::gnutls_cipher_encrypt2) cipherEncrypt = nullptr;
    decltype(&::gnutls_cipher_decrypt2) cipherDecrypt = nullptr;
    decltype(&::gnutls_cipher_deinit) cipherDeinit = nullptr;
    decltype(&::gnutls_cipher_get_key_size) cipherKeySize = nullptr;
    decltype(&::gnutls_hash_init) hashInit = nullptr;
    decltype(&::gnutls_hash) hash = nullptr;
    decltype(&::gnutls_hash_deinit) hashDeinit = nullptr;
    decltype(&::gnutls_rnd) random = nullptr;
    decltype(&::gnutls_strerror) describe = nullptr;
    bool available = false;
};

template <typename Function> bool bind(void *library, char const *name, Function &function) {
    function = reinterpret_cast<Function>(dlsym(library, name));
    return function != nullptr;
}

/// GnuTLS's entry points, opened once (thread-safe); `available` is false when libgnutls.so.30 is
/// missing or lacks one of them.
GnuTLS const &gnutls() {
    static GnuTLS loaded;
    static std::once_flag once;
    std::call_once(once, [] {
        void *library = dlopen("libgnutls.so.30", RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) return;
        GnuTLS table;
        table.available = bind(library, "gnutls_cipher_init", table.cipherInit) &&
                          bind(library, "gnutls_cipher_encrypt2", table.cipherEncrypt) &&
                          bind(library, "gnutls_cipher_decrypt2", table.cipherDecrypt) &&
                          bind(library, "gnutls_cipher_deinit", table.cipherDeinit) &&
                          bind(library, "gnutls_cipher_get_key_size", table.cipherKeySize) &&
                          bind(library, "gnutls_hash_init", table.hashInit) && bind(library, "gnutls_hash", table.hash) &&
                          bind(library, "gnutls_hash_deinit", table.hashDeinit) && bind(library, "gnutls_rnd", table.random) &&
                          bind(library, "gnutls_strerror", table.describe);
        if (table.available) loaded = table;
    });
    return loaded;
}

} // namespace

extern "C" {

int folio_pdf_encryption_available(void) { return gnutls().available ? 1 : 0; }

int gnutls_cipher_init(gnutls_cipher_hd_t *handle, gnutls_cipher_algorithm_t cipher, gnutls_datum_t const *key, gnutls_datum_t const *iv) {
    GnuTLS const &library = gnutls();
    return library.available ? library.cipherInit(handle, cipher, key, iv) : GNUTLS_E_CRYPTO_INIT_FAILED;
}

int gnutls_cipher_encrypt2(gnutls_cipher_hd_t handle, void const *text, size_t textLength, void *cipherText, size_t cipherTextLength) {
    GnuTLS const &library = gnutls();
    return library.available ? library.cipherEncrypt(handle, text, textLength, cipherText, cipherTextLength)
                             : GNUTLS_E_CRYPTO_INIT_FAILED;
}

int gnutls_cipher_decrypt2(gnutls_cipher_hd_t handle, void const *cipherText, size_t cipherTextLength, void *text, size_t textLength) {
    GnuTLS const &library = gnutls();
    return library.available ? library.cipherDecrypt(handle, cipherText, cipherTextLength, text, textLength)
                             : GNUTLS_E_CRYPTO_INIT_FAILED;
}

// A handle exists only if gnutls_cipher_init succeeded, so GnuTLS is loaded whenever there is one to free.
void gnutls_cipher_deinit(gnutls_cipher_hd_t handle) {
    GnuTLS const &library = gnutls();
    if (library.available) library.cipherDeinit(handle);
}

size_t gnutls_cipher_get_key_size(gnutls_cipher_algorithm_t algorithm) {
    GnuTLS const &library = gnutls();
    return library.available ? library.cipherKeySize(algorithm) : 0;
}

int gnutls_hash_init(gnutls_hash_hd_t *digest, gnutls_digest_algorithm_t algorithm) {
    GnuTLS const &library = gnutls();
    return library.available ? library.hashInit(digest, algorithm) : GNUTLS_E_CRYPTO_INIT_FAILED;
}

int gnutls_hash(gnutls_hash_hd_t handle, void const *text, size_t textLength) {
    GnuTLS const &library = gnutls();
    return library.available ? library.hash(handle, text, textLength) : GNUTLS_E_CRYPTO_INIT_FAILED;
}

void gnutls_hash_deinit(gnutls_hash_hd_t handle, void *digest) {
    GnuTLS const &library = gnutls();
    if (library.available) library.hashDeinit(handle, digest);
}

int gnutls_rnd(gnutls_rnd_level_t level, void *data, size_t length) {
    GnuTLS const &library = gnutls();
    return library.available ? library.random(level, data, length) : GNUTLS_E_CRYPTO_INIT_FAILED;
}

char const *gnutls_strerror(int error) {
    GnuTLS const &library = gnutls();
    return library.available ? library.describe(error) : "GnuTLS (libgnutls.so.30) could not be loaded (Debian: apt install libgnutls30)";
}

} // extern "C"
