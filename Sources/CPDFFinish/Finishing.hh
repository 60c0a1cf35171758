// What the finishing step was asked for, copied from `folio_pdf_finishing`.
#ifndef FOLIO_FINISHING_HH
#define FOLIO_FINISHING_HH

// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif
#include "folio_pdf_finish.h"

#include <array>
#include <optional>
#include <vector>
#include <stdexcept>
#include <string>

namespace folio_finish {

/// A file carried inside the PDF (`folio_pdf_attachment`), copied.
struct AttachedFile {
    std::string name;
    std::string mimeType;
    std::string relationship;
    std::string description;
    std::string date;
    std::array<unsigned char, 16> checksum{};
    std::string bytes;
};

/// What `folio_pdf_finishing` asks for, copied: an assembly outlives the caller's strings.
struct Finishing {
    std::string language;
    std::optional<std::string> xmp;
    bool tagged = false;
    std::optional<std::string> iccProfile;
    std::string outputCondition;
    std::optional<std::string> userPassword;
    std::string ownerPassword;
    bool allowPrint = false;
    bool allowCopy = false;
    bool allowModify = false;
    bool allowAnnotate = false;
    folio_pdf_signer const *signer = nullptr;
    long long signingTime = 0;
    std::string signatureDescription;
    void (*identify)(void *, unsigned char const *, size_t, unsigned char[16]) = nullptr;
    void *identifyContext = nullptr;
    /// Where the finished file is written as it is made (-1: kept in memory), and who is given its bytes.
    int outputFD = -1;
    void (*absorb)(void *, unsigned char const *, size_t) = nullptr;
    std::vector<AttachedFile> attachments;

    explicit Finishing(folio_pdf_finishing const &given) {
        auto text = [](char const *value) { return value != nullptr ? std::string(value) : std::string(); };
        language = text(given.language);
        if (given.xmp != nullptr) xmp = std::string(given.xmp, given.xmp_length);
        tagged = given.tagged != 0;
        if (given.icc_profile != nullptr) {
            iccProfile = std::string(reinterpret_cast<char const *>(given.icc_profile), given.icc_profile_length);
        }
        outputCondition = given.output_condition != nullptr ? given.output_condition : "sRGB";
        if (given.user_password != nullptr) userPassword = std::string(given.user_password);
        ownerPassword = text(given.owner_password);
        allowPrint = given.allow_print != 0;
        allowCopy = given.allow_copy != 0;
        allowModify = given.allow_modify != 0;
        allowAnnotate = given.allow_annotate != 0;
        signer = given.signer;
        signingTime = given.signing_time;
        signatureDescription = given.signature_description != nullptr ? given.signature_description : "Digital signature";
        identify = given.identify;
        identifyContext = given.identify_context;
        if (identify == nullptr) throw std::invalid_argument("the finishing step needs a digest for the file identifier");
        for (size_t index = 0; index < given.attachment_count && given.attachments != nullptr; ++index) {
            folio_pdf_attachment const &file = given.attachments[index];
            AttachedFile copy;
            copy.name = text(file.name);
            copy.mimeType = text(file.mime_type);
            copy.relationship = text(file.relationship);
            copy.description = text(file.description);
            copy.date = text(file.date);
            std::copy(file.checksum, file.checksum + 16, copy.checksum.begin());
            if (file.bytes != nullptr) copy.bytes.assign(reinterpret_cast<char const *>(file.bytes), file.length);
            attachments.push_back(std::move(copy));
        }
        outputFD = given.output_fd;
        absorb = given.absorb;
        if (outputFD >= 0 && (userPassword || signer != nullptr || absorb == nullptr)) {
            throw std::invalid_argument("an encrypted or signed file, or one without a digest, cannot be written as it is made");
        }
    }
};

} // namespace folio_finish

#endif
