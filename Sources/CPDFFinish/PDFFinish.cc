// Folio's PDF finishing step on libqpdf: see include/folio_pdf_finish.h.
// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#define POINTERHOLDER_TRANSITION 4
#include "folio_pdf_finish.h"
#include "PDFObjectText.hh"
#include "PDFSigning.hh"

#include <libdeflate.h>
#include <qpdf/Buffer.hh>
#include <qpdf/Pl_Buffer.hh>
#include <qpdf/Pl_Flate.hh>
#include <qpdf/QPDFCryptoProvider.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFWriter.hh>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

/// A finished PDF's bytes. It grows with realloc, which moves a large block by remapping its pages
/// (glibc uses mremap), so a long document's file is never held twice while it grows.
struct folio_pdf_output {
    char *data = nullptr;
    size_t size = 0;
    size_t capacity = 0;

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

namespace {

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

    std::string compress(std::string const &data) {
        std::string out(libdeflate_zlib_compress_bound(compressor, data.size()), '\0');
        size_t size = libdeflate_zlib_compress(compressor, data.data(), data.size(), out.data(), out.size());
        if (size == 0) throw std::runtime_error("libdeflate could not compress page content");
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

/// Writes the finished file from Cairo's output and the objects the finishing step changed.

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
    }
};

/// `value` as a PDF number: at most four decimals, without trailing zeros ("0", "791.8898").
std::string pdfNumber(double value) {
    if (!(value > -1e9 && value < 1e9)) value = 0;
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", value);
    std::string number = text;
    while (!number.empty() && number.back() == '0') number.pop_back();
    if (!number.empty() && number.back() == '.') number.pop_back();
    return number == "-0" ? "0" : number;
}

/// `text` as a PDF string (UTF-16 with a byte-order mark when it is not plain ASCII).
std::string pdfText(std::string const &text) { return QPDFObjectHandle::newUnicodeString(text).unparse(); }


/// What `writer` writes, to memory, without object streams and with every stream as it is.
std::string writtenPlainly(QPDFWriter &writer) {
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
std::string plainCopy(QPDF &document) {
    QPDFWriter writer(document);
    writer.setDeterministicID(true);
    return writtenPlainly(writer);
}

/// The finished file encrypted with AES-256 (security handler revision 6) as `finishing` asks.
/// Accessibility extraction stays allowed (PDF/UA); metadata is encrypted too; a signature's
/// /Contents is left as it is (qpdf never encrypts it). qpdf cannot combine a deterministic /ID with
/// encryption: the ID is random.
std::string encrypted(char const *finished, size_t size, Finishing const &finishing) {
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

void copyMessage(std::string const &text, char *message, size_t capacity) {
    if (message == nullptr || capacity == 0) return;
    std::string line = text.substr(0, text.find('\n'));
    size_t count = line.size() < capacity - 1 ? line.size() : capacity - 1;
    std::memcpy(message, line.data(), count);
    message[count] = '\0';
}

/// The finished file, written as the parts arrive: each part's objects with their numbers in the
/// whole file, then, at the end, the objects of the whole document (page tree, structure tree
/// root, parent tree, bookmarks, named destinations, page labels, metadata, catalog) and a
/// cross-reference stream. Objects other than streams are packed into compressed object streams.
class DocumentWriter {
  public:
    explicit DocumentWriter(Finishing const &finishing) : finishing(finishing) {
        pagesRoot = allocate();
        structureRoot = allocate();
        // A signature's Form element takes the first key of the parent tree (its parts come later).
        if (finishing.signer != nullptr && finishing.tagged) {
            signatureKey = 0;
            nextKey = 1;
        }
    }

    /// The next free object number of the finished file.
    int allocate() { return nextNumber++; }

    /// The bytes before the first object (the `%PDF-` line), from the first part.
    void header(std::string_view text) {
        if (started) return;
        output.append(text);
        started = true;
    }

    /// Object `number` with `body` (its text between `obj` and `endobj`, numbered as the finished file is).
    /// An object that is not a stream goes into an object stream, compressed with its neighbours
    /// (a tagged document's structure elements are most of its file, and compress ten times),
    /// unless it must be found in the file's bytes (`keepPlain`). A body that mentions `endstream`
    /// is taken for a stream.
    void write(int number, std::string_view body) {
        bool plain = body.find("endstream") != std::string_view::npos ||
                     (static_cast<size_t>(number) < keptPlain.size() && keptPlain[static_cast<size_t>(number)] != 0);
        if (plain) {
            writePlain(number, body);
            return;
        }
        if (number <= 0 || number >= nextNumber) throw std::logic_error("an object number that was not allocated");
        pendingIndex += std::to_string(number) + " " + std::to_string(pendingObjects.size()) + " ";
        pendingObjects.append(body);
        pendingObjects += '\n';
        pendingNumbers.push_back(number);
        if (pendingNumbers.size() >= 512 || pendingObjects.size() >= 512 * 1024) flushObjectStream();
    }

    /// Object `number` is written as an object of its own, never in an object stream (the
    /// signature dictionary, whose bytes the signature's byte range is found in).
    void keepPlain(int number) {
        if (number <= 0) return;
        if (keptPlain.size() <= static_cast<size_t>(number)) keptPlain.resize(static_cast<size_t>(number) + 1, 0);
        keptPlain[static_cast<size_t>(number)] = 1;
    }

    /// Object `number` with `body` numbered as one part is: each reference's number is looked up in `numbers`.
    void writeRenumbered(int number, std::string_view body, std::vector<int> const &numbers) {
        scratch.clear();
        folio_text::appendRenumbered(scratch, body, numbers);
        write(number, scratch);
    }

    /// A leaf of the parent tree with `entries` (keys in increasing order).
    void addParentTreeLeaf(std::vector<std::pair<long long, std::string>> const &entries) {
        if (entries.empty()) return;
        std::string nums;
        for (auto const &[key, value] : entries) nums += " " + std::to_string(key) + " " + value;
        int number = allocate();
        long long low = entries.front().first;
        long long high = entries.back().first;
        write(number, "<< /Limits [ " + std::to_string(low) + " " + std::to_string(high) + " ] /Nums [" + nums + " ] >>");
        parentTreeLeaves.emplace_back(low, high, number);
    }

    /// The finished file: the document-wide objects, the cross-reference table and the trailer,
    /// then encryption and the signature as asked.
    std::unique_ptr<folio_pdf_output> finish(folio_pdf_outline const *outlines, size_t outlineCount) {
        if (!started || pages.empty()) throw std::runtime_error("the document has no page");
        std::string kids;
        for (int page : pages) kids += " " + folio_text::reference(page);
        write(pagesRoot, "<< /Type /Pages /Kids [" + kids + " ] /Count " + std::to_string(pages.size()) + " >>");
        std::string catalog = "<< /Type /Catalog /Pages " + folio_text::reference(pagesRoot);
        if (structured) {
            if (signatureElement != 0) topLevelKids.push_back(folio_text::reference(signatureElement));
            if (signatureElement != 0 && signatureKey >= 0) {
                int number = allocate();
                write(number, "<< /Limits [ 0 0 ] /Nums [ 0 " + folio_text::reference(signatureElement) + " ] >>");
                parentTreeLeaves.emplace_back(signatureKey, signatureKey, number);
            }
            std::sort(parentTreeLeaves.begin(), parentTreeLeaves.end());
            std::string leaves;
            for (auto const &leaf : parentTreeLeaves) leaves += " " + folio_text::reference(std::get<2>(leaf));
            int parentTree = allocate();
            write(parentTree, "<< /Kids [" + leaves + " ] >>");
            std::string elements;
            for (auto const &kid : topLevelKids) elements += " " + kid;
            write(structureRoot, "<< /Type /StructTreeRoot /K [" + elements + " ] /ParentTree " + folio_text::reference(parentTree) +
                                     " /ParentTreeNextKey " + std::to_string(nextKey) + " >>");
            catalog += " /StructTreeRoot " + folio_text::reference(structureRoot);
        }
        if (outlineCount > 0) catalog += " /Outlines " + folio_text::reference(writeOutlines(outlines, outlineCount));
        if (!destinations.empty()) catalog += " /Names << /Dests " + folio_text::reference(writeDestinations()) + " >>";
        if (!pageLabels.empty()) {
            std::string nums;
            for (auto const &[page, label] : pageLabels) nums += " " + std::to_string(page) + " " + label;
            catalog += " /PageLabels << /Nums [" + nums + " ] >>";
        }
        if (!finishing.language.empty()) catalog += " /Lang " + pdfText(finishing.language);
        if (finishing.tagged) catalog += " /MarkInfo << /Marked true >>";
        catalog += " /ViewerPreferences << /DisplayDocTitle true >>";
        if (finishing.xmp) {
            int number = allocate();
            write(number, "<< /Type /Metadata /Subtype /XML /Length " + std::to_string(finishing.xmp->size()) + " >>\nstream\n" +
                              *finishing.xmp + "\nendstream");
            catalog += " /Metadata " + folio_text::reference(number);
        }
        if (finishing.iccProfile) {
            std::string compressed = deflate.compress(*finishing.iccProfile);
            int profile = allocate();
            write(profile, "<< /N 3 /Length " + std::to_string(compressed.size()) + " /Filter /FlateDecode >>\nstream\n" + compressed +
                               "\nendstream");
            int intent = allocate();
            write(intent, "<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier " + pdfText(finishing.outputCondition) +
                              " /Info " + pdfText(finishing.outputCondition) + " /DestOutputProfile " + folio_text::reference(profile) +
                              " >>");
            catalog += " /OutputIntents [ " + folio_text::reference(intent) + " ]";
        }
        if (signatureField != 0) {
            catalog += " /AcroForm << /Fields [ " + folio_text::reference(signatureField) + " ] /SigFlags 3 >>";
        }
        int root = allocate();
        write(root, catalog + " >>");
        writeTrailer(root);
        auto finished = std::make_unique<folio_pdf_output>();
        std::swap(finished->data, output.data);
        std::swap(finished->size, output.size);
        std::swap(finished->capacity, output.capacity);
        // Encryption changes every string and stream: the finished file is written again by qpdf.
        if (finishing.userPassword) finished->assign(encrypted(finished->data, finished->size, finishing));
        if (finishing.signer != nullptr) folio_signing::signInPlace(*finishing.signer, finished->data, finished->size, signatureMarker);
        return finished;
    }

    Finishing const &finishing;
    /// The page tree's root and the structure tree's root (written at the end).
    int pagesRoot = 0;
    int structureRoot = 0;
    /// Every page, in order.
    std::vector<int> pages;
    /// Whether any part has a structure tree, and its top-level elements ("12 0 R"), in order.
    bool structured = false;
    std::vector<std::string> topLevelKids;
    /// The next free key of the parent tree.
    long long nextKey = 0;
    /// Named destinations (the name's bytes, the destination) and page labels (from page, label dictionary).
    std::vector<std::pair<std::string, std::string>> destinations;
    std::vector<std::pair<long long, std::string>> pageLabels;
    /// The first part's document information dictionary.
    int info = 0;
    /// The signature's field, its Form element and its parent-tree key, and the marker of its placeholder.
    int signatureField = 0;
    int signatureElement = 0;
    long long signatureKey = -1;
    std::string signatureMarker;
    /// The compressor for page content, also used to read it.
    Deflate deflate;

  private:
    folio_pdf_output output;
    bool started = false;
    int nextNumber = 1;
    /// Where each object starts in `output`, by number (0: not written).
    std::vector<size_t> positions;
    std::vector<std::tuple<long long, long long, int>> parentTreeLeaves;
    std::string scratch;
    /// The object stream being filled: its objects' numbers, its index ("number offset …") and its objects.
    std::vector<int> pendingNumbers;
    std::string pendingIndex;
    std::string pendingObjects;
    /// For each object in an object stream, the stream's number and the object's index in it.
    std::vector<std::pair<int, int>> inStream;
    /// Objects that must not go into an object stream (1), by number.
    std::vector<unsigned char> keptPlain;

    /// `number 0 obj … endobj` in the file.
    void writePlain(int number, std::string_view body) {
        record(number);
        output.append(std::to_string(number));
        output.append(" 0 obj\n");
        output.append(body);
        output.append("\nendobj\n");
    }

    /// Writes the pending objects as one compressed object stream (ISO 32000-1, 7.5.7).
    void flushObjectStream() {
        if (pendingNumbers.empty()) return;
        int stream = allocate();
        std::string data = pendingIndex + pendingObjects;
        std::string packed = deflate.compress(data);
        writePlain(stream, "<< /Type /ObjStm /N " + std::to_string(pendingNumbers.size()) + " /First " +
                               std::to_string(pendingIndex.size()) + " /Length " + std::to_string(packed.size()) +
                               " /Filter /FlateDecode >>\nstream\n" + packed + "\nendstream");
        if (inStream.size() < static_cast<size_t>(nextNumber)) inStream.resize(static_cast<size_t>(nextNumber) + 1024, {0, 0});
        for (size_t index = 0; index < pendingNumbers.size(); ++index) {
            inStream[static_cast<size_t>(pendingNumbers[index])] = {stream, static_cast<int>(index)};
        }
        pendingNumbers.clear();
        pendingIndex.clear();
        pendingObjects.clear();
    }

    void record(int number) {
        if (!started) throw std::logic_error("an object before the file's header");
        if (number <= 0 || number >= nextNumber) throw std::logic_error("an object number that was not allocated");
        if (positions.size() < static_cast<size_t>(nextNumber)) positions.resize(static_cast<size_t>(nextNumber) + 1024, 0);
        positions[static_cast<size_t>(number)] = output.size;
    }

    /// The bookmarks as an outline tree, closed (as Cairo writes them): the number of its root.
    int writeOutlines(folio_pdf_outline const *outlines, size_t count) {
        struct Item {
            int number;
            int parent;  // index, or -1 for the root
            std::vector<size_t> kids;
        };
        std::vector<Item> items(count);
        std::vector<size_t> roots;
        std::vector<int> lastAtLevel;  // the last item at each level (-1: the root)
        for (size_t index = 0; index < count; ++index) {
            size_t level = static_cast<size_t>(std::max(outlines[index].level, 0));
            int parent = level == 0 || lastAtLevel.empty() ? -1 : lastAtLevel[std::min(level, lastAtLevel.size()) - 1];
            if (lastAtLevel.size() > level) lastAtLevel.resize(level);
            while (lastAtLevel.size() < level) lastAtLevel.push_back(lastAtLevel.empty() ? -1 : lastAtLevel.back());
            lastAtLevel.push_back(static_cast<int>(index));
            items[index].number = allocate();
            items[index].parent = parent;
            if (parent < 0) roots.push_back(index);
            else items[static_cast<size_t>(parent)].kids.push_back(index);
        }
        int root = allocate();
        auto siblings = [&](std::vector<size_t> const &list, int parentNumber) {
            for (size_t position = 0; position < list.size(); ++position) {
                size_t index = list[position];
                folio_pdf_outline const &outline = outlines[index];
                Item const &item = items[index];
                std::string text = "<< /Title " + pdfText(outline.title != nullptr ? outline.title : "") + " /Parent " +
                                   folio_text::reference(parentNumber);
                if (position > 0) text += " /Prev " + folio_text::reference(items[list[position - 1]].number);
                if (position + 1 < list.size()) text += " /Next " + folio_text::reference(items[list[position + 1]].number);
                if (!item.kids.empty()) {
                    text += " /First " + folio_text::reference(items[item.kids.front()].number) + " /Last " +
                            folio_text::reference(items[item.kids.back()].number) + " /Count -" + std::to_string(item.kids.size());
                }
                if (outline.page < pages.size()) {
                    text += " /Dest [ " + folio_text::reference(pages[outline.page]) + " /XYZ " + pdfNumber(outline.x) + " " +
                            pdfNumber(outline.y) + " 0 ]";
                }
                write(item.number, text + " >>");
            }
        };
        for (size_t index = 0; index < count; ++index) {
            if (!items[index].kids.empty()) siblings(items[index].kids, items[index].number);
        }
        siblings(roots, root);
        std::string text = "<< /Type /Outlines";
        if (!roots.empty()) {
            text += " /First " + folio_text::reference(items[roots.front()].number) + " /Last " +
                    folio_text::reference(items[roots.back()].number) + " /Count " + std::to_string(roots.size());
        }
        write(root, text + " >>");
        return root;
    }

    /// Every part's named destinations in one name tree (sorted; a name given twice keeps its first place).
    int writeDestinations() {
        std::vector<size_t> order(destinations.size());
        for (size_t index = 0; index < order.size(); ++index) order[index] = index;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return std::tie(destinations[a].first, a) < std::tie(destinations[b].first, b);
        });
        std::string names;
        for (size_t position = 0; position < order.size(); ++position) {
            auto const &[name, destination] = destinations[order[position]];
            if (position > 0 && name == destinations[order[position - 1]].first) continue;
            names += " " + QPDFObjectHandle::newString(name).unparse() + " " + destination;
        }
        int number = allocate();
        write(number, "<< /Names [" + names + " ] >>");
        return number;
    }

    /// The cross-reference stream (ISO 32000-1, 7.5.8: objects in object streams need one), which
    /// is also the trailer, with a deterministic /ID: an MD5 of the body, as qpdf's deterministic IDs are.
    void writeTrailer(int root) {
        flushObjectStream();
        int xrefNumber = allocate();
        size_t xref = output.size;
        std::shared_ptr<QPDFCryptoImpl> md5 = QPDFCryptoProvider::getImpl();
        md5->MD5_init();
        md5->MD5_update(reinterpret_cast<unsigned char *>(output.data), output.size);
        md5->MD5_finalize();
        unsigned char digest[16];
        md5->MD5_digest(digest);
        std::string id;
        static char const hex[] = "0123456789abcdef";
        for (unsigned char byte : digest) {
            id += hex[byte >> 4];
            id += hex[byte & 15];
        }
        // Each entry: a type byte, five bytes (offset, or object stream number), two bytes (index).
        std::string entries;
        entries.reserve(static_cast<size_t>(nextNumber) * 8);
        auto entry = [&entries](int type, unsigned long long second, unsigned int third) {
            entries += static_cast<char>(type);
            for (int shift = 32; shift >= 0; shift -= 8) entries += static_cast<char>((second >> shift) & 0xFF);
            entries += static_cast<char>((third >> 8) & 0xFF);
            entries += static_cast<char>(third & 0xFF);
        };
        for (int number = 0; number < nextNumber; ++number) {
            auto position = static_cast<size_t>(number);
            size_t offset = position < positions.size() ? positions[position] : 0;
            std::pair<int, int> stream = position < inStream.size() ? inStream[position] : std::pair<int, int>{0, 0};
            if (number == xrefNumber) entry(1, xref, 0);
            else if (offset != 0) entry(1, offset, 0);
            else if (stream.first != 0) entry(2, static_cast<unsigned long long>(stream.first), static_cast<unsigned int>(stream.second));
            else entry(0, 0, number == 0 ? 65535 : 0);
        }
        std::string packed = deflate.compress(entries);
        std::string dictionary = "<< /Type /XRef /Size " + std::to_string(nextNumber) + " /W [ 1 5 2 ] /Root " + folio_text::reference(root);
        if (info != 0) dictionary += " /Info " + folio_text::reference(info);
        dictionary += " /ID [<" + id + "><" + id + ">] /Length " + std::to_string(packed.size()) + " /Filter /FlateDecode >>";
        writePlain(xrefNumber, dictionary + "\nstream\n" + packed + "\nendstream");
        output.append("startxref\n" + std::to_string(xref) + "\n%%EOF\n");
    }
};

/// One part of the document as Cairo wrote it, copied into the finished file with every object
/// renumbered for the whole file. Objects it did not touch (fonts, their widths and descriptors,
/// images, content of other parts) are copied at their cross-reference offsets with only their
/// references renumbered, so qpdf neither parses nor re-encodes them; changed objects are written
/// as qpdf holds them now or as the structure pass edited their text, page content as given
/// (compressed here). The part's own catalog, page tree, structure tree root, parent tree, name and
/// number trees are not copied: the whole document's are written at the end (`DocumentWriter`).
/// A file it cannot copy this way (object streams, generations, an unusual layout) is first
/// rewritten plainly by qpdf (`plainCopy`).
class FileAssembler {
  public:
    FileAssembler(QPDF &pdf, std::string_view original, DocumentWriter &writer)
        : pdf(pdf), original(original), writer(writer), deflate(writer.deflate) {
        QPDFObjectHandle size = pdf.getTrailer().getKey("/Size");
        nextNumber = size.isInteger() && size.getIntValue() > 0 && size.getIntValue() < (1 << 26) ? static_cast<int>(size.getIntValue()) : 0;
        if (nextNumber <= 0) copyable = false;
        offsets.assign(static_cast<size_t>(std::max(nextNumber, 0)), absent);
        size_t count = 0;
        for (auto const &[objGen, entry] : pdf.getXRefTable()) {
            if (entry.getType() != 1 || objGen.getGen() != 0) {
                if (entry.getType() != 0) copyable = false;
                continue;
            }
            auto number = static_cast<size_t>(objGen.getObj());
            if (number >= offsets.size()) {
                copyable = false;
                continue;
            }
            offsets[number] = static_cast<size_t>(entry.getOffset());
            ++count;
        }
        if (count == 0) copyable = false;
        numbers.assign(offsets.size(), 0);
        decided.assign(offsets.size(), 0);
    }

