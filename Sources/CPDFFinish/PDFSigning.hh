// Signing a finished PDF (PAdES baseline B-B) with OpenSSL's libcrypto: see PDFSigning.cc.
#ifndef FOLIO_PDF_SIGNING_HH
#define FOLIO_PDF_SIGNING_HH

#include "folio_pdf_finish.h"

#include <cstddef>
#include <string>

namespace folio_signing {

/// How many bytes the signature dictionary's /Contents must hold: the largest CMS this signer
/// makes, with room to spare.
size_t contentsCapacity(folio_pdf_signer const &signer);

/// The signer's common name (for the signature dictionary's /Name), UTF-8; may be empty.
std::string const &signerName(folio_pdf_signer const &signer);

/// Signs the `size` bytes at `data` (a PDF) in place: they hold one signature dictionary whose /Contents is a hexadecimal
/// string that starts with `marker` (lowercase hexadecimal digits) and whose /ByteRange is an
/// array of four integers with room for ten digits each. The byte range becomes the whole file
/// but that string, and the string the detached CMS over those bytes.
/// `fileDigest` receives the SHA-256 of the whole signed file, taken with the signature's own
/// digest (the bytes before the signature are read once for both).
void signInPlace(folio_pdf_signer const &signer, char *data, size_t size, std::string const &marker, unsigned char fileDigest[32]);

} // namespace folio_signing

#endif
