// Folio's PDF finishing step on libqpdf: see include/folio_pdf_finish.h.
// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#define POINTERHOLDER_TRANSITION 4
#include "folio_pdf_finish.h"
#include "ArtifactMarker.hh"
#include "Deflate.hh"
#include "DocumentWriter.hh"
#include "FileAssembler.hh"
#include "ImportedDocument.hh"
#include "Finishing.hh"
#include "ObjectHelpers.hh"
#include "PDFObjectText.hh"
#include "PDFOutput.hh"
#include "PDFSigning.hh"
#include "QPDFRewriting.hh"
#include "StoredPicture.hh"
#include "StructureStream.hh"

#include <qpdf/Buffer.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFExc.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace folio_finish;

namespace {

void copyMessage(std::string const &text, char *message, size_t capacity) {
    if (message == nullptr || capacity == 0) return;
    std::string line = text.substr(0, text.find('\n'));
    size_t count = line.size() < capacity - 1 ? line.size() : capacity - 1;
    std::memcpy(message, line.data(), count);
    message[count] = '\0';
}

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
        std::shared_ptr<Buffer> data = filter.isNull() ? stream.getRawStreamData() : stream.getStreamData(qpdf_dl_generalized);
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

/// Whether the resource dictionary `number` names something twice (or cannot be read as text).
bool hasRepeatedResource(FileAssembler &file, int number) {
    try {
        std::string_view text = file.body(number);
        return text.empty() || folio_text::hasRepeatedKey(text);
    } catch (std::runtime_error const &) {
        return true;
    }
}

/// /Contents on every link annotation, /Tabs /S on every page, artifacts in the content; keys of
/// the parent tree moved by `keyBase` (the part's place in the document's); each page's number in
/// the finished file added to the document's pages. (Fonts get their /CIDToGIDMap as they are
/// copied: `FileAssembler::withIdentityMap`.)
void finishPages(QPDF &pdf, folio_pdf_part const &part, bool tagged, long long keyBase, FileAssembler &file, DocumentWriter &writer) {
    size_t links = 0;
    auto moveKey = [keyBase](QPDFObjectHandle object, char const *key) {
        QPDFObjectHandle value = object.getKey(key);
        if (value.isInteger()) object.replaceKey(key, QPDFObjectHandle::newInteger(value.getIntValue() + keyBase));
    };
    for (auto &page : QPDFPageDocumentHelper(pdf).getAllPages()) {
        QPDFObjectHandle object = page.getObjectHandle();
        if (!object.isIndirect()) throw std::runtime_error("a page that is not an indirect object");
        writer.pages.push_back(file.outputNumber(object.getObjGen().getObj()));
        if (tagged) object.replaceKey("/Tabs", QPDFObjectHandle::newName("/S"));
        moveKey(object, "/StructParents");
        file.rewrite(object);
        // Cairo 1.16 can name one image twice in a resource dictionary; written again by qpdf, the
        // duplicate is gone. Any other is copied as it is (qpdf writing it again costs more than
        // the rest of the page's finishing).
        QPDFObjectHandle resources = object.getKey("/Resources");
        if (resources.isIndirect() && hasRepeatedResource(file, resources.getObjGen().getObj()) && resources.isDictionary()) {
            file.rewrite(resources);
        }
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

    /// Runs `step` and returns 0; after a failure, now or in an earlier step, returns 1 with a
    /// one-line reason in `message`. A failed assembly takes no further step.
    template <typename Step> int attempt(char *message, size_t capacity, Step const &step) {
        if (failed) {
            copyMessage("an earlier part could not be finished", message, capacity);
            return 1;
        }
        try {
            step();
            return 0;
        } catch (std::exception &error) {
            failed = true;
            copyMessage(error.what(), message, capacity);
        } catch (...) {
            failed = true;
            copyMessage("qpdf failed", message, capacity);
        }
        return 1;
    }

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
        file.usePictures(part);
        bool first = writer.pages.empty();

        // The part's document-wide objects are not copied: the document's are written at the end.
        QPDFObjectHandle catalog = document->getRoot();
        file.drop(catalog);
        QPDFObjectHandle info = document->getTrailer().getKey("/Info");
        if (!first) file.drop(info);
        // Cairo writes the Info dictionary's dates without the "D:" a PDF date begins with (ISO 32000-1, 7.9.4).
        if (first && info.isDictionary() && info.isIndirect()) {
            bool dated = false;
            for (char const *key : {"/CreationDate", "/ModDate"}) {
                QPDFObjectHandle value = info.getKey(key);
                if (!value.isString()) continue;
                std::string text = value.getStringValue();
                if (text.rfind("D:", 0) == 0) continue;
                info.replaceKey(key, QPDFObjectHandle::newString("D:" + text));
                dated = true;
            }
            if (dated) file.rewrite(info);
        }
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
            // The part's top-level elements name the document's Document element as their parent.
            file.standFor(treeRoot, writer.documentElement());
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
                for (auto &kid : kidsOf(treeRoot)) writer.addTopLevelKid(file.renumbered(kid.unparse()));
            }
        }
        // The parent tree after the structure pass, which may merge an element into another.
        std::vector<std::pair<long long, std::string>> leaf;
        for (auto &[key, value] : parentTree) {
            if (!key.isInteger() || key.getIntValue() < 0 || key.getIntValue() > (1LL << 40)) throw std::runtime_error("a parent tree key is not a number");
            leaf.emplace_back(key.getIntValue() + keyBase, file.renumbered(value.unparse()));
        }
        std::sort(leaf.begin(), leaf.end(), [](auto const &a, auto const &b) { return a.first < b.first; });
        if (!leaf.empty()) writer.nextKey = std::max(writer.nextKey, leaf.back().first + 1);
        writer.addParentTreeLeaf(leaf);
        if (first && finishing.signer != nullptr) addSignatureField(*document, finishing, file, writer);
        file.emit();
    }
};

