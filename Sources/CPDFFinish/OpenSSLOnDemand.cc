// The table of libcrypto functions signing uses, filled from libcrypto.so.3 on first use: see
// OpenSSLOnDemand.hh.
#define FOLIO_OPENSSL_TABLE_ONLY
#include "OpenSSLOnDemand.hh"

#include <dlfcn.h>
#include <mutex>
#include <stdexcept>

namespace folio_signing {

OpenSSLFunctions const &crypto() {
    static OpenSSLFunctions table;
    static bool loaded = false;
    static std::once_flag once;
    std::call_once(once, [] {
        void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) return;
        OpenSSLFunctions functions;
        bool complete = true;
#define FOLIO_OPENSSL_LOAD(name)                                                                                     \
    functions.name = reinterpret_cast<decltype(functions.name)>(dlsym(library, #name));                             \
    complete = complete && functions.name != nullptr;
        FOLIO_OPENSSL_FUNCTIONS(FOLIO_OPENSSL_LOAD)
#undef FOLIO_OPENSSL_LOAD
        if (!complete) return;
        table = functions;
        loaded = true;
    });
    if (!loaded) throw std::runtime_error("signing needs OpenSSL's libcrypto (libcrypto.so.3), which could not be loaded (Debian: apt install libssl3)");
    return table;
}

} // namespace folio_signing
