// A picture's image object as Cairo writes it, made once and written into many documents, and the
// placeholders documents draw in its place.
#ifndef FOLIO_STORED_PICTURE_HH
#define FOLIO_STORED_PICTURE_HH

// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif
#include "ImportedDocument.hh"

#include <qpdf/Buffer.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjectHandle.hh>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

/// An image XObject as Cairo wrote it for a picture, and its soft mask when it has one: each
/// dictionary's entries as PDF text (without /Length and /SMask) and its stream's bytes as written
/// (compressed). Or a page of a PDF made elsewhere (`imported`), whose Form XObject stands in
/// for the placeholder. Immutable once made, so any number of threads may write it.
struct folio_pdf_picture {
    /// The document whose chosen page `importedPage` (from 0) this picture shows, or none.
    std::shared_ptr<folio_finish::ImportedDocument const> imported;
    size_t importedPage = 0;
    std::string entries;
    std::string data;
    std::optional<std::string> maskEntries;
    std::string maskData;

    /// The picture of `pdf`, a one-page PDF Cairo wrote with the picture drawn alone; throws when
    /// the file does not hold exactly one image (and its soft mask).
    static folio_pdf_picture read(std::string_view pdf) {
        QPDF document;
        document.setSuppressWarnings(true);
        document.processMemoryFile("picture", pdf.data(), pdf.size());
        std::vector<QPDFObjectHandle> images;
        for (auto &object : document.getAllObjects()) {
            if (!object.isStream()) continue;
            QPDFObjectHandle subtype = object.getDict().getKey("/Subtype");
            if (subtype.isName() && subtype.getName() == "/Image") images.push_back(object);
        }
        if (images.empty() || images.size() > 2) throw std::runtime_error("the picture's PDF does not hold one image");
        QPDFObjectHandle image = images.front();
        QPDFObjectHandle mask;
        bool masked = false;
        for (auto &candidate : images) {
            QPDFObjectHandle softMask = candidate.getDict().getKey("/SMask");
            if (softMask.isStream()) {
                image = candidate;
                mask = softMask;
                masked = true;
            }
        }
        if (images.size() != (masked ? 2u : 1u)) throw std::runtime_error("the picture's PDF does not hold one image and its mask");
        folio_pdf_picture picture;
        picture.entries = entriesOf(image.getDict());
        picture.data = rawData(image);
        if (masked) {
            picture.maskEntries = entriesOf(mask.getDict());
            picture.maskData = rawData(mask);
        }
        return picture;
    }

    /// The bytes this picture holds.
    size_t size() const { return (imported ? imported->size() : 0) + entries.size() + data.size() + (maskEntries ? maskEntries->size() : 0) + maskData.size(); }

    /// The number (from 1) of the picture a stream object's text (`text`, between `obj` and
    /// `endobj`) is the placeholder of, or 0: a JPEG (DCTDecode) whose data starts with a comment
    /// holding `marker` and the number. Only the dictionary and the data's first bytes are looked
    /// at: every object of a part passes here.
    static size_t placeholderNumber(std::string_view text, std::string_view marker) {
        if (marker.empty()) return 0;
        size_t streamStart = text.substr(0, std::min<size_t>(text.size(), 2048)).find("stream");
        if (streamStart == std::string_view::npos || text.substr(0, streamStart).find("/DCTDecode") == std::string_view::npos) return 0;
        std::string_view head = text.substr(streamStart, 64 + marker.size());
        size_t found = head.find(marker);
        if (found == std::string_view::npos) return 0;
        size_t number = 0;
        for (size_t position = found + marker.size(); position < head.size() && head[position] >= '0' && head[position] <= '9';
             ++position) {
            if (number > 1'000'000) return 0;
            number = number * 10 + static_cast<size_t>(head[position] - '0');
        }
        return number;
    }

  private:
    /// The entries of `dictionary` but /Length and /SMask, as PDF text.
    static std::string entriesOf(QPDFObjectHandle dictionary) {
        std::string text;
        for (auto const &key : dictionary.getKeys()) {
            if (key == "/Length" || key == "/SMask") continue;
            QPDFObjectHandle value = dictionary.getKey(key);
            if (value.isIndirect()) throw std::runtime_error("a picture's dictionary refers to another object");
            text += " " + QPDFObjectHandle::newName(key).unparse() + " " + value.unparse();
        }
        return text;
    }

    static std::string rawData(QPDFObjectHandle stream) {
        std::shared_ptr<Buffer> data = stream.getRawStreamData();
        return std::string(reinterpret_cast<char const *>(data->getBuffer()), data->getSize());
    }
};

#endif
