// Folio's PDF finishing step on libqpdf: see include/folio_pdf_finish.h.
// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#define POINTERHOLDER_TRANSITION 4
#include "folio_pdf_finish.h"

#include <qpdf/Buffer.hh>
#include <qpdf/Pl_Flate.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFWriter.hh>

#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

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

/// Replaces a page's content streams with one stream whose untagged content is marked as Artifacts.
void markArtifacts(QPDF &pdf, QPDFPageObjectHelper &page) {
    std::string content;
    for (auto &stream : page.getObjectHandle().getPageContents()) {
        std::shared_ptr<Buffer> data = stream.getStreamData(qpdf_dl_generalized);
        content.append(reinterpret_cast<char const *>(data->getBuffer()), data->getSize());
        content += '\n';
    }
    page.getObjectHandle().replaceKey("/Contents", QPDFObjectHandle::newStream(&pdf, ArtifactMarker(content).run()));
}

/// A structure element and the parent it hangs under, in preorder.
struct Element {
    QPDFObjectHandle node;
    QPDFObjectHandle parent;
};

bool isStructureElement(QPDFObjectHandle &node) { return node.isDictionary() && node.hasKey("/S"); }

/// Every structure element under the structure tree root, depth first in document order
/// (Cairo creates them in the order their tags begin, and appends children in order).
std::vector<Element> structureElements(QPDFObjectHandle root) {
    std::vector<Element> elements;
    std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> stack;
    auto pushChildren = [&stack](QPDFObjectHandle node, QPDFObjectHandle parent) {
        QPDFObjectHandle kids = node.getKey("/K");
        if (kids.isArray()) {
            for (int index = kids.getArrayNItems() - 1; index >= 0; --index) stack.emplace_back(kids.getArrayItem(index), parent);
        } else if (kids.isDictionary()) {
            stack.emplace_back(kids, parent);
        }
    };
    pushChildren(root, root);
    while (!stack.empty()) {
        auto [node, parent] = stack.back();
        stack.pop_back();
        if (!isStructureElement(node)) continue;
        elements.push_back({node, parent});
        pushChildren(node, node);
    }
    return elements;
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

/// Makes each table's parts (one Table element per page) one element: the first part gets
/// every part's rows, and the others leave their parents. Linear in the number of rows.
void joinTableParts(std::vector<std::vector<Element>> const &tables) {
    std::map<QPDFObjGen, std::set<QPDFObjGen>> removals;
    std::map<QPDFObjGen, QPDFObjectHandle> parents;
    for (auto const &parts : tables) {
        if (parts.size() < 2) continue;
        QPDFObjectHandle first = parts.front().node;
        std::vector<QPDFObjectHandle> rows = kidsOf(first);
        for (size_t index = 1; index < parts.size(); ++index) {
            for (auto &row : kidsOf(parts[index].node)) {
                if (row.isDictionary()) row.replaceKey("/P", first);
                rows.push_back(row);
            }
            QPDFObjectHandle parent = parts[index].parent;
            removals[parent.getObjGen()].insert(parts[index].node.getObjGen());
            parents[parent.getObjGen()] = parent;
        }
        setKids(first, rows);
    }
    for (auto const &[key, removed] : removals) {
        std::vector<QPDFObjectHandle> kept;
        for (auto &kid : kidsOf(parents[key])) {
            if (!(kid.isIndirect() && removed.count(kid.getObjGen()) > 0)) kept.push_back(kid);
        }
        setKids(parents[key], kept);
    }
}

/// /Alt on figures, /Scope on header cells, split tables joined into one Table element.
void finishStructure(QPDF &pdf, folio_pdf_finishing const &finishing) {
    QPDFObjectHandle treeRoot = pdf.getRoot().getKey("/StructTreeRoot");
    if (!treeRoot.isDictionary()) return;
    std::vector<Element> elements = structureElements(treeRoot);
    size_t figures = 0;
    size_t tables = 0;
    std::vector<std::vector<Element>> splitTables;
    for (auto &element : elements) {
        QPDFObjectHandle node = element.node;
        if (hasName(node, "/S", "/Figure")) {
            if (figures < finishing.figure_count && finishing.figure_alternatives[figures] != nullptr) {
                node.replaceKey("/Alt", QPDFObjectHandle::newUnicodeString(finishing.figure_alternatives[figures]));
            }
            ++figures;
        } else if (hasName(node, "/S", "/TH")) {
            bool wholeRowOfHeaders = true;
            for (auto &sibling : kidsOf(element.parent)) {
                if (isStructureElement(sibling) && !hasName(sibling, "/S", "/TH")) wholeRowOfHeaders = false;
            }
            QPDFObjectHandle attributes = QPDFObjectHandle::newDictionary();
            attributes.replaceKey("/O", QPDFObjectHandle::newName("/Table"));
            attributes.replaceKey("/Scope", QPDFObjectHandle::newName(wholeRowOfHeaders ? "/Column" : "/Row"));
            node.replaceKey("/A", attributes);
        } else if (hasName(node, "/S", "/Table")) {
            bool continues = tables < finishing.table_count && finishing.table_continues[tables] != 0;
            ++tables;
            if (continues && !splitTables.empty()) {
                splitTables.back().push_back(element);
            } else {
                splitTables.push_back({element});
            }
        }
    }
    joinTableParts(splitTables);
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

/// /Contents on every link annotation, /Tabs /S on every page, artifacts in the content.
void finishPages(QPDF &pdf, folio_pdf_finishing const &finishing) {
    size_t links = 0;
    for (auto &page : QPDFPageDocumentHelper(pdf).getAllPages()) {
        QPDFObjectHandle object = page.getObjectHandle();
        if (finishing.tagged) object.replaceKey("/Tabs", QPDFObjectHandle::newName("/S"));
        QPDFObjectHandle annotations = object.getKey("/Annots");
        if (annotations.isArray()) {
            for (int index = 0; index < annotations.getArrayNItems(); ++index) {
                QPDFObjectHandle annotation = annotations.getArrayItem(index);
                if (!hasName(annotation, "/Subtype", "/Link")) continue;
                if (links < finishing.link_count && finishing.link_descriptions[links] != nullptr) {
                    annotation.replaceKey("/Contents", QPDFObjectHandle::newUnicodeString(finishing.link_descriptions[links]));
                }
                if (finishing.icc_profile != nullptr) annotation.replaceKey("/F", QPDFObjectHandle::newInteger(4));
                ++links;
            }
        }
        if (finishing.tagged) markArtifacts(pdf, page);
    }
    if (links != finishing.link_count) {
        throw std::runtime_error(
            "the pages have " + std::to_string(links) + " links but " + std::to_string(finishing.link_count) + " were drawn");
    }
}

void finishCatalog(QPDF &pdf, folio_pdf_finishing const &finishing) {
    QPDFObjectHandle catalog = pdf.getRoot();
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
        QPDFObjectHandle metadata = QPDFObjectHandle::newStream(&pdf, std::string(finishing.xmp, finishing.xmp_length));
        metadata.getDict().replaceKey("/Type", QPDFObjectHandle::newName("/Metadata"));
        metadata.getDict().replaceKey("/Subtype", QPDFObjectHandle::newName("/XML"));
        catalog.replaceKey("/Metadata", metadata);
    }
    if (finishing.icc_profile != nullptr) {
        std::string profileBytes(reinterpret_cast<char const *>(finishing.icc_profile), finishing.icc_profile_length);
        QPDFObjectHandle profile = QPDFObjectHandle::newStream(&pdf, profileBytes);
        profile.getDict().replaceKey("/N", QPDFObjectHandle::newInteger(3));
        QPDFObjectHandle intent = QPDFObjectHandle::newDictionary();
        intent.replaceKey("/Type", QPDFObjectHandle::newName("/OutputIntent"));
        intent.replaceKey("/S", QPDFObjectHandle::newName("/GTS_PDFA1"));
        std::string condition = finishing.output_condition != nullptr ? finishing.output_condition : "sRGB";
        intent.replaceKey("/OutputConditionIdentifier", QPDFObjectHandle::newUnicodeString(condition));
        intent.replaceKey("/Info", QPDFObjectHandle::newUnicodeString(condition));
        intent.replaceKey("/DestOutputProfile", profile);
        catalog.replaceKey("/OutputIntents", QPDFObjectHandle::newArray({pdf.makeIndirectObject(intent)}));
    }
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
    const folio_pdf_finishing *finishing, const unsigned char *pdf, size_t length, unsigned char **output,
    size_t *output_length, char *message, size_t message_capacity) {
    try {
        QPDF document;
        document.setSuppressWarnings(true);
        document.processMemoryFile("Cairo output", reinterpret_cast<char const *>(pdf), length);
        if (finishing->tagged) finishStructure(document, *finishing);
        finishPages(document, *finishing);
        finishCatalog(document, *finishing);
        // Only the rewritten page content is compressed again (the rest is copied as it is):
        // the fastest level keeps the finishing step a small part of a render.
        Pl_Flate::setCompressionLevel(1);
        QPDFWriter writer(document);
        writer.setOutputMemory();
        writer.setDeterministicID(true);
        writer.setStreamDataMode(qpdf_s_compress);
        writer.setDecodeLevel(qpdf_dl_none);
        writer.write();
        std::shared_ptr<Buffer> buffer = writer.getBufferSharedPointer();
        size_t size = buffer->getSize();
        auto bytes = static_cast<unsigned char *>(std::malloc(size > 0 ? size : 1));
        if (bytes == nullptr) throw std::runtime_error("out of memory");
        std::memcpy(bytes, buffer->getBuffer(), size);
        *output = bytes;
        *output_length = size;
        return 0;
    } catch (std::exception &error) {
        copyMessage(error.what(), message, message_capacity);
        return 1;
    } catch (...) {
        copyMessage("qpdf failed", message, message_capacity);
        return 1;
    }
}

extern "C" void folio_pdf_free(unsigned char *output) { std::free(output); }
