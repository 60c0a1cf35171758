// Signatures for finished PDFs with OpenSSL's libcrypto (PAdES baseline B-B, ETSI EN 319 142-1):
// a detached CMS SignedData over SHA-256 of the file's byte range, signed attributes content-type,
// message-digest and signing-certificate-v2 (OpenSSL's CMS_CADES), and no signing-time (PAdES
// puts the time in the signature dictionary's /M). Every structure is encoded by OpenSSL.
#include "PDFSigning.hh"

// OpenSSL's headers, and every libcrypto function below reached through a table opened on first use.
#include "OpenSSLOnDemand.hh"

#include <cstring>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct folio_pdf_signer {
    EVP_PKEY *key = nullptr;
    X509 *certificate = nullptr;
    STACK_OF(X509) *chain = nullptr;
    size_t contentsCapacity = 0;
    std::string name;

    ~folio_pdf_signer() {
        EVP_PKEY_free(key);
        X509_free(certificate);
        sk_X509_pop_free(chain, X509_free);
    }
};

namespace {

/// The most certificates a chain file may hold.
constexpr int largestChain = 16;

/// OpenSSL's reason for the last error, or `fallback`; clears the error queue.
std::string lastReason(char const *fallback) {
    unsigned long code = ERR_peek_last_error();
    char const *reason = code != 0 ? ERR_reason_error_string(code) : nullptr;
    ERR_clear_error();
    return reason != nullptr ? reason : fallback;
}

/// Gives OpenSSL the passphrase, and never lets it ask the terminal for one.
int passphraseCallback(char *buffer, int size, int, void *passphrase) {
    if (passphrase == nullptr || size <= 0) return -1;
    size_t length = std::strlen(static_cast<char const *>(passphrase));
    if (length > static_cast<size_t>(size)) return -1;
    std::memcpy(buffer, passphrase, length);
    return static_cast<int>(length);
}

using BIOPointer = std::unique_ptr<BIO, int (*)(BIO *)>;

BIOPointer memoryBIO(char const *text, size_t length) {
    if (length > static_cast<size_t>(INT32_MAX)) return BIOPointer(nullptr, BIO_free);
    return BIOPointer(BIO_new_mem_buf(text, static_cast<int>(length)), BIO_free);
}

/// Whether `text` is PEM (has a "-----BEGIN" line) rather than DER bytes.
bool isPEM(char const *text, size_t length) {
    return text != nullptr && std::string_view(text, length).find("-----BEGIN") != std::string_view::npos;
}

/// Every certificate in PEM `text` (or the one DER certificate it is), at most `largestChain`;
/// false when one cannot be read.
bool readCertificates(char const *text, size_t length, std::vector<X509 *> &certificates) {
    if (text != nullptr && length > 0 && !isPEM(text, length)) {
        auto const *bytes = reinterpret_cast<unsigned char const *>(text);
        X509 *certificate = length < static_cast<size_t>(INT32_MAX) ? d2i_X509(nullptr, &bytes, static_cast<long>(length)) : nullptr;
        ERR_clear_error();
        if (certificate == nullptr) return false;
        certificates.push_back(certificate);
        return true;
    }
    BIOPointer bio = memoryBIO(text, length);
    if (!bio) return false;
    while (true) {
        X509 *certificate = PEM_read_bio_X509(bio.get(), nullptr, passphraseCallback, nullptr);
        if (certificate == nullptr) {
            unsigned long code = ERR_peek_last_error();
            bool end = ERR_GET_LIB(code) == ERR_LIB_PEM && ERR_GET_REASON(code) == PEM_R_NO_START_LINE;
            ERR_clear_error();
            return end && !certificates.empty();
        }
        if (certificates.size() >= largestChain) {
            X509_free(certificate);
            return false;
        }
        certificates.push_back(certificate);
    }
}

/// The DER of a detached CMS SignedData whose message digest is `digest` (SHA-256).
std::string signedData(folio_pdf_signer const &signer, unsigned char const *digest) {
    std::unique_ptr<CMS_ContentInfo, void (*)(CMS_ContentInfo *)> cms(
        CMS_sign(nullptr, nullptr, nullptr, nullptr, CMS_PARTIAL | CMS_DETACHED | CMS_BINARY), CMS_ContentInfo_free);
    if (!cms) throw std::runtime_error("signing: " + lastReason("cannot make a CMS structure"));
    for (int index = 0; index < sk_X509_num(signer.chain); ++index) {
        if (CMS_add1_cert(cms.get(), sk_X509_value(signer.chain, index)) <= 0) ERR_clear_error();
    }
    // No S/MIME capabilities (PAdES wants no attributes it does not name); CMS_CADES adds the
    // signing-certificate-v2 attribute (the certificate's SHA-256 and issuer and serial).
    CMS_SignerInfo *info =
        CMS_add1_signer(cms.get(), signer.certificate, signer.key, EVP_sha256(), CMS_NOSMIMECAP | CMS_CADES | CMS_BINARY);
    if (info == nullptr) throw std::runtime_error("signing: " + lastReason("cannot add the signer"));
    if (CMS_signed_add1_attr_by_NID(info, NID_pkcs9_contentType, V_ASN1_OBJECT, OBJ_nid2obj(NID_pkcs7_data), -1) <= 0 ||
        CMS_signed_add1_attr_by_NID(info, NID_pkcs9_messageDigest, V_ASN1_OCTET_STRING, digest, 32) <= 0) {
        throw std::runtime_error("signing: " + lastReason("cannot add the signed attributes"));
    }
    // The signature is over the DER of the signed attributes as a SET OF (sorted); OpenSSL's
    // CMS_SignerInfo_sign would add a signing-time attribute, so the attributes are encoded with
    // PKCS #7's identical SET OF template and signed here.
    auto freeStack = [](STACK_OF(X509_ATTRIBUTE) * stack) { sk_X509_ATTRIBUTE_free(stack); };
    std::unique_ptr<STACK_OF(X509_ATTRIBUTE), decltype(freeStack)> attributes(sk_X509_ATTRIBUTE_new_null(), freeStack);
    if (!attributes) throw std::runtime_error("signing: out of memory");
    for (int index = 0; index < CMS_signed_get_attr_count(info); ++index) {
        if (sk_X509_ATTRIBUTE_push(attributes.get(), CMS_signed_get_attr(info, index)) <= 0) {
            throw std::runtime_error("signing: out of memory");
        }
    }
    unsigned char *encoded = nullptr;
    int encodedLength = ASN1_item_i2d(reinterpret_cast<ASN1_VALUE *>(attributes.get()), &encoded, ASN1_ITEM_rptr(PKCS7_ATTR_SIGN));
    if (encodedLength <= 0 || encoded == nullptr) throw std::runtime_error("signing: " + lastReason("cannot encode the signed attributes"));
    std::unique_ptr<unsigned char, void (*)(unsigned char *)> encodedOwner(encoded, [](unsigned char *bytes) { OPENSSL_free(bytes); });
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX *)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    size_t signatureLength = 0;
    if (!context || EVP_DigestSignInit(context.get(), nullptr, EVP_sha256(), nullptr, signer.key) <= 0 ||
        EVP_DigestSign(context.get(), nullptr, &signatureLength, encoded, static_cast<size_t>(encodedLength)) <= 0) {
        throw std::runtime_error("signing: " + lastReason("cannot sign"));
    }
    auto *signature = static_cast<unsigned char *>(OPENSSL_malloc(signatureLength));
    if (signature == nullptr) throw std::runtime_error("signing: out of memory");
    if (EVP_DigestSign(context.get(), signature, &signatureLength, encoded, static_cast<size_t>(encodedLength)) <= 0) {
        OPENSSL_free(signature);
        throw std::runtime_error("signing: " + lastReason("cannot sign"));
    }
    ASN1_STRING_set0(CMS_SignerInfo_get0_signature(info), signature, static_cast<int>(signatureLength));
    unsigned char *der = nullptr;
    int derLength = i2d_CMS_ContentInfo(cms.get(), &der);
    if (derLength <= 0 || der == nullptr) throw std::runtime_error("signing: " + lastReason("cannot encode the signature"));
    std::string out(reinterpret_cast<char const *>(der), static_cast<size_t>(derLength));
    OPENSSL_free(der);
    return out;
}