    /// Whether the file can be copied object by object.
    bool canCopy() const { return copyable; }

    /// Object `object` (when indirect) is not copied: references to it become null.
    void drop(QPDFObjectHandle object) {
        if (object.isIndirect()) decide(object.getObjGen().getObj(), 0);
    }

    /// Object `object` (when indirect) is not copied: the finished file's object `number` stands for it.
    void standFor(QPDFObjectHandle object, int number) {
        if (object.isIndirect()) decide(object.getObjGen().getObj(), number);
    }

    /// Gives every object not dropped or stood for a number in the finished file. Called once,
    /// before anything is written.
    void numberObjects() {
        for (size_t number = 1; number < offsets.size(); ++number) {
            if (offsets[number] != absent && decided[number] == 0) {
                numbers[number] = writer.allocate();
                decided[number] = 1;
            }
        }
    }

    /// The finished file's number of this part's object `number` (0 for none).
    int outputNumber(int number) const {
        return number > 0 && static_cast<size_t>(number) < numbers.size() ? numbers[static_cast<size_t>(number)] : 0;
    }

    /// `text` (numbered as this part is) numbered as the finished file is.
    std::string renumbered(std::string_view text) const {
        std::string out;
        folio_text::appendRenumbered(out, text, numbers);
        return out;
    }

