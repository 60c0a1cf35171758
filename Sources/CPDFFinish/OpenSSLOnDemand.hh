// OpenSSL's libcrypto, opened with dlopen when a PDF is first signed.
//
// Only signing uses libcrypto, yet binding its 4,000 symbols cost every process start 1.4 ms. So
// nothing links it: PDFSigning.cc includes this header after OpenSSL's own, and each libcrypto
// function it calls is redefined below as a macro for the same function reached through `crypto()`,
// a table filled by dlsym on first use. The code reads as OpenSSL code; OpenSSL's own macros
// (sk_X509_num, OPENSSL_free, ASN1_ITEM_rptr) expand into these names where they are used, so they
// go through the table too. The table's types are declared from OpenSSL's headers, so a call that
// does not match OpenSSL's declaration does not compile. Include it last, and only in PDFSigning.cc.
#ifndef FOLIO_OPENSSL_ON_DEMAND_HH
#define FOLIO_OPENSSL_ON_DEMAND_HH

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/pkcs7.h>
#include <openssl/stack.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// Every libcrypto function PDFSigning.cc reaches, directly or through OpenSSL's macros.
#define FOLIO_OPENSSL_FUNCTIONS(X)                                                                                   \
    X(ASN1_STRING_set0)                                                                                              \
    X(ASN1_STRING_to_UTF8)                                                                                           \
    X(ASN1_TIME_to_tm)                                                                                               \
    X(ASN1_item_i2d)                                                                                                 \
    X(BIO_free)                                                                                                      \
    X(BIO_new_mem_buf)                                                                                               \
    X(CMS_ContentInfo_free)                                                                                          \
    X(CMS_SignerInfo_get0_signature)                                                                                 \
    X(CMS_add1_cert)                                                                                                 \
    X(CMS_add1_signer)                                                                                               \
    X(CMS_sign)                                                                                                      \
    X(CMS_signed_add1_attr_by_NID)                                                                                   \
    X(CMS_signed_get_attr)                                                                                           \
    X(CMS_signed_get_attr_count)                                                                                     \
    X(CRYPTO_free)                                                                                                   \
    X(CRYPTO_malloc)                                                                                                 \
    X(ERR_clear_error)                                                                                               \
    X(ERR_peek_last_error)                                                                                           \
    X(ERR_reason_error_string)                                                                                       \
    X(EVP_DigestFinal_ex)                                                                                            \
    X(EVP_DigestInit_ex)                                                                                             \
    X(EVP_DigestSign)                                                                                                \
    X(EVP_DigestSignInit)                                                                                            \
    X(EVP_DigestUpdate)                                                                                              \
    X(EVP_MD_CTX_copy_ex)                                                                                            \
    X(EVP_MD_CTX_free)                                                                                               \
    X(EVP_MD_CTX_new)                                                                                                \
    X(EVP_PKEY_free)                                                                                                 \
    X(EVP_PKEY_get_base_id)                                                                                          \
    X(EVP_PKEY_get_bits)                                                                                             \
    X(EVP_sha256)                                                                                                    \
    X(OBJ_nid2obj)                                                                                                   \
    X(OPENSSL_sk_free)                                                                                               \
    X(OPENSSL_sk_new_null)                                                                                           \
    X(OPENSSL_sk_num)                                                                                                \
    X(OPENSSL_sk_pop_free)                                                                                           \
    X(OPENSSL_sk_push)                                                                                               \
    X(OPENSSL_sk_value)                                                                                              \
    X(PEM_read_bio_PrivateKey)                                                                                       \
    X(PEM_read_bio_X509)                                                                                             \
    X(PKCS12_free)                                                                                                   \
    X(PKCS12_parse)                                                                                                  \
    X(PKCS7_ATTR_SIGN_it)                                                                                            \
    X(X509_NAME_ENTRY_get_data)                                                                                      \
    X(X509_NAME_get_entry)                                                                                           \
    X(X509_NAME_get_index_by_NID)                                                                                    \
    X(X509_check_private_key)                                                                                        \
    X(X509_free)                                                                                                     \
    X(X509_get0_notAfter)                                                                                            \
    X(X509_get0_notBefore)                                                                                           \
    X(X509_get_key_usage)                                                                                            \
    X(X509_get_subject_name)                                                                                         \
    X(d2i_AutoPrivateKey)                                                                                            \
    X(d2i_PKCS12)                                                                                                    \
    X(d2i_X509)                                                                                                      \
    X(i2d_CMS_ContentInfo)

namespace folio_signing {

/// libcrypto's entry points, each with the type OpenSSL declares for it.
struct OpenSSLFunctions {
#define FOLIO_OPENSSL_MEMBER(name) decltype(&::name) name = nullptr;
    FOLIO_OPENSSL_FUNCTIONS(FOLIO_OPENSSL_MEMBER)
#undef FOLIO_OPENSSL_MEMBER
};

/// libcrypto, opened on the first call (once per process, thread-safe). Throws std::runtime_error
/// when libcrypto.so.3 cannot be opened or lacks one of the functions.
OpenSSLFunctions const &crypto();

} // namespace folio_signing