/// Seconds since 1970 of an ASN.1 time (0 when it cannot be read).
long long secondsOf(ASN1_TIME const *time) {
    struct tm parts {};
    if (time == nullptr || ASN1_TIME_to_tm(time, &parts) != 1) return 0;
    return static_cast<long long>(timegm(&parts));
}

void copyMessage(std::string const &text, char *message, size_t capacity) {
    if (message == nullptr || capacity == 0) return;
    size_t count = text.size() < capacity - 1 ? text.size() : capacity - 1;
    std::memcpy(message, text.data(), count);
    message[count] = '\0';
}

} // namespace

namespace folio_signing {

size_t contentsCapacity(folio_pdf_signer const &signer) { return signer.contentsCapacity; }

std::string const &signerName(folio_pdf_signer const &signer) { return signer.name; }

void signInPlace(folio_pdf_signer const &signer, char *data, size_t size, std::string const &marker, unsigned char fileDigest[32]) {
    std::string_view pdf(data, size);
    size_t contentsStart = pdf.find("<" + marker);
    if (contentsStart == std::string::npos) throw std::runtime_error("signing: the signature's placeholder is not in the file");
    size_t contentsClose = pdf.find('>', contentsStart);
    if (contentsClose == std::string::npos) throw std::runtime_error("signing: the signature's placeholder is cut short");
    size_t contentsEnd = contentsClose + 1;
    size_t rangeKey = pdf.rfind("/ByteRange", contentsStart);
    size_t rangeOpen = rangeKey == std::string::npos ? std::string::npos : pdf.find('[', rangeKey);
    size_t rangeClose = rangeOpen == std::string::npos ? std::string::npos : pdf.find(']', rangeOpen);
    if (rangeKey == std::string::npos || contentsStart - rangeKey > 4096 || rangeClose == std::string::npos ||
        rangeClose > contentsStart || pdf.find("endobj", rangeKey) < contentsStart) {
        throw std::runtime_error("signing: the signature's byte range is not before its contents");
    }
    size_t after = pdf.size() - contentsEnd;
    std::string range = "[0 " + std::to_string(contentsStart) + " " + std::to_string(contentsEnd) + " " + std::to_string(after);
    size_t room = rangeClose - rangeOpen;
    if (range.size() > room) throw std::runtime_error("signing: the signature's byte range has no room");
    range.append(room - range.size(), ' ');
    range += ']';
    std::memcpy(data + rangeOpen, range.data(), range.size());

    // The bytes before /Contents are hashed once: a copy of that state goes on over the whole file
    // once the signature is written.
    unsigned char digest[32];
    unsigned int digestLength = 0;
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX *)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX *)> file(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    if (!context || !file || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1 ||
        EVP_DigestUpdate(context.get(), pdf.data(), contentsStart) != 1 || EVP_MD_CTX_copy_ex(file.get(), context.get()) != 1 ||
        EVP_DigestUpdate(context.get(), pdf.data() + contentsEnd, after) != 1 ||
        EVP_DigestFinal_ex(context.get(), digest, &digestLength) != 1 || digestLength != 32) {
        throw std::runtime_error("signing: " + lastReason("cannot hash the file"));
    }
    std::string der = signedData(signer, digest);
    size_t digits = contentsClose - contentsStart - 1;
    if (der.size() * 2 > digits) throw std::runtime_error("signing: the signature is larger than the room kept for it");
    static char const hex[] = "0123456789abcdef";
    char *out = data + contentsStart + 1;
    for (unsigned char byte : der) {
        *out++ = hex[byte >> 4];
        *out++ = hex[byte & 15];
    }
    std::memset(out, '0', digits - der.size() * 2);
    unsigned int fileDigestLength = 0;
    if (EVP_DigestUpdate(file.get(), pdf.data() + contentsStart, size - contentsStart) != 1 ||
        EVP_DigestFinal_ex(file.get(), fileDigest, &fileDigestLength) != 1 || fileDigestLength != 32) {
        throw std::runtime_error("signing: " + lastReason("cannot hash the file"));
    }
}

} // namespace folio_signing