    /// A number of this part that stands for the finished file's object `number`, which is written
    /// elsewhere (a table begun in an earlier part).
    int alias(int number) {
        int local = nextNumber++;
        numbers.push_back(number);
        decided.push_back(2);
        return local;
    }

    /// Object `number` is written elsewhere (by the structure pass, once a table that continues into
    /// later parts ends): not by this part.
    void skip(int number) {
        if (number > 0 && static_cast<size_t>(number) < decided.size()) decided[static_cast<size_t>(number)] = 2;
    }

    /// The text of object `number` as the file has it (between `obj` and `endobj`), without qpdf
    /// parsing it; empty when there is no such object.
    std::string_view body(int number) {
        std::string_view span = this->span(number);
        size_t start = span.find("obj");
        size_t stop = span.rfind("endobj");
        if (start == std::string_view::npos || stop == std::string_view::npos || stop < start + 3) return {};
        return span.substr(start + 3, stop - start - 3);
    }

    /// Object `number` is written with the text `body` (see `body`).
    void replaceBody(int number, std::string body) {
        rewritten.erase(number);
        added[number] = std::move(body);
    }

    /// `object` (indirect) is written as qpdf now holds it; a dictionary's keys in `references`
    /// are written with these values instead (references to new objects, which qpdf cannot hold
    /// without numbering, and so parsing, every object of the file).
    void rewrite(QPDFObjectHandle object, std::map<std::string, std::string> references = {}) {
        if (!object.isIndirect()) return;
        if (object.isStream()) throw std::logic_error("a changed stream must be written with replaceStream");
        int number = object.getObjGen().getObj();
        rewritten[number] = object;
        if (!references.empty()) {
            if (!object.isDictionary()) throw std::logic_error("references need a dictionary");
            for (auto &[key, value] : references) this->references[number][key] = value;
        }
    }

    /// `number 0 R`.
    static std::string referenceTo(int number) { return std::to_string(number) + " 0 R"; }

    /// The stream object `number` gets `dictionary` (written as it is, with /Length and
    /// /Filter set here) and `data`, compressed unless `compress` is false.
    void replaceStream(int number, QPDFObjectHandle dictionary, std::string const &data, bool compress = true) {
        std::string body = compress ? deflate.compress(data) : data;
        dictionary.replaceKey("/Length", QPDFObjectHandle::newInteger(static_cast<long long>(body.size())));
        if (compress) dictionary.replaceKey("/Filter", QPDFObjectHandle::newName("/FlateDecode"));
        else dictionary.removeKey("/Filter");
        dictionary.removeKey("/DecodeParms");
        streams[number] = dictionary.unparse() + "\nstream\n" + body + "\nendstream";
    }