extern "C" folio_pdf_assembly *folio_pdf_assembly_create(const folio_pdf_finishing *finishing) {
    try {
        return new folio_pdf_assembly(*finishing);
    } catch (...) {
        return nullptr;
    }
}

extern "C" int folio_pdf_assembly_add(
    folio_pdf_assembly *assembly, const folio_pdf_part *part, const unsigned char *pdf, size_t length, char *message,
    size_t message_capacity) {
    return assembly->attempt(message, message_capacity, [&] {
        assembly->add(*part, std::string_view(reinterpret_cast<char const *>(pdf), length));
    });
}

extern "C" int folio_pdf_assembly_finish(
    folio_pdf_assembly *assembly, const folio_pdf_outline *outlines, size_t outline_count, folio_pdf_output **output,
    char *message, size_t message_capacity) {
    return assembly->attempt(message, message_capacity, [&] {
        assembly->structure.finish();
        *output = assembly->writer.finish(outlines, outline_count).release();
    });
}

extern "C" void folio_pdf_assembly_free(folio_pdf_assembly *assembly) { delete assembly; }

extern "C" const unsigned char *folio_pdf_output_bytes(const folio_pdf_output *output) {
    return reinterpret_cast<unsigned char const *>(output->data);
}

extern "C" size_t folio_pdf_output_length(const folio_pdf_output *output) { return output->size; }

extern "C" size_t folio_pdf_output_written_length(const folio_pdf_output *output) { return output->written; }

extern "C" int folio_pdf_output_sha256(const folio_pdf_output *output, unsigned char digest[32]) {
    if (!output->hasSHA256) return 0;
    std::memcpy(digest, output->sha256, 32);
    return 1;
}

extern "C" void folio_pdf_output_free(folio_pdf_output *output) { delete output; }

extern "C" folio_pdf_picture *folio_pdf_picture_create(const unsigned char *pdf, size_t length) {
    try {
        return new folio_pdf_picture(folio_pdf_picture::read(std::string_view(reinterpret_cast<char const *>(pdf), length)));
    } catch (...) {
        return nullptr;
    }
}