extern "C" folio_pdf_signer *folio_pdf_signer_create(
    const char *key_pem, size_t key_length, const char *certificate_pem, size_t certificate_length, const char *chain_pem,
    size_t chain_length, const char *passphrase, folio_pdf_signer_problem *problem, char *message, size_t message_capacity) {
    auto fail = [&](folio_pdf_signer_problem kind, std::string const &reason) -> folio_pdf_signer * {
        if (problem != nullptr) *problem = kind;
        copyMessage(reason, message, message_capacity);
        return nullptr;
    };
    try {
        ERR_clear_error();
        auto signer = std::make_unique<folio_pdf_signer>();
        // A PKCS #12 bundle (key, certificate and chain in one file) gives what --sign-cert and
        // --sign-chain would.
        std::vector<X509 *> bundled;
        if (key_pem != nullptr && key_length > 0 && !isPEM(key_pem, key_length)) {
            auto const *bytes = reinterpret_cast<unsigned char const *>(key_pem);
            PKCS12 *bundle = key_length < static_cast<size_t>(INT32_MAX) ? d2i_PKCS12(nullptr, &bytes, static_cast<long>(key_length)) : nullptr;
            if (bundle != nullptr) {
                X509 *certificate = nullptr;
                STACK_OF(X509) *authorities = nullptr;
                int opened = PKCS12_parse(bundle, passphrase != nullptr ? passphrase : "", &signer->key, &certificate, &authorities);
                PKCS12_free(bundle);
                if (opened != 1) {
                    std::string reason = lastReason("it cannot be opened");
                    return fail(
                        FOLIO_SIGNER_BAD_KEY,
                        "cannot open the PKCS #12 bundle: " +
                            (reason == "unsupported" ? std::string("it uses a legacy cipher (re-export it with openssl pkcs12 -export)")
                             : passphrase == nullptr ? std::string("give its passphrase in FOLIO_SIGN_PASSPHRASE")
                                                     : std::string("the passphrase in FOLIO_SIGN_PASSPHRASE does not open it")));
                }
                if (certificate != nullptr) bundled.push_back(certificate);
                for (int index = 0; index < sk_X509_num(authorities); ++index) bundled.push_back(sk_X509_value(authorities, index));
                sk_X509_free(authorities);
            } else {
                bytes = reinterpret_cast<unsigned char const *>(key_pem);
                signer->key = key_length < static_cast<size_t>(INT32_MAX) ? d2i_AutoPrivateKey(nullptr, &bytes, static_cast<long>(key_length)) : nullptr;
                if (signer->key == nullptr) {
                    ERR_clear_error();
                    return fail(FOLIO_SIGNER_BAD_KEY, "cannot read the private key: not a PEM or DER private key nor a PKCS #12 bundle");
                }
            }
        } else {
            BIOPointer keyBIO = memoryBIO(key_pem, key_length);
            if (keyBIO) {
                signer->key = PEM_read_bio_PrivateKey(keyBIO.get(), nullptr, passphraseCallback, const_cast<char *>(passphrase));
            }
        }
        if (signer->key == nullptr) {
            for (X509 *certificate : bundled) X509_free(certificate);
            std::string reason = lastReason("not a PEM private key");
            std::string_view text(key_pem != nullptr ? key_pem : "", key_pem != nullptr ? key_length : 0);
            if (text.find("PRIVATE KEY-----") == std::string_view::npos) {
                reason = "the file holds no private key";
            } else if (text.find("ENCRYPTED") != std::string_view::npos) {
                reason = passphrase == nullptr ? "the key is encrypted: give its passphrase in FOLIO_SIGN_PASSPHRASE"
                                               : "the passphrase in FOLIO_SIGN_PASSPHRASE does not decrypt it";
            }
            return fail(FOLIO_SIGNER_BAD_KEY, "cannot read the private key: " + reason);
        }
        int type = EVP_PKEY_get_base_id(signer->key);
        if (type != EVP_PKEY_RSA && type != EVP_PKEY_EC) {
            return fail(FOLIO_SIGNER_BAD_KEY, "the private key must be an RSA or an elliptic-curve (ECDSA) key");
        }
        if (type == EVP_PKEY_RSA && EVP_PKEY_get_bits(signer->key) < 2048) {
            return fail(FOLIO_SIGNER_BAD_KEY, "an RSA key must have at least 2048 bits");
        }
        std::vector<X509 *> certificates;
        if (certificate_pem != nullptr && certificate_length > 0) {
            if (!readCertificates(certificate_pem, certificate_length, certificates)) {
                for (X509 *certificate : certificates) X509_free(certificate);
                for (X509 *certificate : bundled) X509_free(certificate);
                return fail(FOLIO_SIGNER_BAD_CERTIFICATE, "cannot read the certificate: not PEM or DER certificates (at most 16)");
            }
            // A certificate given beside a bundle replaces the bundle's; its chain stays.
            if (!bundled.empty()) {
                X509_free(bundled.front());
                bundled.erase(bundled.begin());
            }
        }
        certificates.insert(certificates.end(), bundled.begin(), bundled.end());
        if (certificates.empty()) {
            return fail(FOLIO_SIGNER_BAD_CERTIFICATE, "missing: the key file holds no certificate; give it with --sign-cert, or sign with a PKCS #12 bundle that holds it");
        }
        // The first certificate signs; more in the same file (a "full chain" file) are its chain.
        signer->certificate = certificates.front();
        signer->chain = sk_X509_new_null();
        if (signer->chain == nullptr) throw std::bad_alloc();
        for (size_t index = 1; index < certificates.size(); ++index) sk_X509_push(signer->chain, certificates[index]);
        if (chain_pem != nullptr && chain_length > 0) {
            std::vector<X509 *> chain;
            if (!readCertificates(chain_pem, chain_length, chain)) {
                for (X509 *certificate : chain) X509_free(certificate);
                return fail(FOLIO_SIGNER_BAD_CHAIN, "cannot read the chain: not PEM or DER certificates (at most 16)");
            }
            for (X509 *certificate : chain) sk_X509_push(signer->chain, certificate);
        }
        if (X509_check_private_key(signer->certificate, signer->key) != 1) {
            ERR_clear_error();
            return fail(FOLIO_SIGNER_KEY_MISMATCH, "the private key does not belong to the certificate");
        }
        uint32_t usage = X509_get_key_usage(signer->certificate);
        if (usage != UINT32_MAX && (usage & (KU_DIGITAL_SIGNATURE | KU_NON_REPUDIATION)) == 0) {
            return fail(FOLIO_SIGNER_USAGE, "the certificate's key usage allows neither digitalSignature nor nonRepudiation");
        }
        X509_NAME *subject = X509_get_subject_name(signer->certificate);
        int entry = subject != nullptr ? X509_NAME_get_index_by_NID(subject, NID_commonName, -1) : -1;
        if (entry >= 0) {
            unsigned char *utf8 = nullptr;
            int length = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, entry)));
            if (length > 0 && utf8 != nullptr) signer->name.assign(reinterpret_cast<char const *>(utf8), static_cast<size_t>(length));
            OPENSSL_free(utf8);
        }
        // A signature of nothing, to know the key signs and how large a signature is: an ECDSA
        // signature's length varies by a few bytes, so there is room to spare.
        unsigned char digest[32] = {};
        signer->contentsCapacity = signedData(*signer, digest).size() + 64;
        if (problem != nullptr) *problem = FOLIO_SIGNER_OK;
        return signer.release();
    } catch (std::exception const &error) {
        return fail(FOLIO_SIGNER_FAILED, error.what());
    }
}

extern "C" void folio_pdf_signer_describe(
    const folio_pdf_signer *signer, long long *not_before, long long *not_after, char *name, size_t name_capacity) {
    if (signer == nullptr) return;
    if (not_before != nullptr) *not_before = secondsOf(X509_get0_notBefore(signer->certificate));
    if (not_after != nullptr) *not_after = secondsOf(X509_get0_notAfter(signer->certificate));
    copyMessage(signer->name, name, name_capacity);
}

extern "C" void folio_pdf_signer_free(folio_pdf_signer *signer) { delete signer; }
