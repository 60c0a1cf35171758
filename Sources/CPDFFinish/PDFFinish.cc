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
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct folio_pdf_output {
    std::string bytes;
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
/// Objects it did not touch (fonts, their widths and descriptors, images, the parent tree) are
/// copied byte for byte at their cross-reference offsets, so qpdf neither parses nor re-encodes
/// them; changed objects are written as qpdf holds them now, page content as given (compressed
/// here), then a new cross-reference table and a trailer with a deterministic /ID (an MD5 of the
/// body, as qpdf's deterministic IDs are). A file it cannot copy this way (object streams,
/// generations, an unusual layout) is first rewritten plainly by qpdf (`plainCopy`).
class FileAssembler {
  public:
    FileAssembler(QPDF &pdf, std::string_view original) : pdf(pdf), original(original) {
        QPDFObjectHandle size = pdf.getTrailer().getKey("/Size");
        nextNumber = size.isInteger() ? static_cast<int>(size.getIntValue()) : 0;
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
    }

    /// Whether the file can be copied object by object.
    bool canCopy() const { return copyable; }

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

    /// A new object `number`: `dictionary` with `references` (see `rewrite`).
    void add(int number, QPDFObjectHandle dictionary, std::map<std::string, std::string> references = {}) {
        added[number] = unparseDictionary(dictionary, references);
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

    /// A new stream object's number (its content is set with `replaceStream`).
    int reserve() { return nextNumber++; }

    /// Object `number` is no longer used: it is written as null.
    void remove(int number) { removed.insert(number); }


    std::string assemble() {
        computeEnds();
        size_t first = original.size();
        for (size_t offset : offsets) {
            if (offset != absent) first = std::min(first, offset);
        }
        std::string out;
        // About the size of Cairo's file: the finishing step adds little.
        out.reserve(original.size() + (original.size() >> 4) + 65536);
        out.append(original.substr(0, first));
        std::vector<size_t> positions(static_cast<size_t>(nextNumber), 0);
        for (int number = 1; number < nextNumber; ++number) {
            auto position = static_cast<size_t>(number);
            auto object = [&](std::string const &body) {
                positions[position] = out.size();
                out += std::to_string(number) + " 0 obj\n" + body + "\nendobj\n";
            };
            if (removed.count(number) > 0) {
                object("null");
            } else if (auto stream = streams.find(number); stream != streams.end()) {
                object(stream->second);
            } else if (auto fresh = added.find(number); fresh != added.end()) {
                object(fresh->second);
            } else if (auto changed = rewritten.find(number); changed != rewritten.end()) {
                auto extra = references.find(number);
                object(extra == references.end() ? changed->second.unparseResolved() : unparseDictionary(changed->second, extra->second));
            } else if (std::string_view copied = span(number); !copied.empty()) {
                positions[position] = out.size();
                out.append(copied);
                if (out.back() != '\n') out += '\n';
            } else {
                object("null");
            }
        }
        size_t xref = out.size();
        std::shared_ptr<QPDFCryptoImpl> md5 = QPDFCryptoProvider::getImpl();
        md5->MD5_init();
        md5->MD5_update(reinterpret_cast<unsigned char const *>(out.data()), out.size());
        md5->MD5_finalize();
        unsigned char digest[16];
        md5->MD5_digest(digest);
        std::string id;
        static char const hex[] = "0123456789abcdef";
        for (unsigned char byte : digest) {
            id += hex[byte >> 4];
            id += hex[byte & 15];
        }
        out += "xref\n0 " + std::to_string(nextNumber) + "\n0000000000 65535 f \n";
        char line[21];
        for (int number = 1; number < nextNumber; ++number) {
            std::snprintf(line, sizeof line, "%010zu 00000 n \n", positions[static_cast<size_t>(number)]);
            out.append(line, 20);
        }
        QPDFObjectHandle trailer = pdf.getTrailer();
        out += "trailer\n<< /Size " + std::to_string(nextNumber) + " /Root " + trailer.getKey("/Root").unparse();
        if (trailer.hasKey("/Info")) out += " /Info " + trailer.getKey("/Info").unparse();
        out += " /ID [<" + id + "><" + id + ">] >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
        return out;
    }

  private:
    QPDF &pdf;
    std::string_view original;
    bool copyable = true;
    int nextNumber = 0;
    /// Where each object starts and ends in `original`, by object number (`absent` for none).
    static constexpr size_t absent = SIZE_MAX;
    std::vector<size_t> offsets;
    std::vector<size_t> ends;

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
    Deflate deflate;
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

void setKids(QPDFObjectHandle node, std::vector<QPDFObjectHandle> const &kids) {
    node.replaceKey("/K", QPDFObjectHandle::newArray(kids));
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
    StructureStream(folio_pdf_finishing const &finishing, FileAssembler &file) : finishing(finishing), file(file) {}

    /// Finishes every element under `treeRoot` (a qpdf object: the root alone is small).
    void run(QPDFObjectHandle treeRoot) {
        std::vector<QPDFObjectHandle> top = kidsOf(treeRoot);
        std::vector<QPDFObjectHandle> kept;
        for (auto &kid : top) {
            int number = kid.isIndirect() ? kid.getObjGen().getObj() : 0;
            Element element = number > 0 ? read(number) : Element{};
            if (element.role.empty() || !visit(element, 1, 0, false)) kept.push_back(kid);
        }
        closeTable();
        if (kept.size() != top.size()) setKids(treeRoot, kept);
        file.rewrite(treeRoot);
        if (figures != finishing.figure_count) {
            throw std::runtime_error(
                "the structure tree has " + std::to_string(figures) + " figures but " + std::to_string(finishing.figure_count) +
                " were drawn");
        }
        if (tables != finishing.table_count) {
            throw std::runtime_error(
                "the structure tree has " + std::to_string(tables) + " tables but " + std::to_string(finishing.table_count) +
                " were drawn");
        }
    }

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

    folio_pdf_finishing const &finishing;
    FileAssembler &file;
    size_t figures = 0;
    size_t tables = 0;
    size_t links = 0;
    size_t cells = 0;
    size_t spanning = 0;
    /// The open split table: its first part (written when the table ends) and every row of its parts.
    Element tableFirst;
    std::vector<std::string> tableRows;

    Element read(int number) {
        Element element;
        element.number = number;
        element.text = std::string(file.body(number));
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
        std::string kids = "[";
        for (auto const &row : tableRows) kids += " " + row;
        kids += " ]";
        folio_text::setEntry(tableFirst.text, "/K", kids);
        file.replaceBody(tableFirst.number, tableFirst.text);
        tableFirst = Element{};
        tableRows.clear();
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
            if (figures < finishing.figure_count && finishing.figure_alternatives[figures] != nullptr) {
                folio_text::setEntry(element.text, "/Alt", QPDFObjectHandle::newUnicodeString(finishing.figure_alternatives[figures]).unparse());
                changed = true;
            }
            ++figures;
        } else if (role == "/Link") {
            // A link's text is drawn in the Span before it (Cairo marks content only in leaf
            // elements), so the Link element says what it links: the link's own words.
            if (links < finishing.link_count && finishing.link_descriptions[links] != nullptr) {
                folio_text::setEntry(element.text, "/Alt", QPDFObjectHandle::newUnicodeString(finishing.link_descriptions[links]).unparse());
                changed = true;
            }
            ++links;
        } else if (role == "/TH" || role == "/TD") {
            std::string attributes;
            if (role == "/TH") attributes += std::string(" /Scope ") + (rowOfHeaders ? "/Column" : "/Row");
            // A cell across columns says so, so that every row fills the table's grid.
            while (spanning < finishing.spanning_count && finishing.spanning_cells[spanning] < cells) ++spanning;
            if (spanning < finishing.spanning_count && finishing.spanning_cells[spanning] == cells) {
                attributes += " /ColSpan " + std::to_string(finishing.spanning_columns[spanning]);
            }
            ++cells;
            if (!attributes.empty()) {
                folio_text::setEntry(element.text, "/A", "<< /O /Table" + attributes + " >>");
                changed = true;
            }
        } else if (role == "/Table") {
            bool continues = tables < finishing.table_count && finishing.table_continues[tables] != 0;
            ++tables;
            if (continues && tableFirst.number != 0) {
                removed = true;
                movedTo = tableFirst.number;
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
            file.remove(element.number);
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
        if (changed) file.replaceBody(element.number, element.text);
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
/// CIDToGIDMap.
void finishPages(QPDF &pdf, folio_pdf_finishing const &finishing, FileAssembler &file) {
    size_t links = 0;
    std::set<QPDFObjGen> visitedResources;
    for (auto &page : QPDFPageDocumentHelper(pdf).getAllPages()) {
        QPDFObjectHandle object = page.getObjectHandle();
        finishFonts(object.getKey("/Resources"), visitedResources, file);
        if (finishing.tagged) object.replaceKey("/Tabs", QPDFObjectHandle::newName("/S"));
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
                if (!hasName(annotation, "/Subtype", "/Link")) continue;
                if (links < finishing.link_count && finishing.link_descriptions[links] != nullptr) {
                    annotation.replaceKey("/Contents", QPDFObjectHandle::newUnicodeString(finishing.link_descriptions[links]));
                }
                // Printable, as PDF/A (6.3.2) asks and Matterhorn 28 checks: a link prints as it shows.
                annotation.replaceKey("/F", QPDFObjectHandle::newInteger(4));
                file.rewrite(annotation);
                ++links;
            }
        }
        if (finishing.tagged) markArtifacts(page, file);
    }
    if (links != finishing.link_count) {
        throw std::runtime_error(
            "the pages have " + std::to_string(links) + " links but " + std::to_string(finishing.link_count) + " were drawn");
    }
}

/// Appends `key` with `value` to a number tree (the structure's parent tree) whose keys are all
/// below `key`: to its rightmost leaf, widening the /Limits on the way down.
void appendToNumberTree(QPDFObjectHandle tree, long long key, QPDFObjectHandle value, FileAssembler &file) {
    QPDFObjectHandle node = tree;
    for (int depth = 0; depth < 32; ++depth) {
        QPDFObjectHandle kids = node.getKey("/Kids");
        if (!kids.isArray() || kids.getArrayNItems() == 0) break;
        QPDFObjectHandle last = kids.getArrayItem(kids.getArrayNItems() - 1);
        if (!last.isDictionary()) break;
        QPDFObjectHandle limits = last.getKey("/Limits");
        if (limits.isArray() && limits.getArrayNItems() == 2) {
            limits.setArrayItem(1, QPDFObjectHandle::newInteger(key));
            file.rewrite(limits);
        }
        file.rewrite(last);
        node = last;
    }
    QPDFObjectHandle numbers = node.getKey("/Nums");
    if (!numbers.isArray()) {
        numbers = QPDFObjectHandle::newArray();
        node.replaceKey("/Nums", numbers);
    }
    numbers.appendItem(QPDFObjectHandle::newInteger(key));
    numbers.appendItem(value);
    file.rewrite(numbers);
    file.rewrite(node);
    file.rewrite(tree);
}

/// The next free key of the structure's parent tree: after /ParentTreeNextKey and after the
/// last key of the tree's rightmost leaf (keys are sorted).
long long nextParentTreeKey(QPDFObjectHandle treeRoot) {
    long long next = 0;
    QPDFObjectHandle declared = treeRoot.getKey("/ParentTreeNextKey");
    if (declared.isInteger()) next = declared.getIntValue();
    QPDFObjectHandle node = treeRoot.getKey("/ParentTree");
    for (int depth = 0; depth < 32 && node.isDictionary(); ++depth) {
        QPDFObjectHandle kids = node.getKey("/Kids");
        if (!kids.isArray() || kids.getArrayNItems() == 0) break;
        node = kids.getArrayItem(kids.getArrayNItems() - 1);
    }
    QPDFObjectHandle numbers = node.isDictionary() ? node.getKey("/Nums") : QPDFObjectHandle::newNull();
    for (int index = 0; numbers.isArray() && index + 1 < numbers.getArrayNItems(); index += 2) {
        QPDFObjectHandle key = numbers.getArrayItem(index);
        if (key.isInteger() && key.getIntValue() >= next) next = key.getIntValue() + 1;
    }
    return next;
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
/// (PDF/UA-1 7.18.4) at the end of the document's structure, found through the parent tree.
/// Returns the hexadecimal marker the placeholder starts with.
std::string addSignatureField(QPDF &pdf, folio_pdf_finishing const &finishing, FileAssembler &file) {
    std::vector<QPDFPageObjectHelper> pages = QPDFPageDocumentHelper(pdf).getAllPages();
    if (pages.empty()) throw std::runtime_error("signing: the document has no page");
    QPDFObjectHandle page = pages.front().getObjectHandle();
    std::string description = finishing.signature_description != nullptr ? finishing.signature_description : "Digital signature";
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
    signature.replaceKey("/Contents", QPDFObjectHandle::newString(placeholder));
    signature.replaceKey("/M", QPDFObjectHandle::newString(pdfDate(finishing.signing_time)));
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
    if (finishing.tagged && treeRoot.isDictionary()) {
        // The last element of the document, under the root like every top-level element Cairo writes.
        QPDFObjectHandle parent = treeRoot;
        QPDFObjectHandle element = file.newObject(QPDFObjectHandle::newDictionary());
        element.replaceKey("/Type", QPDFObjectHandle::newName("/StructElem"));
        element.replaceKey("/S", QPDFObjectHandle::newName("/Form"));
        element.replaceKey("/P", parent);
        element.replaceKey("/Pg", page);
        element.replaceKey("/Alt", QPDFObjectHandle::newUnicodeString(description));
        QPDFObjectHandle reference = QPDFObjectHandle::newDictionary();
        reference.replaceKey("/Type", QPDFObjectHandle::newName("/OBJR"));
        reference.replaceKey("/Obj", field);
        reference.replaceKey("/Pg", page);
        element.replaceKey("/K", reference);
        std::vector<QPDFObjectHandle> kids = kidsOf(parent);
        kids.push_back(element);
        setKids(parent, kids);
        long long key = nextParentTreeKey(treeRoot);
        field.replaceKey("/StructParent", QPDFObjectHandle::newInteger(key));
        QPDFObjectHandle parentTree = treeRoot.getKey("/ParentTree");
        if (!parentTree.isDictionary()) {
            parentTree = QPDFObjectHandle::newDictionary();
            treeRoot.replaceKey("/ParentTree", parentTree);
        }
        appendToNumberTree(parentTree, key, element, file);
        treeRoot.replaceKey("/ParentTreeNextKey", QPDFObjectHandle::newInteger(key + 1));
        file.rewrite(parent);
        file.rewrite(treeRoot);
    }

    QPDFObjectHandle catalog = pdf.getRoot();
    QPDFObjectHandle form = catalog.getKey("/AcroForm");
    if (!form.isDictionary()) {
        form = QPDFObjectHandle::newDictionary();
        catalog.replaceKey("/AcroForm", form);
    }
    QPDFObjectHandle fields = form.getKey("/Fields");
    if (!fields.isArray()) {
        fields = QPDFObjectHandle::newArray();
        form.replaceKey("/Fields", fields);
    }
    fields.appendItem(field);
    form.replaceKey("/SigFlags", QPDFObjectHandle::newInteger(3));
    file.rewrite(fields);
    file.rewrite(form);
    return marker;
}

void finishCatalog(QPDF &pdf, folio_pdf_finishing const &finishing, FileAssembler &file) {
    QPDFObjectHandle catalog = pdf.getRoot();
    std::map<std::string, std::string> references;
    if (finishing.language != nullptr && finishing.language[0] != '\0') {
        catalog.replaceKey("/Lang", QPDFObjectHandle::newUnicodeString(finishing.language));
    }
    if (finishing.tagged) {
        QPDFObjectHandle markInfo = QPDFObjectHandle::newDictionary();
        markInfo.replaceKey("/Marked", QPDFObjectHandle::newBool(true));
        catalog.replaceKey("/MarkInfo", markInfo);
    }
    QPDFObjectHandle preferences = QPDFObjectHandle::newDictionary();
    preferences.replaceKey("/DisplayDocTitle", QPDFObjectHandle::newBool(true));
    catalog.replaceKey("/ViewerPreferences", preferences);
    if (finishing.xmp != nullptr) {
        int number = file.reserve();
        QPDFObjectHandle dictionary = QPDFObjectHandle::newDictionary();
        dictionary.replaceKey("/Type", QPDFObjectHandle::newName("/Metadata"));
        dictionary.replaceKey("/Subtype", QPDFObjectHandle::newName("/XML"));
        file.replaceStream(number, dictionary, std::string(finishing.xmp, finishing.xmp_length), false);
        references["/Metadata"] = FileAssembler::referenceTo(number);
    }
    if (finishing.icc_profile != nullptr) {
        std::string profileBytes(reinterpret_cast<char const *>(finishing.icc_profile), finishing.icc_profile_length);
        int profileNumber = file.reserve();
        QPDFObjectHandle dictionary = QPDFObjectHandle::newDictionary();
        dictionary.replaceKey("/N", QPDFObjectHandle::newInteger(3));
        file.replaceStream(profileNumber, dictionary, profileBytes);
        QPDFObjectHandle intent = QPDFObjectHandle::newDictionary();
        intent.replaceKey("/Type", QPDFObjectHandle::newName("/OutputIntent"));
        intent.replaceKey("/S", QPDFObjectHandle::newName("/GTS_PDFA1"));
        std::string condition = finishing.output_condition != nullptr ? finishing.output_condition : "sRGB";
        intent.replaceKey("/OutputConditionIdentifier", QPDFObjectHandle::newUnicodeString(condition));
        intent.replaceKey("/Info", QPDFObjectHandle::newUnicodeString(condition));
        int intentNumber = file.reserve();
        file.add(intentNumber, intent, {{"/DestOutputProfile", FileAssembler::referenceTo(profileNumber)}});
        references["/OutputIntents"] = "[ " + FileAssembler::referenceTo(intentNumber) + " ]";
    }
    file.rewrite(catalog, references);
}

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
std::string encrypted(std::string const &finished, folio_pdf_finishing const &finishing) {
    QPDF document;
    document.setSuppressWarnings(true);
    document.processMemoryFile("finished PDF", finished.data(), finished.size());
    QPDFWriter writer(document);
    writer.setR6EncryptionParameters(
        finishing.user_password, finishing.owner_password != nullptr ? finishing.owner_password : "", true,
        finishing.allow_copy != 0, finishing.allow_modify != 0, finishing.allow_annotate != 0, finishing.allow_annotate != 0,
        finishing.allow_modify != 0, finishing.allow_print != 0 ? qpdf_r3p_full : qpdf_r3p_none, true);
    return writtenPlainly(writer);
}

void copyMessage(std::string const &text, char *message, size_t capacity) {
    if (message == nullptr || capacity == 0) return;
    std::string line = text.substr(0, text.find('\n'));
    size_t count = line.size() < capacity - 1 ? line.size() : capacity - 1;
    std::memcpy(message, line.data(), count);
    message[count] = '\0';
}

} // namespace

extern "C" int folio_pdf_finish(
    const folio_pdf_finishing *finishing, const unsigned char *pdf, size_t length, folio_pdf_output **output, char *message,
    size_t message_capacity) {
    try {
        // Only the rewritten page content is compressed again (the rest is copied as it is):
        // the fastest level keeps the finishing step a small part of a render.
        Pl_Flate::setCompressionLevel(1);
        std::string_view cairo(reinterpret_cast<char const *>(pdf), length);
        auto document = std::make_unique<QPDF>();
        document->setSuppressWarnings(true);
        document->processMemoryFile("Cairo output", cairo.data(), cairo.size());
        auto assembler = std::make_unique<FileAssembler>(*document, cairo);
        // A file that cannot be copied object by object (object streams, generations) is first
        // written plainly by qpdf. Cairo's files never need it.
        std::string plain;
        if (!assembler->canCopy()) {
            plain = plainCopy(*document);
            document = std::make_unique<QPDF>();
            document->setSuppressWarnings(true);
            document->processMemoryFile("Cairo output, rewritten", plain.data(), plain.size());
            assembler = std::make_unique<FileAssembler>(*document, plain);
            if (!assembler->canCopy()) throw std::runtime_error("the PDF cannot be finished object by object");
        }
        FileAssembler &file = *assembler;
        if (finishing->tagged) {
            QPDFObjectHandle treeRoot = document->getRoot().getKey("/StructTreeRoot");
            if (treeRoot.isDictionary()) StructureStream(*finishing, file).run(treeRoot);
        }
        finishPages(*document, *finishing, file);
        std::string marker = finishing->signer != nullptr ? addSignatureField(*document, *finishing, file) : "";
        finishCatalog(*document, *finishing, file);
        auto finished = std::make_unique<folio_pdf_output>();
        finished->bytes = file.assemble();
        assembler.reset();
        document.reset();
        // Encryption changes every string and stream: the finished file is written again by qpdf.
        if (finishing->user_password != nullptr) finished->bytes = encrypted(finished->bytes, *finishing);
        if (finishing->signer != nullptr) folio_signing::signInPlace(*finishing->signer, finished->bytes, marker);
        *output = finished.release();
        return 0;
    } catch (std::exception &error) {
        copyMessage(error.what(), message, message_capacity);
        return 1;
    } catch (...) {
        copyMessage("qpdf failed", message, message_capacity);
        return 1;
    }
}

extern "C" const unsigned char *folio_pdf_output_bytes(const folio_pdf_output *output) {
    return reinterpret_cast<unsigned char const *>(output->bytes.data());
}

extern "C" size_t folio_pdf_output_length(const folio_pdf_output *output) { return output->bytes.size(); }

extern "C" void folio_pdf_output_free(folio_pdf_output *output) { delete output; }
