// The finished file, written as the parts of a document arrive.
#ifndef FOLIO_DOCUMENT_WRITER_HH
#define FOLIO_DOCUMENT_WRITER_HH

// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif
#include "Deflate.hh"
#include "Finishing.hh"
#include "ImportedDocument.hh"
#include "PDFObjectText.hh"
#include "PDFOutput.hh"
#include "PDFSigning.hh"
#include "QPDFRewriting.hh"

#include <qpdf/QPDFObjectHandle.hh>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <unistd.h>

namespace folio_finish {

/// `value` as a PDF number: at most four decimals, without trailing zeros ("0", "791.8898"). Written
/// with `std::to_chars`, which no locale changes (printf's `%f` would write "791,8898" in a process
/// whose LC_NUMERIC is German).
inline std::string pdfNumber(double value) {
    if (!(value > -1e9 && value < 1e9)) value = 0;
    char text[32];
    auto written = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, 4);
    if (written.ec != std::errc()) return "0";
    std::string number(text, written.ptr);
    while (!number.empty() && number.back() == '0') number.pop_back();
    if (!number.empty() && number.back() == '.') number.pop_back();
    return number == "-0" ? "0" : number;
}

/// `text` as a PDF string (UTF-16 with a byte-order mark when it is not plain ASCII).
inline std::string pdfText(std::string const &text) { return QPDFObjectHandle::newUnicodeString(text).unparse(); }


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
            if (signatureElement != 0) addTopLevelKid(folio_text::reference(signatureElement));
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
            // One Document element holds every top-level element (PDF/UA-2 and WTPDF expect it; PDF/UA-1 allows it).
            int document = documentElement();
            std::string documentText = "<< /Type /StructElem /S /Document /P " + folio_text::reference(structureRoot);
            if (!finishing.language.empty()) documentText += " /Lang " + pdfText(finishing.language);
            write(document, documentText + " /K [" + topLevelKids + " ] >>");
            write(structureRoot, "<< /Type /StructTreeRoot /K [ " + folio_text::reference(document) + " ] /ParentTree " +
                                     folio_text::reference(parentTree) + " /ParentTreeNextKey " + std::to_string(nextKey) + " >>");
            catalog += " /StructTreeRoot " + folio_text::reference(structureRoot);
        }
        if (outlineCount > 0) catalog += " /Outlines " + folio_text::reference(writeOutlines(outlines, outlineCount));
        std::string names;
        if (!destinations.empty()) names += " /Dests " + folio_text::reference(writeDestinations());
        if (!finishing.attachments.empty()) {
            auto [files, associated] = writeAttachments();
            names += " /EmbeddedFiles " + folio_text::reference(files);
            catalog += " /AF [" + associated + " ]";
        }
        if (!names.empty()) catalog += " /Names <<" + names + " >>";
        if (!pageLabels.empty()) {
            std::string nums;
            // The number tree must give page 0 a label (ISO 32000-1, 12.4.2): pages before the first
            // labelled section are numbered 1, 2, … as they would be without labels.
            if (pageLabels.front().first != 0) nums += " 0 << /S /D >>";
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
        if (finishing.outputFD >= 0) spill();
        auto finished = std::make_unique<folio_pdf_output>();
        finished->written = output.written;
        std::swap(finished->data, output.data);
        std::swap(finished->size, output.size);
        std::swap(finished->capacity, output.capacity);
        // Encryption changes every string and stream: the finished file is written again by qpdf.
        if (finishing.userPassword) finished->assign(encrypted(finished->data, finished->size, finishing));
        if (finishing.signer != nullptr) {
            folio_signing::signInPlace(*finishing.signer, finished->data, finished->size, signatureMarker, finished->sha256);
            finished->hasSHA256 = true;
        }
        return finished;
    }

    Finishing const &finishing;
    /// The page tree's root and the structure tree's root (written at the end).
    int pagesRoot = 0;
    int structureRoot = 0;
    /// Every page, in order.
    std::vector<int> pages;
    /// Whether any part has a structure tree, and its top-level elements (" 12 0 R 13 0 R"), in
    /// order: one string, a few bytes an element (a long document has tens of thousands).
    bool structured = false;
    std::string topLevelKids;

    /// The Document element under the structure tree's root, which every element a part writes at its
    /// top hangs under (each part's root stands for it); numbered when the first part has a structure tree.
    int documentElement() {
        if (documentNumber == 0) documentNumber = allocate();
        return documentNumber;
    }

    /// Adds a top-level element of the structure tree (its reference, "12 0 R"): a kid of the Document element.
    void addTopLevelKid(std::string const &kid) {
        topLevelKids += ' ';
        topLevelKids += kid;
    }
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
    /// How many Note elements the document has so far (each gets the /ID `note-N`).
    int noteCount = 0;
    /// Each appended PDF's objects' numbers in the finished file (0: not written yet), by local
    /// number: an appended PDF's fonts and images are written once however many of its pages are shown.
    std::map<std::shared_ptr<ImportedDocument const>, std::vector<int>> importedNumbers;

  private:
    folio_pdf_output output;
    bool started = false;
    int nextNumber = 1;
    int documentNumber = 0;
    /// Where each object is, by number, in one word (a long document has millions of objects):
    /// 0 not written; `offset << 2 | 1` written at `offset` of `output`; `(stream << 16 | index) << 2 | 2`
    /// the `index`th object of object stream `stream`.
    std::vector<uint64_t> locations;
    std::vector<std::tuple<long long, long long, int>> parentTreeLeaves;
    std::string scratch;
    /// The object stream being filled: its objects' numbers, its index ("number offset …") and its objects.
    std::vector<int> pendingNumbers;
    std::string pendingIndex;
    std::string pendingObjects;
    /// Objects that must not go into an object stream (1), by number.
    std::vector<unsigned char> keptPlain;

    /// `number 0 obj … endobj` in the file.
    void writePlain(int number, std::string_view body) {
        record(number);
        output.append(std::to_string(number));
        output.append(" 0 obj\n");
        output.append(body);
        output.append("\nendobj\n");
        if (finishing.outputFD >= 0 && output.size >= spillSize) spill();
    }

    /// Bytes kept before they are written to the output descriptor.
    static constexpr size_t spillSize = 1 << 20;

    /// Writes the bytes made so far to the output descriptor (and gives them to `absorb`), so memory
    /// holds at most about `spillSize` of the file.
    void spill() {
        size_t done = 0;
        while (done < output.size) {
            ssize_t count = ::write(finishing.outputFD, output.data + done, output.size - done);
            if (count < 0) {
                if (errno == EINTR) continue;
                throw std::runtime_error(std::string("cannot write the PDF: ") + std::strerror(errno));
            }
            done += static_cast<size_t>(count);
        }
        // Bytes `identify` was given already are not given again.
        finishing.absorb(
            finishing.identifyContext, reinterpret_cast<unsigned char const *>(output.data) + identified, output.size - identified);
        output.written += output.size;
        output.size = 0;
        identified = 0;
    }

    /// How many of the bytes held were handed to `identify` (the end of the body, once it is written).
    size_t identified = 0;

    /// Where the next byte of the file goes: the bytes written out and those held.
    uint64_t offset() const { return static_cast<uint64_t>(output.written) + output.size; }

    /// Writes the pending objects as one compressed object stream (ISO 32000-1, 7.5.7).
    void flushObjectStream() {
        if (pendingNumbers.empty()) return;
        int stream = allocate();
        std::string data = pendingIndex + pendingObjects;
        std::string packed = deflate.compress(data);
        writePlain(stream, "<< /Type /ObjStm /N " + std::to_string(pendingNumbers.size()) + " /First " +
                               std::to_string(pendingIndex.size()) + " /Length " + std::to_string(packed.size()) +
                               " /Filter /FlateDecode >>\nstream\n" + packed + "\nendstream");
        for (size_t index = 0; index < pendingNumbers.size(); ++index) {
            locate(pendingNumbers[index], ((static_cast<uint64_t>(stream) << 16 | index) << 2) | 2);
        }
        pendingNumbers.clear();
        pendingIndex.clear();
        pendingObjects.clear();
    }

    void record(int number) {
        if (!started) throw std::logic_error("an object before the file's header");
        if (number <= 0 || number >= nextNumber) throw std::logic_error("an object number that was not allocated");
        locate(number, (offset() << 2) | 1);
    }

    void locate(int number, uint64_t location) {
        auto index = static_cast<size_t>(number);
        if (locations.size() <= index) locations.resize(std::max(index + 1, locations.size() + locations.size() / 2 + 1024), 0);
        locations[index] = location;
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

    /// The attached files: each an embedded file stream (compressed, with its MIME type, size, dates
    /// and MD5 checksum) and a file specification with its relationship and description. The number
    /// of the name tree listing them by name, and the references for the catalog's /AF.
    std::pair<int, std::string> writeAttachments() {
        std::vector<std::pair<std::string, int>> byName;
        std::string associated;
        static char const hex[] = "0123456789abcdef";
        for (AttachedFile const &file : finishing.attachments) {
            std::string checksum;
            for (unsigned char byte : file.checksum) {
                checksum += hex[byte >> 4];
                checksum += hex[byte & 15];
            }
            std::string compressed = deflate.compress(file.bytes);
            int stream = allocate();
            write(stream, "<< /Type /EmbeddedFile /Subtype " + QPDFObjectHandle::newName("/" + file.mimeType).unparse() +
                              " /Params << /Size " + std::to_string(file.bytes.size()) + " /CreationDate " + pdfText(file.date) +
                              " /ModDate " + pdfText(file.date) + " /CheckSum <" + checksum + "> >> /Length " +
                              std::to_string(compressed.size()) + " /Filter /FlateDecode >>\nstream\n" + compressed + "\nendstream");
            // /F in plain bytes for old readers, /UF the name as written.
            std::string plain = file.name;
            for (char &byte : plain) {
                bool kept = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') || byte == '.' ||
                            byte == '_' || byte == '-';
                if (!kept) byte = '_';
            }
            int specification = allocate();
            write(specification, "<< /Type /Filespec /F " + QPDFObjectHandle::newString(plain).unparse() + " /UF " + pdfText(file.name) +
                                     " /Desc " + pdfText(file.description) + " /AFRelationship " +
                                     QPDFObjectHandle::newName("/" + file.relationship).unparse() + " /EF << /F " +
                                     folio_text::reference(stream) + " /UF " + folio_text::reference(stream) + " >> >>");
            // The name tree is sorted by the keys' bytes as written (PDFDocEncoding or UTF-16).
            byName.emplace_back(QPDFObjectHandle::newUnicodeString(file.name).getStringValue(), specification);
            associated += " " + folio_text::reference(specification);
        }
        std::sort(byName.begin(), byName.end());
        std::string entries;
        for (auto const &[key, specification] : byName) {
            entries += " " + QPDFObjectHandle::newString(key).unparse() + " " + folio_text::reference(specification);
        }
        int tree = allocate();
        write(tree, "<< /Names [" + entries + " ] >>");
        return {tree, associated};
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
    /// is also the trailer, with a deterministic /ID: a digest of the body (`Finishing::identify`,
    /// SHA-256 with the processor's SHA instructions: GLib's MD5 took three times as long).
    void writeTrailer(int root) {
        flushObjectStream();
        int xrefNumber = allocate();
        uint64_t xref = offset();
        unsigned char digest[16] = {};
        finishing.identify(finishing.identifyContext, reinterpret_cast<unsigned char const *>(output.data), output.size, digest);
        identified = output.size;
        std::string id;
        static char const hex[] = "0123456789abcdef";
        for (unsigned char byte : digest) {
            id += hex[byte >> 4];
            id += hex[byte & 15];
        }
        // Each entry: a type byte, five bytes (offset, or object stream number), two bytes (index):
        // eight bytes, written over the object's own location word (a long document has millions).
        locations.resize(static_cast<size_t>(nextNumber), 0);
        for (int number = 0; number < nextNumber; ++number) {
            auto index = static_cast<size_t>(number);
            uint64_t location = locations[index];
            int type = 0;
            uint64_t second = 0;
            uint64_t third = number == 0 ? 65535 : 0;
            if (number == xrefNumber || (location & 3) == 1) {
                type = 1;
                second = number == xrefNumber ? xref : location >> 2;
                third = 0;
            } else if ((location & 3) == 2) {
                type = 2;
                second = location >> 18;
                third = (location >> 2) & 0xFFFF;
            }
            unsigned char bytes[8] = {
                static_cast<unsigned char>(type),          static_cast<unsigned char>(second >> 32),
                static_cast<unsigned char>(second >> 24),  static_cast<unsigned char>(second >> 16),
                static_cast<unsigned char>(second >> 8),   static_cast<unsigned char>(second),
                static_cast<unsigned char>(third >> 8),    static_cast<unsigned char>(third)};
            std::memcpy(&locations[index], bytes, 8);
        }
        std::string packed = deflate.compress(locations.data(), locations.size() * 8);
        locations.clear();
        locations.shrink_to_fit();
        std::string dictionary = "<< /Type /XRef /Size " + std::to_string(nextNumber) + " /W [ 1 5 2 ] /Root " + folio_text::reference(root);
        if (info != 0) dictionary += " /Info " + folio_text::reference(info);
        dictionary += " /ID [<" + id + "><" + id + ">] /Length " + std::to_string(packed.size()) + " /Filter /FlateDecode >>";
        // Not recorded: its entry, written above, says where it starts.
        output.append(std::to_string(xrefNumber) + " 0 obj\n" + dictionary + "\nstream\n");
        output.append(packed);
        output.append("\nendstream\nendobj\n");
        output.append("startxref\n" + std::to_string(xref) + "\n%%EOF\n");
    }
};

} // namespace folio_finish

#endif