// From here on, each name is the function of the same name in the table (but in OpenSSLOnDemand.cc,
// which fills the table).
#ifndef FOLIO_OPENSSL_TABLE_ONLY
#define ASN1_STRING_set0 folio_signing::crypto().ASN1_STRING_set0
#define ASN1_STRING_to_UTF8 folio_signing::crypto().ASN1_STRING_to_UTF8
#define ASN1_TIME_to_tm folio_signing::crypto().ASN1_TIME_to_tm
#define ASN1_item_i2d folio_signing::crypto().ASN1_item_i2d
#define BIO_free folio_signing::crypto().BIO_free
#define BIO_new_mem_buf folio_signing::crypto().BIO_new_mem_buf
#define CMS_ContentInfo_free folio_signing::crypto().CMS_ContentInfo_free
#define CMS_SignerInfo_get0_signature folio_signing::crypto().CMS_SignerInfo_get0_signature
#define CMS_add1_cert folio_signing::crypto().CMS_add1_cert
#define CMS_add1_signer folio_signing::crypto().CMS_add1_signer
#define CMS_sign folio_signing::crypto().CMS_sign
#define CMS_signed_add1_attr_by_NID folio_signing::crypto().CMS_signed_add1_attr_by_NID
#define CMS_signed_get_attr folio_signing::crypto().CMS_signed_get_attr
#define CMS_signed_get_attr_count folio_signing::crypto().CMS_signed_get_attr_count
#define CRYPTO_free folio_signing::crypto().CRYPTO_free
#define CRYPTO_malloc folio_signing::crypto().CRYPTO_malloc
#define ERR_clear_error folio_signing::crypto().ERR_clear_error
#define ERR_peek_last_error folio_signing::crypto().ERR_peek_last_error
#define ERR_reason_error_string folio_signing::crypto().ERR_reason_error_string
#define EVP_DigestFinal_ex folio_signing::crypto().EVP_DigestFinal_ex
#define EVP_DigestInit_ex folio_signing::crypto().EVP_DigestInit_ex
#define EVP_DigestSign folio_signing::crypto().EVP_DigestSign
#define EVP_DigestSignInit folio_signing::crypto().EVP_DigestSignInit
#define EVP_DigestUpdate folio_signing::crypto().EVP_DigestUpdate
#define EVP_MD_CTX_copy_ex folio_signing::crypto().EVP_MD_CTX_copy_ex
#define EVP_MD_CTX_free folio_signing::crypto().EVP_MD_CTX_free
#define EVP_MD_CTX_new folio_signing::crypto().EVP_MD_CTX_new
#define EVP_PKEY_free folio_signing::crypto().EVP_PKEY_free
#define EVP_PKEY_get_base_id folio_signing::crypto().EVP_PKEY_get_base_id
#define EVP_PKEY_get_bits folio_signing::crypto().EVP_PKEY_get_bits
#define EVP_sha256 folio_signing::crypto().EVP_sha256
#define OBJ_nid2obj folio_signing::crypto().OBJ_nid2obj
#define OPENSSL_sk_free folio_signing::crypto().OPENSSL_sk_free
#define OPENSSL_sk_new_null folio_signing::crypto().OPENSSL_sk_new_null
#define OPENSSL_sk_num folio_signing::crypto().OPENSSL_sk_num
#define OPENSSL_sk_pop_free folio_signing::crypto().OPENSSL_sk_pop_free
#define OPENSSL_sk_push folio_signing::crypto().OPENSSL_sk_push
#define OPENSSL_sk_value folio_signing::crypto().OPENSSL_sk_value
#define PEM_read_bio_PrivateKey folio_signing::crypto().PEM_read_bio_PrivateKey
#define PEM_read_bio_X509 folio_signing::crypto().PEM_read_bio_X509
#define PKCS12_free folio_signing::crypto().PKCS12_free
#define PKCS12_parse folio_signing::crypto().PKCS12_parse
#define PKCS7_ATTR_SIGN_it folio_signing::crypto().PKCS7_ATTR_SIGN_it
#define X509_NAME_ENTRY_get_data folio_signing::crypto().X509_NAME_ENTRY_get_data
#define X509_NAME_get_entry folio_signing::crypto().X509_NAME_get_entry
#define X509_NAME_get_index_by_NID folio_signing::crypto().X509_NAME_get_index_by_NID
#define X509_check_private_key folio_signing::crypto().X509_check_private_key
#define X509_free folio_signing::crypto().X509_free
#define X509_get0_notAfter folio_signing::crypto().X509_get0_notAfter
#define X509_get0_notBefore folio_signing::crypto().X509_get0_notBefore
#define X509_get_key_usage folio_signing::crypto().X509_get_key_usage
#define X509_get_subject_name folio_signing::crypto().X509_get_subject_name
#define d2i_AutoPrivateKey folio_signing::crypto().d2i_AutoPrivateKey
#define d2i_PKCS12 folio_signing::crypto().d2i_PKCS12
#define d2i_X509 folio_signing::crypto().d2i_X509
#define i2d_CMS_ContentInfo folio_signing::crypto().i2d_CMS_ContentInfo
#endif

#endif