    /// A new dictionary object holding `dictionary`, numbered here (qpdf's own numbering would
    /// look at every object of the file first), and written as qpdf holds it.
    QPDFObjectHandle newObject(QPDFObjectHandle dictionary) {
        int number = reserve();
        pdf.replaceObject(number, 0, dictionary);
        QPDFObjectHandle object = pdf.getObject(number, 0);
        rewrite(object);
        return object;
    }

    /// A new, empty stream object with `dictionary`: its number (qpdf holds no such object, so
    /// refer to it with `rewrite`'s references).
    int newEmptyStream(QPDFObjectHandle dictionary) {
        int number = reserve();
        replaceStream(number, dictionary, "", false);
        return number;
    }

    /// A new object's number (its content is set with `replaceStream`, `replaceBody` or `newObject`).
    int reserve() {
        int number = nextNumber++;
        numbers.push_back(writer.allocate());
        decided.push_back(1);
        return number;
    }

    /// Object `number` is no longer used: it is written as null.
    void remove(int number) { removed.insert(number); }

    /// Gives the finished file its header (the `%PDF-` line) from this part, when it has none yet.
    void writeHeader() {
        size_t first = original.size();
        for (size_t offset : offsets) {
            if (offset != absent) first = std::min(first, offset);
        }
        writer.header(original.substr(0, first));
    }

    /// Writes this part's objects into the finished file.
    void emit() {
        computeEnds();
        for (int number = 1; number < nextNumber; ++number) {
            auto position = static_cast<size_t>(number);
            if (decided[position] != 1 || numbers[position] == 0) continue;
            int output = numbers[position];
            if (removed.count(number) > 0) {
                writer.write(output, "null");
            } else if (auto stream = streams.find(number); stream != streams.end()) {
                writer.writeRenumbered(output, stream->second, numbers);
            } else if (auto fresh = added.find(number); fresh != added.end()) {
                writer.writeRenumbered(output, fresh->second, numbers);
            } else if (auto changed = rewritten.find(number); changed != rewritten.end()) {
                auto extra = references.find(number);
                std::string text = extra == references.end() ? changed->second.unparseResolved()
                                                              : unparseDictionary(changed->second, extra->second);
                writer.writeRenumbered(output, text, numbers);
            } else if (std::string_view copied = body(number); !copied.empty()) {
                writer.writeRenumbered(output, copied, numbers);
            } else {
                writer.write(output, "null");
            }
        }
    }

  private:
    QPDF &pdf;
    std::string_view original;
    DocumentWriter &writer;
    bool copyable = true;
    int nextNumber = 0;
    /// Where each object starts and ends in `original`, by object number (`absent` for none).
    static constexpr size_t absent = SIZE_MAX;
    std::vector<size_t> offsets;
    std::vector<size_t> ends;
    /// Each object's number in the finished file (0: none), and whether it was numbered (0: not yet,
    /// 1: written by this part, 2: written elsewhere or not at all).
    std::vector<int> numbers;
    std::vector<unsigned char> decided;

    void decide(int number, int output) {
        if (number <= 0 || static_cast<size_t>(number) >= numbers.size()) return;
        numbers[static_cast<size_t>(number)] = output;
        decided[static_cast<size_t>(number)] = 2;
    }

    /// Each object ends where the next one (by offset) starts, the last where the cross-reference
    /// section starts.
    void computeEnds() {
        if (!ends.empty()) return;
        std::vector<std::pair<size_t, int>> byOffset;
        for (size_t number = 0; number < offsets.size(); ++number) {
            if (offsets[number] != absent) byOffset.emplace_back(offsets[number], static_cast<int>(number));
        }
        std::sort(byOffset.begin(), byOffset.end());
        size_t end = xrefOffset();
        ends.assign(offsets.size(), absent);
        for (size_t index = 0; index < byOffset.size(); ++index) {
            size_t stop = index + 1 < byOffset.size() ? byOffset[index + 1].first : end;
            if (byOffset[index].first >= stop || stop > original.size()) throw std::runtime_error("unexpected object layout");
            ends[static_cast<size_t>(byOffset[index].second)] = stop;
        }
    }

    /// The bytes of object `number` in `original` (from its number to the next object), or empty.
    std::string_view span(int number) {
        computeEnds();
        if (number <= 0 || static_cast<size_t>(number) >= offsets.size()) return {};
        size_t start = offsets[static_cast<size_t>(number)];
        size_t stop = ends[static_cast<size_t>(number)];
        if (start == absent || stop == absent || stop <= start) return {};
        return original.substr(start, stop - start);
    }
    std::map<int, QPDFObjectHandle> rewritten;
    std::map<int, std::string> streams;
    std::map<int, std::string> added;
    std::map<int, std::map<std::string, std::string>> references;
    std::set<int> removed;

    /// `dictionary` as PDF syntax, keys in `references` given those values.
    static std::string unparseDictionary(QPDFObjectHandle dictionary, std::map<std::string, std::string> const &references) {
        std::map<std::string, std::string> entries = references;
        for (auto const &key : dictionary.getKeys()) {
            if (entries.count(key) == 0) entries[key] = dictionary.getKey(key).unparse();
        }
        std::string text = "<<";
        for (auto const &[key, value] : entries) text += " " + QPDFObjectHandle::newName(key).unparse() + " " + value;
        return text + " >>";
    }

    /// Where the last cross-reference section starts (the end of the last object).
    size_t xrefOffset() const {
        size_t start = original.rfind("startxref");
        if (start == std::string_view::npos) throw std::runtime_error("no startxref");
        size_t value = std::strtoull(std::string(original.substr(start + 9, 24)).c_str(), nullptr, 10);
        if (value == 0 || value > original.size()) throw std::runtime_error("bad startxref");
        return value;
    }

  public:
    /// The compressor for page content, also used to read it.
    Deflate &deflate;
};

/// Wraps every piece of page content drawn outside a structure element's marked content
/// in `/Artifact BMC … EMC`. A sequence opens before the operands of the first operator that
/// starts or paints a graphics object at marked-content depth 0, closes before the next
/// structure sequence (a BDC with an MCID), and never spans q/Q or BT/ET, so nesting stays
/// proper. The content is read with a small lexer for content-stream syntax (ISO 32000-1,
/// 7.2 and 8.9.7 for inline images): qpdf's token filters do the same 10 times slower.
class ArtifactMarker {
  public:
    explicit ArtifactMarker(std::string const &content) : input(content) { output.reserve(content.size() + content.size() / 8); }

    std::string run() {
        size_t position = 0;
        size_t length = input.size();
        operandStart = 0;
        bool operandsHaveMCID = false;
        while (position < length) {
            unsigned char byte = input[position];
            if (isWhitespace(byte)) {
                ++position;
            } else if (byte == '%') {
                while (position < length && input[position] != '\n' && input[position] != '\r') ++position;
            } else if (byte == '(') {
                position = skipLiteralString(position);
            } else if (byte == '<' && position + 1 < length && input[position + 1] == '<') {
                position += 2;
            } else if (byte == '>' && position + 1 < length && input[position + 1] == '>') {
                position += 2;
            } else if (byte == '<') {
                size_t close = input.find('>', position);
                position = close == std::string::npos ? length : close + 1;
            } else if (byte == '[' || byte == ']' || byte == '{' || byte == '}') {
                ++position;
            } else if (byte == '/') {
                size_t nameStart = position;
                ++position;
                while (position < length && isRegular(input[position])) ++position;
                if (input.compare(nameStart, position - nameStart, "/MCID") == 0) operandsHaveMCID = true;
            } else {
                size_t wordStart = position;
                while (position < length && isRegular(input[position])) ++position;
                if (position == wordStart) {
                    ++position;  // a stray delimiter such as ')' or '>': skip it
                    continue;
                }
                std::string_view word(input.data() + wordStart, position - wordStart);
                if (isOperand(word)) continue;
                handleOperator(word, operandsHaveMCID);
                operandsHaveMCID = false;
                if (word == "ID") position = skipInlineImageData(position);
                operandStart = position;
            }
        }
        output.append(input, copied, std::string::npos);
        if (artifactOpen) output += "\nEMC\n";
        return output;
    }

