// The structure tree, finished one element at a time from the file's text.
#ifndef FOLIO_STRUCTURE_STREAM_HH
#define FOLIO_STRUCTURE_STREAM_HH

// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif
#include "DocumentWriter.hh"
#include "FileAssembler.hh"
#include "ObjectHelpers.hh"
#include "PDFObjectText.hh"
#include "folio_pdf_finish.h"

#include <qpdf/QPDFObjectHandle.hh>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace folio_finish {

/// The structure tree finished one element at a time from the file's text: /Alt on figures and
/// links, /Scope on header cells, /ColSpan on cells across columns, split tables (one Table
/// element per page) joined into one Table element, and split lists (L) likewise. No element becomes a qpdf object, so memory does not grow with the number of elements
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
        figures = tables = links = cells = spanning = rowHeader = texts = passages = 0;
        carriedAlias = 0;
        for (auto &kid : kidsOf(treeRoot)) {
            int number = kid.isIndirect() ? kid.getObjGen().getObj() : 0;
            Element element = number > 0 ? read(number) : Element{};
            if (!element.role.empty() && visit(element, 1, 0, false)) continue;
            writer.addTopLevelKid(file->renumbered(kid.unparse()));
        }
        carryTable();
        if (figures != part.figure_count) {
            throw std::runtime_error(
                "the structure tree has " + std::to_string(figures) + " figures but " + std::to_string(part.figure_count) +
                " were drawn");
        }
        if (tables != part.table_count) {
            throw std::runtime_error(
                "the structure tree has " + std::to_string(tables) + " tables and lists but " + std::to_string(part.table_count) +
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
    size_t rowHeader = 0;
    size_t texts = 0;
    size_t passages = 0;
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
        // A figure with a caption has its picture drawn in a Span (Cairo 1.16 marks content only in
        // elements without children): the Span's content becomes the Figure's own, before its Caption.
        bool mergesSpans = false;
        if (role == "/Figure") {
            mergesSpans = true;
            if (figures < part->figure_count && part->figure_alternatives[figures] != nullptr) {
                folio_text::setEntry(element.text, "/Alt", QPDFObjectHandle::newUnicodeString(part->figure_alternatives[figures]).unparse());
                changed = true;
            }
            ++figures;
        } else if (role == "/Note") {
            // A footnote: its label, then its text in a Span (kept: content of the Note itself would
            // come before its label in the tree's order). PDF/UA-1 (7.9) gives every note an /ID,
            // unique in the document (Matterhorn 19-003).
            folio_text::setEntry(element.text, "/ID", QPDFObjectHandle::newString("note-" + std::to_string(++writer.noteCount)).unparse());
            changed = true;
        } else if (role == "/Link") {
            // A link's text is drawn in the Span before it (Cairo marks content only in leaf
            // elements), so the Link element says what it links: the link's own words.
            if (links < part->link_count && part->link_descriptions[links] != nullptr) {
                folio_text::setEntry(element.text, "/Alt", QPDFObjectHandle::newUnicodeString(part->link_descriptions[links]).unparse());
                changed = true;
            }
            ++links;
        } else if (role == "/P" || (role.size() == 3 && role[0] == '/' && role[1] == 'H' && role[2] >= '1' && role[2] <= '6')) {
            // A passage in another language than the document's says so (the reader's voice changes).
            if (texts < part->text_language_count && part->text_languages[texts] != nullptr) {
                folio_text::setEntry(element.text, "/Lang", QPDFObjectHandle::newUnicodeString(part->text_languages[texts]).unparse());
                changed = true;
            }
            ++texts;
        } else if (role == "/Quote") {
            // A passage its author marked as in another language (Folio draws no other Quote; Cairo
            // names only standard types): a Span saying which, the Nth in drawing order.
            folio_text::setEntry(element.text, "/S", "/Span");
            if (passages < part->passage_language_count && part->passage_languages[passages] != nullptr) {
                folio_text::setEntry(element.text, "/Lang", QPDFObjectHandle::newUnicodeString(part->passage_languages[passages]).unparse());
            }
            ++passages;
            changed = true;
        } else if (role == "/TH" || role == "/TD") {
            if (cells < part->cell_language_count && part->cell_languages[cells] != nullptr) {
                folio_text::setEntry(element.text, "/Lang", QPDFObjectHandle::newUnicodeString(part->cell_languages[cells]).unparse());
                changed = true;
            }
            std::string attributes;
            if (role == "/TH") {
                // A row of headers heads the columns, unless its cell was drawn as a row's header (a group's).
                while (rowHeader < part->row_header_count && part->row_header_cells[rowHeader] < cells) ++rowHeader;
                bool headsRow = rowHeader < part->row_header_count && part->row_header_cells[rowHeader] == cells;
                attributes += std::string(" /Scope ") + (rowOfHeaders && !headsRow ? "/Column" : "/Row");
            }
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
        } else if (role == "/Table" || role == "/L" || role == "/TOC") {
            // A table, a list or a table of contents split over pages: its later parts join its first. A nested list (2)
            // is whole: it is left as it is, and so is the table or list open around it.
            unsigned char state = tables < part->table_count ? part->table_continues[tables] : 0;
            ++tables;
            if (state == 2) {
            } else if (state == 1 && tableFirst.number != 0) {
                removed = true;
                if (carried && carriedAlias == 0) carriedAlias = file->alias(tableFirst.number);
                movedTo = carried ? carriedAlias : tableFirst.number;
            } else {
                closeTable();
                firstPart = true;
            }
        }
        if (!removed && !firstPart) movedTo = 0;

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
            if (mergesSpans && kids[index].role == "/Span") {
                Element &span = kids[index];
                std::string spanKids = span.text.substr(span.kidsStart, span.kidsEnd - span.kidsStart);
                // Its content goes to the element; elements in it (a footnote's links) are finished
                // in their turn, so that every Link still gets its description in drawing order.
                for (auto const &item : folio_text::items(spanKids)) {
                    std::string kept = spanKids.substr(item.start, item.end - item.start);
                    if (item.kind == folio_text::Item::Kind::reference) {
                        Element inner = read(static_cast<int>(item.number));
                        if (!inner.role.empty() && visit(inner, depth + 1, 0, false)) continue;
                    }
                    keptItems.push_back(std::move(kept));
                }
                size_t closing = 0;
                std::vector<folio_text::Entry> spanEntries = folio_text::entries(span.text, closing);
                if (folio_text::Entry const *page = folio_text::find(spanEntries, "/Pg")) {
                    folio_text::setEntry(element.text, "/Pg", span.text.substr(page->valueStart, page->end - page->valueStart));
                }
                file->redirect(span.number, element.number);
                kidRemoved = true;
                continue;
            }
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

} // namespace folio_finish

#endif
