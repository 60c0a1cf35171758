// One part of a document, as Cairo wrote it, copied into the finished file.
#ifndef FOLIO_FILE_ASSEMBLER_HH
#define FOLIO_FILE_ASSEMBLER_HH

// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif
#include "Deflate.hh"
#include "DocumentWriter.hh"
#include "PDFObjectText.hh"
#include "StoredPicture.hh"

#include <qpdf/Buffer.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjectHandle.hh>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace folio_finish {

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
        fates.assign(offsets.size(), Fate::undecided);
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
            if (offsets[number] != absent && fates[number] == Fate::undecided) {
                numbers[number] = writer.allocate();
                fates[number] = Fate::written;
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
        fates.push_back(Fate::elsewhere);
        return local;
    }

    /// Object `number` is written elsewhere (by the structure pass, once a table that continues into
    /// later parts ends): not by this part.
    void skip(int number) {
        if (number > 0 && static_cast<size_t>(number) < fates.size()) fates[static_cast<size_t>(number)] = Fate::elsewhere;
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
        streams[number] = streamText(dictionary, data.data(), data.size(), compress);
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
        fates.push_back(Fate::written);
        return number;
    }

    /// Writes the pictures of `part` in place of their placeholders (see `folio_pdf_part`).
    void usePictures(folio_pdf_part const &part) {
        pictureMarker = part.picture_marker == nullptr ? std::string_view() : std::string_view(part.picture_marker);
        pictures = part.pictures;
        pictureCount = part.pictures == nullptr ? 0 : part.picture_count;
    }

    /// Object `number` is no longer used: it is written as null.
    void remove(int number) { removed.insert(number); }

    /// References to this part's object `from` become references to its object `to` (an element
    /// merged into its parent); the number `from` had in the finished file is written as null.
    void redirect(int from, int to) {
        auto position = static_cast<size_t>(from);
        if (from <= 0 || to <= 0 || position >= numbers.size() || static_cast<size_t>(to) >= numbers.size()) return;
        if (numbers[position] != 0 && fates[position] == Fate::written) vacated.push_back(numbers[position]);
        numbers[position] = numbers[static_cast<size_t>(to)];
        fates[position] = Fate::elsewhere;
    }

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
        for (int output : vacated) writer.write(output, "null");
        for (int number = 1; number < nextNumber; ++number) {
            auto position = static_cast<size_t>(number);
            if (fates[position] != Fate::written || numbers[position] == 0) continue;
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
                std::string changed;
                if (size_t picture = folio_pdf_picture::placeholderNumber(copied, pictureMarker); picture > 0) {
                    if (writeImportedPage(output, picture)) continue;
                    changed = storedPicture(picture);
                    copied = changed;
                } else if (archival() && withoutInterpolation(copied, changed)) {
                    copied = changed;
                } else if (isUncompressedStream(copied)) {
                    changed = compressedCopy(number);
                    copied = changed;
                } else if (withIdentityMap(copied, changed)) {
                    copied = changed;
                }
                writer.writeRenumbered(output, copied, numbers);
            } else {
                writer.write(output, "null");
            }
        }
    }

    /// Gives an embedded TrueType CID font an explicit `/CIDToGIDMap /Identity` (ISO 14289-1
    /// 7.21.3.2, ISO 19005-2 6.2.11.3.2; Matterhorn 31-008): Cairo numbers a subset's glyphs as its
    /// CIDs, so the map is the identity, but Cairo leaves the entry out. True, with the font's
    /// dictionary in `font`, when `text` (an object's text) is such a font without the entry.
    static bool withIdentityMap(std::string_view text, std::string &font) {
        if (text.find("/CIDFontType2") == std::string_view::npos || text.find("stream") != std::string_view::npos) return false;
        font = std::string(text);
        size_t closing = 0;
        std::vector<folio_text::Entry> entries = folio_text::entries(font, closing);
        folio_text::Entry const *subtype = folio_text::find(entries, "/Subtype");
        if (subtype == nullptr || font.compare(subtype->valueStart, subtype->end - subtype->valueStart, "/CIDFontType2") != 0) return false;
        if (folio_text::find(entries, "/CIDToGIDMap") != nullptr) return false;
        folio_text::setEntry(font, "/CIDToGIDMap", "/Identity");
        return true;
    }

    /// Whether `text` (an object's text) is a stream written without a filter: Cairo leaves its
    /// streams uncompressed when `CAIRO_DEBUG_PDF` is set (`PDFRenderer.compressStreamsOnce`), so
    /// that content is compressed once, here, not compressed, inflated and compressed again.
    static bool isUncompressedStream(std::string_view text) {
        size_t last = text.find_last_not_of(" \t\r\n");
        constexpr std::string_view keyword = "endstream";
        if (last == std::string_view::npos || last + 1 < keyword.size() || text.substr(last + 1 - keyword.size(), keyword.size()) != keyword) {
            return false;
        }
        try {
            size_t closing = 0;
            return folio_text::find(folio_text::entries(text, closing), "/Filter") == nullptr;
        } catch (std::runtime_error const &) {
            return false;
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
    /// What becomes of each object: not numbered yet, written by this part, or written elsewhere or
    /// not at all (dropped, stood for by a document-wide object, a table finished in a later part).
    enum class Fate : unsigned char { undecided, written, elsewhere };
    /// Each object's number in the finished file (0: none) and its fate, by this part's number.
    std::vector<int> numbers;
    std::vector<Fate> fates;

    void decide(int number, int output) {
        if (number <= 0 || static_cast<size_t>(number) >= numbers.size()) return;
        numbers[static_cast<size_t>(number)] = output;
        fates[static_cast<size_t>(number)] = Fate::elsewhere;
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
    /// Numbers of the finished file whose objects were merged into others (`redirect`): written as null.
    std::vector<int> vacated;

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

    /// The text of a stream object with `dictionary` (written as it is, with /Length and /Filter
    /// set here) and the `length` bytes at `data`, compressed unless `compress` is false.
    std::string streamText(QPDFObjectHandle dictionary, void const *data, size_t length, bool compress) {
        std::string body = compress ? deflate.compress(data, length) : std::string(static_cast<char const *>(data), length);
        dictionary.replaceKey("/Length", QPDFObjectHandle::newInteger(static_cast<long long>(body.size())));
        if (compress) dictionary.replaceKey("/Filter", QPDFObjectHandle::newName("/FlateDecode"));
        else dictionary.removeKey("/Filter");
        dictionary.removeKey("/DecodeParms");
        return dictionary.unparse() + "\nstream\n" + body + "\nendstream";
    }

    /// Stored picture `number` (from 1) as an image object's text, its soft mask (when it has one)
    /// a new object of this part.
    std::string storedPicture(size_t number) {
        if (number > pictureCount || pictures[number - 1] == nullptr) throw std::runtime_error("a picture placeholder names no picture");
        folio_pdf_picture const &stored = *pictures[number - 1];
        std::string text = "<<" + stored.entries;
        if (stored.maskEntries) {
            int mask = reserve();
            std::string maskText = "<<" + *stored.maskEntries + " /Length " + std::to_string(stored.maskData.size()) + " >>\nstream\n" +
                                   stored.maskData + "\nendstream";
            if (archival()) withoutInterpolation(maskText, maskText);
            replaceBody(mask, std::move(maskText));
            text += " /SMask " + referenceTo(mask);
        }
        text.reserve(text.size() + stored.data.size() + 48);
        text += " /Length " + std::to_string(stored.data.size()) + " >>\nstream\n";
        text += stored.data;
        text += "\nendstream";
        if (archival()) withoutInterpolation(text, text);
        return text;
    }

    /// Writes, as object `output`, the Form XObject of the appended PDF's page that picture `number`
    /// (from 1) is, and the objects of that PDF it needs that the file does not have yet; false when
    /// the picture is no such page.
    bool writeImportedPage(int output, size_t number) {
        if (number > pictureCount || pictures[number - 1] == nullptr) throw std::runtime_error("a picture placeholder names no picture");
        folio_pdf_picture const &stored = *pictures[number - 1];
        if (!stored.imported) return false;
        ImportedDocument const &document = *stored.imported;
        if (stored.importedPage >= document.pages().size()) throw std::runtime_error("an appended page that was not chosen");
        std::vector<int> &numbers = writer.importedNumbers[stored.imported];
        if (numbers.empty()) numbers.assign(document.objectSlots(), 0);
        ImportedDocument::Page const &page = document.pages()[stored.importedPage];
        std::vector<int> fresh;
        for (int local : page.closure) {
            auto index = static_cast<size_t>(local);
            if (local == page.form || index >= numbers.size() || numbers[index] != 0) continue;
            numbers[index] = writer.allocate();
            fresh.push_back(local);
        }
        std::string changed;
        for (int local : fresh) {
            std::string_view text = document.object(local);
            if (archival() && withoutInterpolation(text, changed)) text = changed;
            writer.writeRenumbered(numbers[static_cast<size_t>(local)], text, numbers);
        }
        writer.writeRenumbered(output, document.object(page.form), numbers);
        return true;
    }

    /// Whether the document is PDF/A (it has an output intent's profile).
    bool archival() const { return writer.finishing.iccProfile.has_value(); }

    /// PDF/A-2 (ISO 19005-2, 6.2.8) lets no image ask for interpolation, and Cairo asks for it
    /// (/Interpolate true) on every picture it draws with its good filter. True, with the object's
    /// text in `image`, when `text` (an object's text) is an image whose dictionary asks for it.
    static bool withoutInterpolation(std::string_view text, std::string &image) {
        constexpr std::string_view key = "/Interpolate true";
        std::string_view dictionary = text.substr(0, std::min(text.find("stream"), text.size()));
        size_t found = dictionary.find(key);
        if (found == std::string_view::npos || dictionary.find("/Image") == std::string_view::npos) return false;
        std::string result(text);
        result.replace(found, key.size(), "/Interpolate false");
        image = std::move(result);
        return true;
    }

    /// Stream object `number` (without a filter) with its data compressed.
    std::string compressedCopy(int number) {
        QPDFObjectHandle stream = pdf.getObject(number, 0);
        if (!stream.isStream()) throw std::runtime_error("object " + std::to_string(number) + " is not the stream its text is");
        std::shared_ptr<Buffer> data = stream.getRawStreamData();
        return streamText(stream.getDict().shallowCopy(), data->getBuffer(), data->getSize(), true);
    }

    /// Where the last cross-reference section starts (the end of the last object).
    size_t xrefOffset() const {
        size_t start = original.rfind("startxref");
        if (start == std::string_view::npos) throw std::runtime_error("no startxref");
        size_t value = std::strtoull(std::string(original.substr(start + 9, 24)).c_str(), nullptr, 10);
        if (value == 0 || value > original.size()) throw std::runtime_error("bad startxref");
        return value;
    }

    /// The placeholders' marker and the pictures they stand for (`usePictures`).
    std::string_view pictureMarker;
    folio_pdf_picture const *const *pictures = nullptr;
    size_t pictureCount = 0;

  public:
    /// The compressor for page content, also used to read it.
    Deflate &deflate;
};

} // namespace folio_finish

#endif