  private:
    std::string const &input;
    std::string output;
    size_t copied = 0;
    size_t operandStart = 0;
    /// One entry per open marked-content sequence: true when it belongs to a structure element.
    std::vector<bool> sequences;
    bool artifactOpen = false;
    bool artifactInText = false;
    bool inText = false;

    static bool isWhitespace(unsigned char byte) {
        return byte == ' ' || byte == '\n' || byte == '\r' || byte == '\t' || byte == '\f' || byte == 0;
    }

    static bool isRegular(unsigned char byte) {
        static const std::array<bool, 256> regular = [] {
            std::array<bool, 256> table{};
            for (int value = 0; value < 256; ++value) {
                table[value] = !isWhitespace(static_cast<unsigned char>(value)) &&
                               (value == 0 || std::strchr("()<>[]{}/%", value) == nullptr);
            }
            return table;
        }();
        return regular[byte];
    }

    static bool isOperand(std::string_view word) {
        unsigned char first = word[0];
        return (first >= '0' && first <= '9') || first == '+' || first == '-' || first == '.' || word == "true" ||
               word == "false" || word == "null";
    }

    static bool marks(std::string_view op) {
        static const char *const operators[] = {"m", "l", "c", "v", "y", "h", "re", "S",  "s",  "f", "F", "f*",
                                                "B", "B*", "b", "b*", "n", "sh", "Do", "BI", "Tj", "TJ", "'", "\""};
        for (auto candidate : operators) {
            if (op == candidate) return true;
        }
        return false;
    }

    size_t skipLiteralString(size_t position) {
        int depth = 0;
        size_t length = input.size();
        while (position < length) {
            char byte = input[position];
            if (byte == '\\') {
                position += 2;
                continue;
            }
            if (byte == '(') ++depth;
            if (byte == ')' && --depth == 0) return position + 1;
            ++position;
        }
        return length;
    }

    /// After `ID` and one white-space byte: the image data runs to an `EI` between white space.
    size_t skipInlineImageData(size_t position) {
        size_t length = input.size();
        size_t search = position + 1;
        while (search + 1 < length) {
            size_t found = input.find("EI", search);
            if (found == std::string::npos) return length;
            bool before = found > 0 && isWhitespace(input[found - 1]);
            bool after = found + 2 >= length || isWhitespace(input[found + 2]);
            if (before && after) return found + 2;
            search = found + 1;
        }
        return length;
    }

    /// Writes `text` before the pending operands.
    void insert(char const *text) {
        output.append(input, copied, operandStart - copied);
        output += text;
        copied = operandStart;
    }

    void open() {
        insert("\n/Artifact BMC\n");
        artifactOpen = true;
        artifactInText = inText;
    }

    void close() {
        insert("\nEMC\n");
        artifactOpen = false;
    }

    void handleOperator(std::string_view op, bool operandsHaveMCID) {
        bool topLevel = sequences.empty();
        if (op == "BDC" || op == "BMC") {
            bool structure = op == "BDC" && operandsHaveMCID;
            if (topLevel) {
                if (structure && artifactOpen) close();
                if (!structure && !artifactOpen) open();
            }
            sequences.push_back(structure);
        } else if (op == "EMC") {
            if (!sequences.empty()) sequences.pop_back();
        } else if (op == "q" || op == "Q" || op == "BT") {
            if (topLevel && artifactOpen) close();
            if (op == "BT") inText = true;
        } else if (op == "ET") {
            if (topLevel && artifactOpen && artifactInText) close();
            inText = false;
        } else if (topLevel && !artifactOpen && marks(op)) {
            open();
        }
    }
};

/// Replaces a page's content streams with one stream whose untagged content is marked as Artifacts
/// (the first stream's object, when the file is copied object by object).
void markArtifacts(QPDFPageObjectHelper &page, FileAssembler &file) {
    std::string content;
    std::vector<QPDFObjectHandle> streams = page.getObjectHandle().getPageContents();
    std::string inflated;
    for (auto &stream : streams) {
        QPDFObjectHandle dictionary = stream.getDict();
        QPDFObjectHandle filter = dictionary.getKey("/Filter");
        bool flate = filter.isName() && filter.getName() == "/FlateDecode" && !dictionary.hasKey("/DecodeParms");
        if (flate) {
            std::shared_ptr<Buffer> raw = stream.getRawStreamData();
            if (file.deflate.decompress(raw->getBuffer(), raw->getSize(), inflated)) {
                content += inflated;
                content += '\n';
                continue;
            }
        }
        std::shared_ptr<Buffer> data = stream.getStreamData(qpdf_dl_generalized);
        content.append(reinterpret_cast<char const *>(data->getBuffer()), data->getSize());
        content += '\n';
    }
    if (streams.empty() || !streams.front().isIndirect()) throw std::runtime_error("a page without content streams");
    QPDFObjectHandle first = streams.front();
    file.replaceStream(first.getObjGen().getObj(), first.getDict().shallowCopy(), ArtifactMarker(content).run());
    for (size_t index = 1; index < streams.size(); ++index) {
        if (streams[index].isIndirect()) file.remove(streams[index].getObjGen().getObj());
    }
    if (streams.size() > 1 || !page.getObjectHandle().getKey("/Contents").isStream()) {
        page.getObjectHandle().replaceKey("/Contents", first);
    }
}

std::vector<QPDFObjectHandle> kidsOf(QPDFObjectHandle node) {
    std::vector<QPDFObjectHandle> kids;
    QPDFObjectHandle k = node.getKey("/K");
    if (k.isArray()) {
        for (int index = 0; index < k.getArrayNItems(); ++index) kids.push_back(k.getArrayItem(index));
    } else if (!k.isNull()) {
        kids.push_back(k);
    }
    return kids;
}

bool hasName(QPDFObjectHandle node, std::string const &key, std::string const &name) {
    QPDFObjectHandle value = node.getKey(key);
    return value.isName() && value.getName() == name;
}


/// The structure tree finished one element at a time from the file's text: /Alt on figures and
/// links, /Scope on header cells, /ColSpan on cells across columns, split tables (one Table
/// element per page) joined into one Table element. No element becomes a qpdf object, so memory does not grow with the number of elements
/// (a tagged table of 100,000 rows has 600,000 of them). Elements are visited depth first in
/// document order; an element is kept only while its subtree is visited, and a split table's
/// first part until its last part has been seen.
class StructureStream {
  public:
    explicit StructureStream(DocumentWriter &writer) : writer(writer) {}

    /// Finishes every element under `treeRoot` (a qpdf object: the root alone is small), the
    /// structure tree of one part described by `part`; its top-level elements join the document's.
    void runPart(QPDFObjectHandle treeRoot, folio_pdf_part const &part, FileAssembler &partFile) {
        this->part = &part;
        file = &partFile;
        figures = tables = links = cells = spanning = 0;
        carriedAlias = 0;
        for (auto &kid : kidsOf(treeRoot)) {
            int number = kid.isIndirect() ? kid.getObjGen().getObj() : 0;
            Element element = number > 0 ? read(number) : Element{};
            if (!element.role.empty() && visit(element, 1, 0, false)) continue;
            writer.topLevelKids.push_back(file->renumbered(kid.unparse()));
        }
        carryTable();
        if (figures != part.figure_count) {
            throw std::runtime_error(
                "the structure tree has " + std::to_string(figures) + " figures but " + std::to_string(part.figure_count) +
                " were drawn");
        }
        if (tables != part.table_count) {
            throw std::runtime_error(
                "the structure tree has " + std::to_string(tables) + " tables but " + std::to_string(part.table_count) +
                " were drawn");
        }
        file = nullptr;
    }

    /// Writes the table still open when the document ends.
    void finish() { closeTable(); }

  private:
    /// One element as the file has it: its number, its dictionary's text and its role (/S);
    /// no role for an object that is not a structure element.
    struct Element {
        int number = 0;
        std::string text;
        std::string role;
        /// Where the value of /K is in `text` (empty when it has none).
        size_t kidsStart = 0;
        size_t kidsEnd = 0;
    };

    DocumentWriter &writer;
    folio_pdf_part const *part = nullptr;
    FileAssembler *file = nullptr;
    size_t figures = 0;
    size_t tables = 0;
    size_t links = 0;
    size_t cells = 0;
    size_t spanning = 0;
    /// The open split table: its first part (written when the table ends) and every row of its parts.
    Element tableFirst;
    std::vector<std::string> tableRows;
    /// Whether the open table began in an earlier part: then its first part and the rows of earlier
    /// parts (`tableRows` up to `rowsCarried`) are numbered as the finished file is, and
    /// `carriedAlias` is the number that stands for the first part in this part (0 until needed).
    bool carried = false;
    size_t rowsCarried = 0;
    int carriedAlias = 0;