extern "C" size_t folio_pdf_picture_size(const folio_pdf_picture *picture) { return picture->size(); }

extern "C" void folio_pdf_picture_free(folio_pdf_picture *picture) { delete picture; }

struct folio_pdf_import {
    std::shared_ptr<ImportedDocument> document;
};

extern "C" folio_pdf_import *folio_pdf_import_open(
    const unsigned char *pdf, size_t length, size_t maximum_pages, char *message, size_t message_capacity) {
    try {
        auto import = std::make_unique<folio_pdf_import>();
        import->document = std::make_shared<ImportedDocument>(std::string_view(reinterpret_cast<char const *>(pdf), length), maximum_pages);
        return import.release();
    } catch (QPDFExc const &error) {
        // What qpdf met reading an object the checks asked for: said as the file's damage, without qpdf's prefix.
        copyMessage("it is damaged: " + error.getMessageDetail(), message, message_capacity);
    } catch (std::exception const &error) {
        copyMessage(error.what(), message, message_capacity);
    } catch (...) {
        copyMessage("it cannot be read", message, message_capacity);
    }
    return nullptr;
}

extern "C" size_t folio_pdf_import_page_count(const folio_pdf_import *import) { return import->document->pageCount(); }

extern "C" int folio_pdf_import_choose(
    folio_pdf_import *import, const size_t *pages, size_t count, int require_embedded_fonts, char *message, size_t message_capacity) {
    try {
        import->document->choose(std::vector<size_t>(pages, pages + count), require_embedded_fonts != 0);
        return 0;
    } catch (QPDFExc const &error) {
        copyMessage("it is damaged: " + error.getMessageDetail(), message, message_capacity);
    } catch (std::exception const &error) {
        copyMessage(error.what(), message, message_capacity);
    } catch (...) {
        copyMessage("its pages cannot be read", message, message_capacity);
    }
    return 1;
}

extern "C" void folio_pdf_import_page_size(const folio_pdf_import *import, size_t index, double *width, double *height) {
    auto const &pages = import->document->pages();
    *width = index < pages.size() ? pages[index].width : 0;
    *height = index < pages.size() ? pages[index].height : 0;
}

extern "C" size_t folio_pdf_import_size(const folio_pdf_import *import) { return import->document->size(); }

extern "C" size_t folio_pdf_import_content_size(const folio_pdf_import *import) { return import->document->contentSize(); }

extern "C" size_t folio_pdf_import_most_text_operators(const folio_pdf_import *import) {
    return import->document->mostTextOperators();
}

extern "C" size_t folio_pdf_import_text_operators(const folio_pdf_import *import) { return import->document->textOperators(); }

extern "C" size_t folio_pdf_import_link_count(const folio_pdf_import *import, size_t index) {
    auto const &pages = import->document->pages();
    return index < pages.size() ? pages[index].links.size() : 0;
}

extern "C" const char *folio_pdf_import_link(const folio_pdf_import *import, size_t index, size_t link, double rect[4]) {
    auto const &pages = import->document->pages();
    if (index >= pages.size() || link >= pages[index].links.size()) return nullptr;
    ImportedDocument::Link const &found = pages[index].links[link];
    rect[0] = found.x;
    rect[1] = found.y;
    rect[2] = found.width;
    rect[3] = found.height;
    return found.uri.c_str();
}

extern "C" folio_pdf_picture *folio_pdf_import_picture(const folio_pdf_import *import, size_t index) {
    if (index >= import->document->pages().size()) return nullptr;
    try {
        auto picture = std::make_unique<folio_pdf_picture>();
        picture->imported = import->document;
        picture->importedPage = index;
        return picture.release();
    } catch (...) {
        return nullptr;
    }
}

extern "C" void folio_pdf_import_free(folio_pdf_import *import) { delete import; }
