// Files written again by qpdf: a plain copy, the encrypted file.
#ifndef FOLIO_QPDF_REWRITING_HH
#define FOLIO_QPDF_REWRITING_HH

// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif
#include "Finishing.hh"

#include <qpdf/Buffer.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFWriter.hh>

#include <memory>
#include <string>

namespace folio_finish {

/// What `writer` writes, to memory, without object streams and with every stream as it is.
inline std::string writtenPlainly(QPDFWriter &writer) {
    writer.setOutputMemory();
    writer.setObjectStreamMode(qpdf_o_disable);
    writer.setStreamDataMode(qpdf_s_preserve);
    writer.setDecodeLevel(qpdf_dl_none);
    writer.write();
    std::shared_ptr<Buffer> buffer = writer.getBufferSharedPointer();
    return std::string(reinterpret_cast<char const *>(buffer->getBuffer()), buffer->getSize());
}

/// `document` written by qpdf with every object at generation 0 outside object streams: a file
/// `FileAssembler` can copy object by object.
inline std::string plainCopy(QPDF &document) {
    QPDFWriter writer(document);
    writer.setDeterministicID(true);
    return writtenPlainly(writer);
}

/// The finished file encrypted with AES-256 (security handler revision 6) as `finishing` asks.
/// Accessibility extraction stays allowed (PDF/UA); metadata is encrypted too; a signature's
/// /Contents is left as it is (qpdf never encrypts it). qpdf cannot combine a deterministic /ID with
/// encryption: the ID is random.
inline std::string encrypted(char const *finished, size_t size, Finishing const &finishing) {
    QPDF document;
    document.setSuppressWarnings(true);
    document.processMemoryFile("finished PDF", finished, size);
    QPDFWriter writer(document);
    writer.setR6EncryptionParameters(
        finishing.userPassword.value_or("").c_str(), finishing.ownerPassword.c_str(), true, finishing.allowCopy,
        finishing.allowModify, finishing.allowAnnotate, finishing.allowAnnotate, finishing.allowModify,
        finishing.allowPrint ? qpdf_r3p_full : qpdf_r3p_none, true);
    return writtenPlainly(writer);
}

} // namespace folio_finish

#endif