    /// At the end of a part, an open table is numbered as the finished file is: later parts add rows.
    void carryTable() {
        if (tableFirst.number == 0) return;
        if (!carried) {
            tableFirst.text = file->renumbered(tableFirst.text);
            int local = tableFirst.number;
            tableFirst.number = file->outputNumber(local);
            file->skip(local);
            carried = true;
        }
        for (; rowsCarried < tableRows.size(); ++rowsCarried) tableRows[rowsCarried] = file->renumbered(tableRows[rowsCarried]);
    }

    Element read(int number) {
        Element element;
        element.number = number;
        element.text = std::string(file->body(number));
        if (element.text.empty()) return element;
        size_t closing = 0;
        std::vector<folio_text::Entry> entries = folio_text::entries(element.text, closing);
        folio_text::Entry const *role = folio_text::find(entries, "/S");
        folio_text::Entry const *type = folio_text::find(entries, "/Type");
        bool structure = type == nullptr || element.text.compare(type->valueStart, type->end - type->valueStart, "/StructElem") == 0;
        if (role != nullptr && structure) element.role = element.text.substr(role->valueStart, role->end - role->valueStart);
        if (folio_text::Entry const *kids = folio_text::find(entries, "/K")) {
            element.kidsStart = kids->valueStart;
            element.kidsEnd = kids->end;
        }
        return element;
    }

    /// Writes the open split table's first part with the rows of all its parts.
    void closeTable() {
        if (tableFirst.number == 0) return;
        if (carried && file != nullptr) carryTable();
        std::string kids = "[";
        for (auto const &row : tableRows) kids += " " + row;
        kids += " ]";
        folio_text::setEntry(tableFirst.text, "/K", kids);
        if (carried) writer.write(tableFirst.number, tableFirst.text);
        else file->replaceBody(tableFirst.number, tableFirst.text);
        tableFirst = Element{};
        tableRows.clear();
        carried = false;
        rowsCarried = 0;
        carriedAlias = 0;
    }

    /// Finishes `element` and its subtree; `movedTo` is the element it now belongs to (a row of a
    /// later part of a split table), or 0; `rowOfHeaders` whether all its siblings are header cells.
    /// Returns true when the element leaves the tree (a later part of a split table).
    bool visit(Element &element, int depth, int movedTo, bool rowOfHeaders) {
        if (depth > 512) throw std::runtime_error("structure: the tree is deeper than 512 levels");
        // The children as the file has them, before this element's text changes.
        std::string kidsText = element.text.substr(element.kidsStart, element.kidsEnd - element.kidsStart);
        bool changed = false;
        if (movedTo != 0) {
            folio_text::setEntry(element.text, "/P", folio_text::reference(movedTo));
            changed = true;
        }
        std::string_view role = element.role;
        bool removed = false;
        bool firstPart = false;
        if (role == "/Figure") {
            if (figures < part->figure_count && part->figure_alternatives[figures] != nullptr) {
                folio_text::setEntry(element.text, "/Alt", QPDFObjectHandle::newUnicodeString(part->figure_alternatives[figures]).unparse());
                changed = true;
            }
            ++figures;
        } else if (role == "/Link") {
            // A link's text is drawn in the Span before it (Cairo marks content only in leaf
            // elements), so the Link element says what it links: the link's own words.
            if (links < part->link_count && part->link_descriptions[links] != nullptr) {
                folio_text::setEntry(element.text, "/Alt", QPDFObjectHandle::newUnicodeString(part->link_descriptions[links]).unparse());
                changed = true;
            }
            ++links;
        } else if (role == "/TH" || role == "/TD") {
            std::string attributes;
            if (role == "/TH") attributes += std::string(" /Scope ") + (rowOfHeaders ? "/Column" : "/Row");
            // A cell across columns says so, so that every row fills the table's grid.
            while (spanning < part->spanning_count && part->spanning_cells[spanning] < cells) ++spanning;
            if (spanning < part->spanning_count && part->spanning_cells[spanning] == cells) {
                attributes += " /ColSpan " + std::to_string(part->spanning_columns[spanning]);
            }
            ++cells;
            if (!attributes.empty()) {
                folio_text::setEntry(element.text, "/A", "<< /O /Table" + attributes + " >>");
                changed = true;
            }
        } else if (role == "/Table") {
            bool continues = tables < part->table_count && part->table_continues[tables] != 0;
            ++tables;
            if (continues && tableFirst.number != 0) {
                removed = true;
                if (carried && carriedAlias == 0) carriedAlias = file->alias(tableFirst.number);
                movedTo = carried ? carriedAlias : tableFirst.number;
            } else {
                closeTable();
                firstPart = true;
            }
        }
        if (!removed && role != "/Table") movedTo = 0;

        // The children: read first, so that a row knows whether all its cells are headers.
        std::vector<folio_text::Item> items = folio_text::items(kidsText);
        std::vector<Element> kids(items.size());
        bool allHeaders = true;
        bool anyElement = false;
        for (size_t index = 0; index < items.size(); ++index) {
            if (items[index].kind != folio_text::Item::Kind::reference) continue;
            kids[index] = read(static_cast<int>(items[index].number));
            if (kids[index].role.empty()) continue;
            anyElement = true;
            if (kids[index].role != "/TH") allHeaders = false;
        }
        std::vector<std::string> keptItems;
        bool kidRemoved = false;
        for (size_t index = 0; index < items.size(); ++index) {
            std::string itemText(kidsText.substr(items[index].start, items[index].end - items[index].start));
            bool gone = false;
            if (!kids[index].role.empty()) {
                int kidMovedTo = removed ? movedTo : 0;
                gone = visit(kids[index], depth + 1, kidMovedTo, anyElement && allHeaders);
            }
            if (gone) {
                kidRemoved = true;
            } else {
                keptItems.push_back(std::move(itemText));
            }
        }
        if (removed) {
            for (auto &item : keptItems) tableRows.push_back(std::move(item));
            file->remove(element.number);
            return true;
        }
        if (firstPart) {
            tableRows = std::move(keptItems);
            tableFirst = std::move(element);
            return false;
        }
        if (kidRemoved) {
            std::string kids = "[";
            for (auto const &item : keptItems) kids += " " + item;
            kids += " ]";
            folio_text::setEntry(element.text, "/K", kids);
            changed = true;
        }
        if (changed) file->replaceBody(element.number, element.text);
        return false;
    }
};

/// Gives every embedded TrueType CID font an explicit `/CIDToGIDMap /Identity` (ISO 14289-1
/// 7.21.3.2, ISO 19005-2 6.2.11.3.2; Matterhorn 31-008). Cairo numbers a subset's glyphs as its
/// CIDs, so the map is the identity, but Cairo leaves the entry out. Fonts are found through the
/// resources of `page` and of the form XObjects it draws, each dictionary visited once.
void finishFonts(QPDFObjectHandle resources, std::set<QPDFObjGen> &visited, FileAssembler &file, int depth = 0) {
    if (!resources.isDictionary() || depth > 8) return;
    if (resources.isIndirect() && !visited.insert(resources.getObjGen()).second) return;
    QPDFObjectHandle fonts = resources.getKey("/Font");
    if (fonts.isDictionary() && (!fonts.isIndirect() || visited.insert(fonts.getObjGen()).second)) {
        for (auto const &key : fonts.getKeys()) {
            QPDFObjectHandle font = fonts.getKey(key);
            if (!font.isDictionary() || !hasName(font, "/Subtype", "/Type0")) continue;
            if (font.isIndirect() && !visited.insert(font.getObjGen()).second) continue;
            QPDFObjectHandle descendants = font.getKey("/DescendantFonts");
            if (!descendants.isArray()) continue;
            for (int index = 0; index < descendants.getArrayNItems(); ++index) {
                QPDFObjectHandle descendant = descendants.getArrayItem(index);
                if (!hasName(descendant, "/Subtype", "/CIDFontType2") || descendant.hasKey("/CIDToGIDMap")) continue;
                descendant.replaceKey("/CIDToGIDMap", QPDFObjectHandle::newName("/Identity"));
                if (descendant.isIndirect()) file.rewrite(descendant);
                else if (descendants.isIndirect()) file.rewrite(descendants);
                else file.rewrite(font);
            }
        }
    }
    QPDFObjectHandle objects = resources.getKey("/XObject");
    if (!objects.isDictionary()) return;
    for (auto const &key : objects.getKeys()) {
        QPDFObjectHandle object = objects.getKey(key);
        if (!object.isStream() || !hasName(object.getDict(), "/Subtype", "/Form")) continue;
        if (!visited.insert(object.getObjGen()).second) continue;
        finishFonts(object.getDict().getKey("/Resources"), visited, file, depth + 1);
    }
}

/// /Contents on every link annotation, /Tabs /S on every page, artifacts in the content, fonts'

/// /Contents on every link annotation, /Tabs /S on every page, artifacts in the content, fonts'
/// CIDToGIDMap; keys of the parent tree moved by `keyBase` (the part's place in the document's);
/// each page's number in the finished file added to the document's pages.
void finishPages(QPDF &pdf, folio_pdf_part const &part, bool tagged, long long keyBase, FileAssembler &file, DocumentWriter &writer) {
    size_t links = 0;
    std::set<QPDFObjGen> visitedResources;
    auto moveKey = [keyBase](QPDFObjectHandle object, char const *key) {
        QPDFObjectHandle value = object.getKey(key);
        if (value.isInteger()) object.replaceKey(key, QPDFObjectHandle::newInteger(value.getIntValue() + keyBase));
    };
    for (auto &page : QPDFPageDocumentHelper(pdf).getAllPages()) {
        QPDFObjectHandle object = page.getObjectHandle();
        if (!object.isIndirect()) throw std::runtime_error("a page that is not an indirect object");
        writer.pages.push_back(file.outputNumber(object.getObjGen().getObj()));
        finishFonts(object.getKey("/Resources"), visitedResources, file);
        if (tagged) object.replaceKey("/Tabs", QPDFObjectHandle::newName("/S"));
        moveKey(object, "/StructParents");
        file.rewrite(object);
        // Cairo 1.16 can name one image twice in a resource dictionary; written again by qpdf, the
        // duplicate is gone.
        QPDFObjectHandle resources = object.getKey("/Resources");
        if (resources.isIndirect() && resources.isDictionary()) file.rewrite(resources);
        QPDFObjectHandle annotations = object.getKey("/Annots");
        if (annotations.isArray()) {
            if (annotations.isIndirect()) file.rewrite(annotations);
            for (int index = 0; index < annotations.getArrayNItems(); ++index) {
                QPDFObjectHandle annotation = annotations.getArrayItem(index);
                if (!annotation.isDictionary()) continue;
                moveKey(annotation, "/StructParent");
                file.rewrite(annotation);
                if (!hasName(annotation, "/Subtype", "/Link")) continue;
                if (links < part.link_count && part.link_descriptions[links] != nullptr) {
                    annotation.replaceKey("/Contents", QPDFObjectHandle::newUnicodeString(part.link_descriptions[links]));
                }
                // Printable, as PDF/A (6.3.2) asks and Matterhorn 28 checks: a link prints as it shows.
                annotation.replaceKey("/F", QPDFObjectHandle::newInteger(4));
                ++links;
            }
        }
        if (tagged) markArtifacts(page, file);
    }
    if (links != part.link_count) {
        throw std::runtime_error(
            "the pages have " + std::to_string(links) + " links but " + std::to_string(part.link_count) + " were drawn");
    }
}

/// The entries of a number tree (`numbers` true, /Nums) or a name tree (/Names) under `node`, in
/// order, each node dropped from the part: the document's trees are written whole at the end.
void collectTree(QPDFObjectHandle node, bool numbers, FileAssembler &file, std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> &entries,
                 int depth = 0) {
    if (!node.isDictionary() || depth > 32) return;
    file.drop(node);
    QPDFObjectHandle kids = node.getKey("/Kids");
    if (kids.isArray()) {
        file.drop(kids);
        for (int index = 0; index < kids.getArrayNItems(); ++index) collectTree(kids.getArrayItem(index), numbers, file, entries, depth + 1);
    }
    QPDFObjectHandle list = node.getKey(numbers ? "/Nums" : "/Names");
    if (!list.isArray()) return;
    file.drop(list);
    for (int index = 0; index + 1 < list.getArrayNItems(); index += 2) entries.emplace_back(list.getArrayItem(index), list.getArrayItem(index + 1));
}

/// Drops every item of an outline tree (Folio writes the document's bookmarks itself).
void dropOutlines(QPDFObjectHandle node, FileAssembler &file, std::set<QPDFObjGen> &visited, int depth = 0) {
    while (node.isDictionary() && depth < 64) {
        if (node.isIndirect() && !visited.insert(node.getObjGen()).second) return;
        file.drop(node);
        dropOutlines(node.getKey("/First"), file, visited, depth + 1);
        node = node.getKey("/Next");
    }
}


/// A PDF date in UTC: D:20261124093000+00'00'.
std::string pdfDate(long long seconds) {
    std::time_t time = static_cast<std::time_t>(seconds);
    struct tm parts {};
    if (gmtime_r(&time, &parts) == nullptr) return "D:19700101000000+00'00'";
    char text[32];
    std::strftime(text, sizeof text, "D:%Y%m%d%H%M%S+00'00'", &parts);
    return text;
}

/// An invisible signature field on the first page (PAdES: /SubFilter /ETSI.CAdES.detached) whose
/// signature dictionary's /Contents and /ByteRange are placeholders `folio_signing::signInPlace`
/// fills once the file is written. The widget is printable and zero-sized with an empty
/// appearance (PDF/A-2), described by /TU; in a tagged document it is a Form element's object
/// (PDF/UA-1 7.18.4) at the end of the document's structure, found through the parent tree (the
/// document's writer places both at the end). Sets the writer's marker the placeholder starts with.
void addSignatureField(QPDF &pdf, Finishing const &finishing, FileAssembler &file, DocumentWriter &writer) {
    std::vector<QPDFPageObjectHelper> pages = QPDFPageDocumentHelper(pdf).getAllPages();
    if (pages.empty()) throw std::runtime_error("signing: the document has no page");
    QPDFObjectHandle page = pages.front().getObjectHandle();
    std::string const &description = finishing.signatureDescription;
    std::random_device random;
    std::string nonce;
    std::string marker;
    static char const hex[] = "0123456789abcdef";
    for (int index = 0; index < 16; ++index) {
        auto byte = static_cast<unsigned char>(random() & 0xFF);
        nonce += static_cast<char>(byte);
        marker += hex[byte >> 4];
        marker += hex[byte & 15];
    }
    size_t capacity = folio_signing::contentsCapacity(*finishing.signer);
    std::string placeholder = nonce + std::string(capacity > 16 ? capacity - 16 : 0, '\0');

    QPDFObjectHandle signature = file.newObject(QPDFObjectHandle::parse(
        "<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached "
        "/ByteRange [ 0 9999999999 9999999999 9999999999 ] >>"));
    // The signature's byte range is found in the file's bytes: not in an object stream.
    writer.keepPlain(file.outputNumber(signature.getObjGen().getObj()));
    signature.replaceKey("/Contents", QPDFObjectHandle::newString(placeholder));
    signature.replaceKey("/M", QPDFObjectHandle::newString(pdfDate(finishing.signingTime)));
    std::string const &name = folio_signing::signerName(*finishing.signer);
    if (!name.empty()) signature.replaceKey("/Name", QPDFObjectHandle::newUnicodeString(name));
    int appearance = file.newEmptyStream(QPDFObjectHandle::parse("<< /Type /XObject /Subtype /Form /BBox [ 0 0 0 0 ] >>"));
    QPDFObjectHandle field =
        file.newObject(QPDFObjectHandle::parse("<< /Type /Annot /Subtype /Widget /FT /Sig /F 132 /Rect [ 0 0 0 0 ] >>"));
    field.replaceKey("/T", QPDFObjectHandle::newUnicodeString("Signature"));
    field.replaceKey("/TU", QPDFObjectHandle::newUnicodeString(description));
    field.replaceKey("/V", signature);
    field.replaceKey("/P", page);
    file.rewrite(field, {{"/AP", "<< /N " + FileAssembler::referenceTo(appearance) + " >>"}});

    QPDFObjectHandle annotations = page.getKey("/Annots");
    if (!annotations.isArray()) {
        annotations = QPDFObjectHandle::newArray();
        page.replaceKey("/Annots", annotations);
    }
    annotations.appendItem(field);
    file.rewrite(annotations);
    file.rewrite(page);

    QPDFObjectHandle treeRoot = pdf.getRoot().getKey("/StructTreeRoot");
    if (finishing.tagged && treeRoot.isDictionary() && writer.signatureKey >= 0) {
        // The last element of the document, under the root like every top-level element Cairo writes.
        QPDFObjectHandle element = file.newObject(QPDFObjectHandle::newDictionary());
        element.replaceKey("/Type", QPDFObjectHandle::newName("/StructElem"));
        element.replaceKey("/S", QPDFObjectHandle::newName("/Form"));
        element.replaceKey("/P", treeRoot);
        element.replaceKey("/Pg", page);
        element.replaceKey("/Alt", QPDFObjectHandle::newUnicodeString(description));
        QPDFObjectHandle reference = QPDFObjectHandle::newDictionary();
        reference.replaceKey("/Type", QPDFObjectHandle::newName("/OBJR"));
        reference.replaceKey("/Obj", field);
        reference.replaceKey("/Pg", page);
        element.replaceKey("/K", reference);
        field.replaceKey("/StructParent", QPDFObjectHandle::newInteger(writer.signatureKey));
        writer.signatureElement = file.outputNumber(element.getObjGen().getObj());
    }
    writer.signatureField = file.outputNumber(field.getObjGen().getObj());
    writer.signatureMarker = marker;
}

} // namespace

/// See folio_pdf_finish.h: the document's writer, its structure pass (which carries a table from
/// one part into the next) and what the finishing step was asked for.
struct folio_pdf_assembly {
    Finishing finishing;
    DocumentWriter writer;
    StructureStream structure;
    /// How many pages the parts so far had.
    long long pageCount = 0;
    bool failed = false;

    explicit folio_pdf_assembly(folio_pdf_finishing const &given) : finishing(given), writer(finishing), structure(writer) {}

    /// Finishes one part written by Cairo and copies it into the document.
    void add(folio_pdf_part const &part, std::string_view cairo) {
        auto document = std::make_unique<QPDF>();
        document->setSuppressWarnings(true);
        document->processMemoryFile("Cairo output", cairo.data(), cairo.size());
        auto assembler = std::make_unique<FileAssembler>(*document, cairo, writer);
        // A file that cannot be copied object by object (object streams, generations) is first
        // written plainly by qpdf. Cairo's files never need it.
        std::string plain;
        if (!assembler->canCopy()) {
            plain = plainCopy(*document);
            document = std::make_unique<QPDF>();
            document->setSuppressWarnings(true);
            document->processMemoryFile("Cairo output, rewritten", plain.data(), plain.size());
            assembler = std::make_unique<FileAssembler>(*document, plain, writer);
            if (!assembler->canCopy()) throw std::runtime_error("the PDF cannot be finished object by object");
        }
        FileAssembler &file = *assembler;
        bool first = writer.pages.empty();

        // The part's document-wide objects are not copied: the document's are written at the end.
        QPDFObjectHandle catalog = document->getRoot();
        file.drop(catalog);
        QPDFObjectHandle info = document->getTrailer().getKey("/Info");
        if (!first) file.drop(info);
        std::vector<QPDFObjectHandle> pageTree{catalog.getKey("/Pages")};
        for (size_t index = 0; index < pageTree.size() && index < 4096; ++index) {
            QPDFObjectHandle node = pageTree[index];
            if (!node.isDictionary() || !hasName(node, "/Type", "/Pages")) continue;
            file.standFor(node, writer.pagesRoot);
            QPDFObjectHandle kids = node.getKey("/Kids");
            if (kids.isIndirect()) file.drop(kids);
            for (int kid = 0; kids.isArray() && kid < kids.getArrayNItems(); ++kid) pageTree.push_back(kids.getArrayItem(kid));
        }
        QPDFObjectHandle treeRoot = catalog.getKey("/StructTreeRoot");
        std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> parentTree;
        if (treeRoot.isDictionary()) {
            writer.structured = true;
            file.standFor(treeRoot, writer.structureRoot);
            QPDFObjectHandle kids = treeRoot.getKey("/K");
            if (kids.isIndirect()) file.drop(kids);
            collectTree(treeRoot.getKey("/ParentTree"), true, file, parentTree);
        }
        std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> destinations;
        QPDFObjectHandle names = catalog.getKey("/Names");
        if (names.isDictionary()) {
            file.drop(names);
            collectTree(names.getKey("/Dests"), false, file, destinations);
        }
        std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> labels;
        collectTree(catalog.getKey("/PageLabels"), true, file, labels);
        std::set<QPDFObjGen> visited;
        dropOutlines(catalog.getKey("/Outlines"), file, visited);
        file.numberObjects();
        file.writeHeader();
        if (first && info.isIndirect()) writer.info = file.outputNumber(info.getObjGen().getObj());

        long long keyBase = writer.nextKey;
        std::vector<std::pair<long long, std::string>> leaf;
        for (auto &[key, value] : parentTree) {
            if (!key.isInteger() || key.getIntValue() < 0 || key.getIntValue() > (1LL << 40)) throw std::runtime_error("a parent tree key is not a number");
            leaf.emplace_back(key.getIntValue() + keyBase, file.renumbered(value.unparse()));
        }
        std::sort(leaf.begin(), leaf.end(), [](auto const &a, auto const &b) { return a.first < b.first; });
        if (!leaf.empty()) writer.nextKey = std::max(writer.nextKey, leaf.back().first + 1);
        writer.addParentTreeLeaf(leaf);
        for (auto &[name, destination] : destinations) {
            if (name.isString()) writer.destinations.emplace_back(name.getStringValue(), file.renumbered(destination.unparse()));
        }
        for (auto &[page, label] : labels) {
            if (page.isInteger()) writer.pageLabels.emplace_back(page.getIntValue() + pageCount, file.renumbered(label.unparse()));
        }

        size_t pagesBefore = writer.pages.size();
        finishPages(*document, part, finishing.tagged, keyBase, file, writer);
        pageCount += static_cast<long long>(writer.pages.size() - pagesBefore);
        if (treeRoot.isDictionary()) {
            if (finishing.tagged) {
                structure.runPart(treeRoot, part, file);
            } else {
                for (auto &kid : kidsOf(treeRoot)) writer.topLevelKids.push_back(file.renumbered(kid.unparse()));
            }
        }
        if (first && finishing.signer != nullptr) addSignatureField(*document, finishing, file, writer);
        file.emit();
    }
};

extern "C" folio_pdf_assembly *folio_pdf_assembly_create(const folio_pdf_finishing *finishing) {
    try {
        // Only the rewritten page content is compressed again (the rest is copied as it is):
        // the fastest level keeps the finishing step a small part of a render.
        Pl_Flate::setCompressionLevel(1);
        return new folio_pdf_assembly(*finishing);
    } catch (...) {
        return nullptr;
    }
}

extern "C" int folio_pdf_assembly_add(
    folio_pdf_assembly *assembly, const folio_pdf_part *part, const unsigned char *pdf, size_t length, char *message,
    size_t message_capacity) {
    if (assembly->failed) {
        copyMessage("an earlier part could not be finished", message, message_capacity);
        return 1;
    }
    try {
        assembly->add(*part, std::string_view(reinterpret_cast<char const *>(pdf), length));
        return 0;
    } catch (std::exception &error) {
        assembly->failed = true;
        copyMessage(error.what(), message, message_capacity);
        return 1;
    } catch (...) {
        assembly->failed = true;
        copyMessage("qpdf failed", message, message_capacity);
        return 1;
    }
}

extern "C" int folio_pdf_assembly_finish(
    folio_pdf_assembly *assembly, const folio_pdf_outline *outlines, size_t outline_count, folio_pdf_output **output,
    char *message, size_t message_capacity) {
    if (assembly->failed) {
        copyMessage("an earlier part could not be finished", message, message_capacity);
        return 1;
    }
    try {
        assembly->structure.finish();
        *output = assembly->writer.finish(outlines, outline_count).release();
        return 0;
    } catch (std::exception &error) {
        assembly->failed = true;
        copyMessage(error.what(), message, message_capacity);
        return 1;
    } catch (...) {
        assembly->failed = true;
        copyMessage("qpdf failed", message, message_capacity);
        return 1;
    }
}

extern "C" void folio_pdf_assembly_free(folio_pdf_assembly *assembly) { delete assembly; }

extern "C" const unsigned char *folio_pdf_output_bytes(const folio_pdf_output *output) {
    return reinterpret_cast<unsigned char const *>(output->data);
}

extern "C" size_t folio_pdf_output_length(const folio_pdf_output *output) { return output->size; }

extern "C" void folio_pdf_output_free(folio_pdf_output *output) { delete output; }
