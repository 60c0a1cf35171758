// Pages of a PDF made elsewhere: see ImportedDocument.hh.
#define POINTERHOLDER_TRANSITION 4
#include "ImportedDocument.hh"
#include "ObjectHelpers.hh"
#include "PDFObjectText.hh"

#include <qpdf/Pipeline.hh>
#include <qpdf/QPDFAcroFormDocumentHelper.hh>
#include <qpdf/QPDFExc.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>

#include <ft2build.h>
#include FT_FREETYPE_H

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

namespace folio_finish {

namespace {

/// The most bytes one page's content may inflate to: a page of text is tens of kilobytes, a dense
/// chart a few megabytes; a stream that inflates past this is refused, not held.
constexpr size_t maximumContentBytes = 64u << 20;

/// The most a page may measure on a side, in points (PDF's own limit for viewers: 200 inches).
constexpr double maximumSide = 14400;

/// Collects a stream's decoded bytes and refuses more than `limit` of them.
class BoundedSink : public Pipeline {
  public:
    BoundedSink(std::string &out, size_t limit) : Pipeline("bounded content", nullptr), out(out), limit(limit) {}
    void write(unsigned char const *data, size_t length) override {
        if (length > limit || out.size() > limit - length) throw std::length_error("content too large");
        out.append(reinterpret_cast<char const *>(data), length);
    }
    void finish() override {}

  private:
    std::string &out;
    size_t limit;
};

/// Counts a stream's decoded bytes without keeping them, and refuses more than `limit` of them.
class CountingSink : public Pipeline {
  public:
    CountingSink(size_t &count, size_t limit) : Pipeline("counted stream", nullptr), count(count), limit(limit) {}
    void write(unsigned char const *, size_t length) override {
        if (length > limit || count > limit - length) throw std::length_error("streams too large");
        count += length;
    }
    void finish() override {}

  private:
    size_t &count;
    size_t limit;
};

/// FreeType, for the time it takes to open every font program an import keeps.
class FontLibrary {
  public:
    FontLibrary() {
        if (FT_Init_FreeType(&library) != 0) library = nullptr;
    }
    ~FontLibrary() {
        if (library) FT_Done_FreeType(library);
    }
    FontLibrary(FontLibrary const &) = delete;
    FontLibrary &operator=(FontLibrary const &) = delete;

    /// Whether FreeType opens `program` as a font (a TrueType, OpenType, CFF or Type 1 program).
    bool opens(std::string const &program) const {
        if (!library || program.empty()) return false;
        FT_Face face = nullptr;
        FT_Error error = FT_New_Memory_Face(
            library, reinterpret_cast<FT_Byte const *>(program.data()), static_cast<FT_Long>(program.size()), 0, &face);
        if (error != 0 || face == nullptr) return false;
        bool usable = face->num_glyphs > 0;
        FT_Done_Face(face);
        return usable;
    }

  private:
    FT_Library library = nullptr;
};

/// A font program a chosen page uses: its stream, its font's name and the first page that uses it.
struct FontProgram {
    QPDFObjectHandle stream;
    std::string font;
    std::string page;
};

/// The most bytes the streams an import keeps may inflate to, all together (fonts and images are
/// copied compressed, but each is inflated once to check that it is whole).
constexpr size_t maximumDecodedBytes = 1024u << 20;

/// Drops every marked-content operator (BDC, BMC, EMC) and the operands before it from a content
/// stream, keeping every other byte as it is: the page becomes one Figure of the document, and its
/// own marks (its file's MCIDs) would point into a structure tree that is not copied. Optional content
/// its file hides (`/OC` sections whose group is off: `hidden` says which property names are) is
/// dropped whole, as the file shows it, since its optional-content settings are not copied either.
class MarkedContentRemover : public QPDFObjectHandle::ParserCallbacks {
  public:
    MarkedContentRemover(std::string const &content, std::function<bool(std::string const &)> hidden)
        : content(content), hidden(std::move(hidden)) {}
    void handleObject(QPDFObjectHandle object, size_t offset, size_t length) override {
        if (!object.isOperator()) {
            if (operandsStart == std::string::npos) operandsStart = offset;
            operands.push_back(object);
            return;
        }
        std::string name = object.getOperatorValue();
        size_t start = operandsStart == std::string::npos ? offset : operandsStart;
        operandsStart = std::string::npos;
        std::vector<QPDFObjectHandle> given = std::move(operands);
        operands.clear();
        bool opens = name == "BDC" || name == "BMC";
        if (skipping > 0) {
            // Inside hidden optional content: nothing is kept until the EMC that closes it.
            if (opens) ++skipping;
            if (name == "EMC" && --skipping == 0) kept = offset + length;
            return;
        }
        if (!opens && name != "EMC") return;
        if (start > kept) result.append(content, kept, start - kept);
        kept = offset + length;
        if (name == "BDC" && given.size() == 2 && given[0].isName() && given[0].getName() == "/OC" && given[1].isName() &&
            hidden(given[1].getName())) {
            skipping = 1;
        }
    }
    void handleEOF() override {
        if (skipping == 0 && kept < content.size()) result.append(content, kept, std::string::npos);
    }
    std::string result;

  private:
    std::string const &content;
    std::function<bool(std::string const &)> hidden;
    std::vector<QPDFObjectHandle> operands;
    size_t kept = 0;
    size_t operandsStart = std::string::npos;
    int skipping = 0;
};

/// How many of the operators `names` (of one or two letters) a content stream holds, counted from
/// its bytes without parsing it: an operator is a token of those bytes standing alone (a string's
/// text that happens to read "Tj" is counted too, which only errs towards counting more).
size_t countOperators(std::string const &content, bool textShowing) {
    auto isDelimiter = [](unsigned char c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0 || c == ')' || c == ']' || c == '>' || c == '(' ||
               c == '[' || c == '<' || c == '/' || c == '%';
    };
    size_t count = 0;
    size_t size = content.size();
    for (size_t index = 0; index < size; ++index) {
        unsigned char c = static_cast<unsigned char>(content[index]);
        size_t length = 0;
        if (textShowing && c == 'T' && index + 1 < size && (content[index + 1] == 'j' || content[index + 1] == 'J')) {
            length = 2;
        } else if (textShowing && (c == '\'' || c == '"')) {
            length = 1;
        } else if (!textShowing && c == 'D' && index + 1 < size && content[index + 1] == 'o') {
            length = 2;
        } else {
            continue;
        }
        bool startsToken = index == 0 || isDelimiter(static_cast<unsigned char>(content[index - 1]));
        bool endsToken = index + length >= size || isDelimiter(static_cast<unsigned char>(content[index + length]));
        if (startsToken && endsToken) ++count;
        index += length - 1;
    }
    return count;
}

/// A dictionary's name value, or "".
std::string nameOf(QPDFObjectHandle dictionary, char const *key) {
    if (!dictionary.isDictionary()) return std::string();
    QPDFObjectHandle value = dictionary.getKey(key);
    return value.isName() ? value.getName() : std::string();
}

/// How much text a page shows as a reader of its text meets it: its own text-showing operators,
/// and for each Form XObject it draws (`Do`), that form's, counted as if every `Do` drew the form
/// showing the most (a form drawn 1,000 times shows its text 1,000 times). Forms are counted once
/// each and nested at most 12 deep; sums saturate.
class TextShowingCount {
  public:
    /// The count for content `content` drawn with `resources`.
    size_t of(std::string const &content, QPDFObjectHandle resources, int depth = 0) {
        size_t own = countOperators(content, true);
        size_t draws = countOperators(content, false);
        if (draws == 0) return own;
        QPDFObjectHandle xobjects = resources.isDictionary() ? resources.getKey("/XObject") : QPDFObjectHandle::newNull();
        size_t most = 0;
        for (std::string const &key : xobjects.isDictionary() ? xobjects.getKeys() : std::set<std::string>()) {
            QPDFObjectHandle form = xobjects.getKey(key);
            if (!form.isStream() || nameOf(form.getDict(), "/Subtype") != "/Form") continue;
            most = std::max(most, ofForm(form, resources, depth + 1));
        }
        return saturated(own, saturatedProduct(draws, most));
    }

  private:
    std::map<QPDFObjGen, size_t> counted;
    static constexpr size_t ceiling = size_t(1) << 40;

    size_t ofForm(QPDFObjectHandle form, QPDFObjectHandle inherited, int depth) {
        if (depth > 12) return ceiling;
        auto known = counted.find(form.getObjGen());
        if (known != counted.end()) return known->second;
        counted[form.getObjGen()] = ceiling; // a form drawing itself counts as too much
        std::string content;
        BoundedSink sink(content, maximumContentBytes);
        size_t result = ceiling;
        try {
            if (form.pipeStreamData(&sink, 0, qpdf_dl_all, true, false)) {
                QPDFObjectHandle own = form.getDict().getKey("/Resources");
                result = of(content, own.isDictionary() ? own : inherited, depth);
            }
        } catch (std::length_error const &) {
        }
        counted[form.getObjGen()] = result;
        return result;
    }

    static size_t saturated(size_t a, size_t b) { return std::min(ceiling, a + b); }
    static size_t saturatedProduct(size_t a, size_t b) { return b != 0 && a > ceiling / b ? ceiling : std::min(ceiling, a * b); }
};

/// The first warning qpdf gave, as one line.
std::string firstWarning(QPDF &pdf) {
    std::vector<QPDFExc> warnings = pdf.getWarnings();
    if (warnings.empty()) return "it cannot be read";
    std::string text = warnings.front().getMessageDetail();
    return text.substr(0, text.find('\n'));
}

/// The links to web addresses on each chosen page (at most `maximumLinks` a page), by page index.
using WebLinks = std::map<size_t, std::vector<std::pair<std::string, QPDFObjectHandle::Rectangle>>>;

/// The links to web addresses of the pages at `indices` of `source`, read before flattening
/// (which draws a link's appearance and drops the link).
WebLinks webLinksOf(QPDF &source, std::vector<size_t> const &indices) {
    WebLinks webLinks;
    std::vector<QPDFPageObjectHelper> all = QPDFPageDocumentHelper(source).getAllPages();
    for (size_t index : indices) {
        if (index >= all.size() || webLinks.count(index) > 0) continue;
        auto &links = webLinks[index];
        QPDFObjectHandle annotations = all[index].getObjectHandle().getKey("/Annots");
        for (int item = 0; annotations.isArray() && item < annotations.getArrayNItems() && links.size() < ImportedDocument::maximumLinks;
             ++item) {
            QPDFObjectHandle annotation = annotations.getArrayItem(item);
            if (!annotation.isDictionary() || nameOf(annotation, "/Subtype") != "/Link") continue;
            QPDFObjectHandle action = annotation.getKey("/A");
            if (!action.isDictionary() || nameOf(action, "/S") != "/URI" || !action.getKey("/URI").isString()) continue;
            QPDFObjectHandle rect = annotation.getKey("/Rect");
            if (!rect.isRectangle()) continue;
            links.emplace_back(action.getKey("/URI").getStringValue(), rect.getArrayAsRectangle());
        }
    }
    return webLinks;
}

/// The local numbers of the source's indirect objects the chosen pages need, given in the order
/// they are first met (0: none yet), and the objects by local number (slot 0 unused).
struct LocalNumbering {
    std::vector<int> numbers;
    std::vector<QPDFObjectHandle> objects;

    explicit LocalNumbering(size_t highest) : numbers(highest, 0), objects(1) {}

    /// The local number of indirect object `object`, given now when it has none.
    int operator()(QPDFObjectHandle object) {
        auto number = static_cast<size_t>(object.getObjGen().getObj());
        if (number >= numbers.size()) throw std::runtime_error("an object outside the file's cross-reference table");
        if (numbers[number] == 0) {
            numbers[number] = static_cast<int>(objects.size());
            objects.push_back(object);
        }
        return numbers[number];
    }
};

/// Every embedded font program the chosen pages use, once each, to be opened by FreeType.
struct FontPrograms {
    std::vector<FontProgram> programs;
    std::set<QPDFObjGen> seen;
};

/// The embedded font programs `dictionary` (a font descriptor) names, added to `fonts`; with
/// `requireEmbeddedFonts`, a font (`dictionary` a font dictionary) that embeds no program is an error.
void noteFonts(QPDFObjectHandle dictionary, FontPrograms &fonts, bool requireEmbeddedFonts, std::string const &pageName) {
    for (char const *key : {"/FontFile", "/FontFile2", "/FontFile3"}) {
        QPDFObjectHandle program = dictionary.getKey(key);
        if (!program.isStream() || !fonts.seen.insert(program.getObjGen()).second) continue;
        std::string font = nameOf(dictionary, "/FontName");
        fonts.programs.push_back({program, font.empty() ? std::string("(unnamed)") : font.substr(1), pageName});
    }
    if (!requireEmbeddedFonts || nameOf(dictionary, "/Type") != "/Font") return;
    std::string subtype = nameOf(dictionary, "/Subtype");
    if (subtype == "/Type3" || subtype == "/Type0") return;
    QPDFObjectHandle descriptor = dictionary.getKey("/FontDescriptor");
    bool embedded =
        descriptor.isDictionary() && (descriptor.hasKey("/FontFile") || descriptor.hasKey("/FontFile2") || descriptor.hasKey("/FontFile3"));
    if (!embedded) {
        std::string font = nameOf(dictionary, "/BaseFont");
        throw std::runtime_error(
            pageName + " uses the font " + (font.empty() ? "(unnamed)" : font.substr(1)) +
            " without embedding it; tagged and archival PDFs need every font embedded: make the PDF with its fonts embedded");
    }
}

/// The local numbers of the indirect objects a page's `resources` and transparency `group` need
/// (each looked at once), in the order met; the fonts they use noted in `fonts`.
std::vector<int> resourceClosure(
    QPDFObjectHandle resources, QPDFObjectHandle group, LocalNumbering &local, FontPrograms &fonts, bool requireEmbeddedFonts,
    std::string const &pageName) {
    std::vector<int> closure;
    std::unordered_set<int> inClosure;
    std::vector<QPDFObjectHandle> pending = {resources, group};
    size_t visited = 0;
    while (!pending.empty()) {
        QPDFObjectHandle object = pending.back();
        pending.pop_back();
        if (++visited > 4'000'000) throw std::runtime_error(pageName + "'s resources are too many objects");
        if (object.isIndirect()) {
            int number = local(object);
            if (!inClosure.insert(number).second) continue;
            closure.push_back(number);
        }
        QPDFObjectHandle dictionary = object.isStream() ? object.getDict() : object;
        if (dictionary.isDictionary()) {
            noteFonts(dictionary, fonts, requireEmbeddedFonts, pageName);
            for (auto const &key : dictionary.getKeys()) {
                if (key == "/Parent" || key == "/StructParent" || key == "/StructParents") continue;
                pending.push_back(dictionary.getKey(key));
            }
        } else if (object.isArray()) {
            for (int item = 0; item < object.getArrayNItems(); ++item) pending.push_back(object.getArrayItem(item));
        }
    }
    return closure;
}

/// The page's content streams decoded and joined (each bounded by `maximumContentBytes`, and the
/// file's pages together, `filePagesSoFar` bytes before this one, by `maximumFileContentBytes`).
std::string decodedContent(QPDFPageObjectHelper &page, std::string const &pageName, size_t filePagesSoFar) {
    std::string content;
    std::vector<QPDFObjectHandle> streams = page.getObjectHandle().getPageContents();
    for (QPDFObjectHandle &stream : streams) {
        std::string decoded;
        BoundedSink sink(decoded, maximumContentBytes - std::min(content.size(), maximumContentBytes));
        try {
            if (!stream.pipeStreamData(&sink, 0, qpdf_dl_all, true, false)) {
                throw std::runtime_error(pageName + "'s content is compressed in a way Folio cannot read");
            }
        } catch (std::length_error const &) {
            throw std::runtime_error(pageName + "'s content inflates to more than 64 MB");
        }
        content += decoded;
        content += '\n';
        // Bounded for the file as a whole too: pages sharing one large stream each pay for it.
        size_t limit = ImportedDocument::maximumFileContentBytes;
        if (content.size() > limit - std::min(filePagesSoFar, limit)) {
            throw std::runtime_error(
                "the content of its pages inflates to more than " + std::to_string(limit >> 20) + " MB in all (at " + pageName + ")");
        }
    }
    return content;
}

/// `content` (a page's, whose resources are `resources`) without its marked-content operators and
/// without the optional content `source` shows off (its default configuration's /OFF, or all but
/// /ON when its base state is off; a membership dictionary is off when every group it names is).
std::string withoutMarkedContent(QPDF &source, std::string const &content, QPDFObjectHandle resources, std::string const &pageName) {
    QPDF scratch;
    scratch.emptyPDF();
    scratch.setSuppressWarnings(true);
    QPDFObjectHandle optional = source.getRoot().getKey("/OCProperties");
    QPDFObjectHandle configuration = optional.isDictionary() ? optional.getKey("/D") : QPDFObjectHandle::newNull();
    std::set<QPDFObjGen> listed;
    bool offByDefault = configuration.isDictionary() && nameOf(configuration, "/BaseState") == "/OFF";
    QPDFObjectHandle list = configuration.isDictionary() ? configuration.getKey(offByDefault ? "/ON" : "/OFF") : QPDFObjectHandle::newNull();
    for (int item = 0; list.isArray() && item < list.getArrayNItems(); ++item) listed.insert(list.getArrayItem(item).getObjGen());
    auto groupOff = [&](QPDFObjectHandle group) { return offByDefault != (listed.count(group.getObjGen()) > 0); };
    QPDFObjectHandle properties = resources.isDictionary() ? resources.getKey("/Properties") : QPDFObjectHandle::newNull();
    auto hidden = [&](std::string const &name) {
        if (!properties.isDictionary()) return false;
        QPDFObjectHandle group = properties.getKey(name);
        if (!group.isDictionary()) return false;
        if (nameOf(group, "/Type") == "/OCMD") {
            QPDFObjectHandle groups = group.getKey("/OCGs");
            if (groups.isDictionary()) return groupOff(groups);
            if (!groups.isArray() || groups.getArrayNItems() == 0) return false;
            for (int item = 0; item < groups.getArrayNItems(); ++item) {
                if (!groupOff(groups.getArrayItem(item))) return false;
            }
            return true;
        }
        return groupOff(group);
    };
    MarkedContentRemover remover(content, hidden);
    try {
        QPDFObjectHandle::newStream(&scratch, content).parseAsContents(&remover);
    } catch (std::exception const &) {
        throw std::runtime_error(pageName + "'s content cannot be read");
    }
    return std::move(remover.result);
}

/// `values` as a PDF array in fixed notation (PDF has no exponents), ten decimals: a page 14,400
/// points wide still maps to well under a thousandth of a point.
std::string pdfArray(std::initializer_list<double> values) {
    auto numberText = [](double value) {
        char text[64];
        auto written = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, 10);
        if (written.ec != std::errc()) return std::string("0");
        std::string number(text, written.ptr);
        while (!number.empty() && number.back() == '0') number.pop_back();
        if (!number.empty() && number.back() == '.') number.pop_back();
        return number == "-0" || number.empty() ? std::string("0") : number;
    };
    std::string text = "[";
    for (double value : values) text += " " + numberText(value);
    return text + " ]";
}

/// Where a page's box (from `x0`, `y0` to `x1`, `y1`) falls on its way into the unit square,
/// turned `turns` quarter turns as the page is shown.
struct PagePlacement {
    double x0, y0, x1, y1, width, height;
    long long turns;

    /// The form's matrix: the unit square the placeholder fills shows the box turned.
    std::string matrix() const {
        double a = 1 / width, d = 1 / height;
        switch (turns) {
        case 1: return pdfArray({0, -a, d, 0, -y0 * d, 1 + x0 * a});
        case 2: return pdfArray({-a, 0, 0, -d, 1 + x0 * a, 1 + y0 * d});
        case 3: return pdfArray({0, a, -d, 0, 1 + y0 * d, -x0 * a});
        default: return pdfArray({a, 0, 0, d, -x0 * a, -y0 * d});
        }
    }

    /// The page's links to web addresses, their rectangles taken where the page shows them: each
    /// corner into the unit square as the form's matrix maps it, then from the top left.
    std::vector<ImportedDocument::Link> links(std::vector<std::pair<std::string, QPDFObjectHandle::Rectangle>> const &webLinks) const {
        std::vector<ImportedDocument::Link> shown;
        for (auto const &[uri, area] : webLinks) {
            double us[2], vs[2];
            for (int corner = 0; corner < 2; ++corner) {
                double px = corner == 0 ? area.llx : area.urx, py = corner == 0 ? area.lly : area.ury;
                double fx = (px - x0) / width, fy = (py - y0) / height;
                switch (turns) {
                case 1: us[corner] = fy; vs[corner] = 1 - fx; break;
                case 2: us[corner] = 1 - fx; vs[corner] = 1 - fy; break;
                case 3: us[corner] = 1 - fy; vs[corner] = fx; break;
                default: us[corner] = fx; vs[corner] = fy; break;
                }
            }
            ImportedDocument::Link link;
            link.uri = uri;
            link.x = std::clamp(std::min(us[0], us[1]), 0.0, 1.0);
            link.y = std::clamp(1 - std::max(vs[0], vs[1]), 0.0, 1.0);
            link.width = std::clamp(std::max(us[0], us[1]), 0.0, 1.0) - link.x;
            link.height = std::clamp(1 - std::min(vs[0], vs[1]), 0.0, 1.0) - link.y;
            if (link.width > 0 && link.height > 0 && link.uri.size() <= 2000) shown.push_back(std::move(link));
        }
        return shown;
    }
};

/// The placement of `page`: its crop box (at least a point, at most `maximumSide` a side) and its
/// rotation, a right angle.
PagePlacement placementOf(QPDFPageObjectHelper &page, std::string const &pageName) {
    QPDFObjectHandle box = page.getCropBox(false, false);
    if (!box.isRectangle()) throw std::runtime_error(pageName + " has no page box");
    QPDFObjectHandle::Rectangle rectangle = box.getArrayAsRectangle();
    double x0 = std::min(rectangle.llx, rectangle.urx), x1 = std::max(rectangle.llx, rectangle.urx);
    double y0 = std::min(rectangle.lly, rectangle.ury), y1 = std::max(rectangle.lly, rectangle.ury);
    double width = x1 - x0, height = y1 - y0;
    if (!(width >= 1 && height >= 1 && width <= maximumSide && height <= maximumSide)) {
        throw std::runtime_error(pageName + " measures " + std::to_string(width) + " by " + std::to_string(height) + " points");
    }
    QPDFObjectHandle rotation = page.getAttribute("/Rotate", false);
    long long turns = rotation.isInteger() ? ((rotation.getIntValue() % 360 + 360) % 360) / 90 : 0;
    if (rotation.isInteger() && rotation.getIntValue() % 90 != 0) throw std::runtime_error(pageName + " is rotated by other than a right angle");
    return {x0, y0, x1, y1, width, height, turns};
}

/// Every stream in `objects` (by local number) inflates whole (a damaged font or image would show as
/// missing glyphs or a broken picture): counted, not kept, and bounded all together.
void checkStreamsDecode(QPDF &source, std::vector<QPDFObjectHandle> const &objects) {
    size_t decoded = 0;
    for (size_t number = 1; number < objects.size(); ++number) {
        QPDFObjectHandle object = objects[number];
        if (!object.isStream() || object.getDict().getKey("/Filter").isNull()) continue;
        CountingSink counter(decoded, maximumDecodedBytes);
        bool whole = false;
        try {
            whole = object.pipeStreamData(&counter, 0, qpdf_dl_generalized, true, false);
        } catch (std::length_error const &) {
            throw std::runtime_error("its fonts and pictures inflate to more than 1 GB");
        }
        if (!whole || source.anyWarnings()) {
            throw std::runtime_error("it is damaged: a font or picture of its pages does not decode (" + firstWarning(source) + ")");
        }
    }
}

/// Every embedded font program opens as a font (FreeType reads it as viewers do): a program of
/// random bytes would be copied into the document and draw nothing, or crash a reader's viewer.
void checkFontPrograms(std::vector<FontProgram> const &programs) {
    FontLibrary fonts;
    for (FontProgram const &font : programs) {
        std::string program;
        BoundedSink sink(program, maximumDecodedBytes);
        bool whole = false;
        try {
            QPDFObjectHandle stream = font.stream;
            whole = stream.pipeStreamData(&sink, 0, qpdf_dl_generalized, true, false);
        } catch (std::length_error const &) {
            throw std::runtime_error("its fonts and pictures inflate to more than 1 GB");
        }
        if (!whole || !fonts.opens(program)) {
            throw std::runtime_error(
                font.page + " uses the font " + font.font +
                ", whose embedded program is damaged (it does not open as a font): make the PDF again with its fonts embedded whole");
        }
    }
}

/// `object` as the text of an indirect object (a stream with its raw, still compressed, data), its
/// structure keys dropped, its references numbered locally by `numbers`.
std::string localText(QPDFObjectHandle object, std::vector<int> const &numbers) {
    std::string text;
    if (object.isStream()) {
        QPDFObjectHandle dictionary = object.getDict().shallowCopy();
        std::shared_ptr<Buffer> raw = object.getRawStreamData();
        dictionary.replaceKey("/Length", QPDFObjectHandle::newInteger(static_cast<long long>(raw->getSize())));
        dictionary.removeKey("/StructParent");
        dictionary.removeKey("/StructParents");
        text = dictionary.unparse() + "\nstream\n" + std::string(reinterpret_cast<char const *>(raw->getBuffer()), raw->getSize()) +
               "\nendstream";
    } else if (object.isDictionary()) {
        QPDFObjectHandle dictionary = object.shallowCopy();
        dictionary.removeKey("/StructParent");
        dictionary.removeKey("/StructParents");
        text = dictionary.unparse();
    } else if (object.isArray()) {
        text = object.shallowCopy().unparse();
    } else {
        text = object.unparseResolved();
    }
    std::string renumbered;
    folio_text::appendRenumbered(renumbered, text, numbers);
    return renumbered;
}

/// What choosing one page reads and adds to: the source, the local numbering, the text and font
/// counts, and the document's objects and byte counts (`ImportedDocument`'s own).
struct PageChooser {
    QPDF &source;
    Deflate &deflate;
    LocalNumbering &local;
    std::vector<std::string> &objects;
    TextShowingCount textCount;
    FontPrograms fonts;
    size_t &contentBytes;
    size_t &mostTextShown;
    size_t &textShown;
    bool requireEmbeddedFonts;

    /// Page `index` of `pages` as a Form XObject: its resources' objects numbered, its content
    /// decoded (its marked content taken out) and compressed again, its box turned into the unit
    /// square, its web links where it shows them.
    ImportedDocument::Page choose(
        std::vector<QPDFPageObjectHelper> &pages, size_t index,
        std::vector<std::pair<std::string, QPDFObjectHandle::Rectangle>> const &webLinks) {
        std::string pageName = "page " + std::to_string(index + 1);
        if (index >= pages.size()) throw std::runtime_error(pageName + " does not exist: it has " + std::to_string(pages.size()));
        QPDFPageObjectHelper page = pages[index];
        PagePlacement placement = placementOf(page, pageName);
        ImportedDocument::Page shown;
        QPDFObjectHandle resources = page.getAttribute("/Resources", false);
        QPDFObjectHandle group = page.getObjectHandle().getKey("/Group");
        shown.closure = resourceClosure(resources, group, local, fonts, requireEmbeddedFonts, pageName);

        std::string content = decodedContent(page, pageName, contentBytes);
        contentBytes += content.size();
        size_t showing = textCount.of(content, resources);
        mostTextShown = std::max(mostTextShown, showing);
        textShown += showing;
        if (content.find("BDC") != std::string::npos || content.find("BMC") != std::string::npos) {
            content = withoutMarkedContent(source, content, resources, pageName);
        }
        std::string compressed = deflate.compress(content);

        bool turned = placement.turns % 2 == 1;
        shown.width = turned ? placement.height : placement.width;
        shown.height = turned ? placement.width : placement.height;
        shown.links = placement.links(webLinks);
        std::string form = "<< /Type /XObject /Subtype /Form /FormType 1 /BBox " +
                           pdfArray({placement.x0, placement.y0, placement.x1, placement.y1}) +
                           " /Matrix " + placement.matrix();
        if (resources.isDictionary()) form += " /Resources " + resources.unparse();
        if (group.isDictionary()) form += " /Group " + group.unparse();
        form += " /Length " + std::to_string(compressed.size()) + " /Filter /FlateDecode >>\nstream\n";
        form += compressed;
        form += "\nendstream";
        shown.form = static_cast<int>(local.objects.size());
        local.objects.push_back(QPDFObjectHandle::newNull());
        objects.resize(local.objects.size());
        std::string renumbered;
        folio_text::appendRenumbered(renumbered, form, local.numbers);
        objects[static_cast<size_t>(shown.form)] = std::move(renumbered);
        shown.closure.push_back(shown.form);
        return shown;
    }
};

} // namespace

ImportedDocument::ImportedDocument(std::string_view pdf, size_t maximumPages) : bytes(pdf) {
    source = std::make_unique<QPDF>();
    source->setSuppressWarnings(true);
    // A damaged file is refused, not repaired by guessing where its objects are.
    source->setAttemptRecovery(false);
    try {
        source->processMemoryFile("appended PDF", bytes.data(), bytes.size());
    } catch (QPDFExc const &error) {
        if (error.getErrorCode() == qpdf_e_password) throw std::runtime_error("it is encrypted: append a copy saved without a password");
        std::string text = error.getMessageDetail();
        throw std::runtime_error("it is not a PDF that can be read (" + text.substr(0, text.find('\n')) + ")");
    }
    if (source->isEncrypted()) throw std::runtime_error("it is encrypted: append a copy saved without a password");
    if (source->anyWarnings()) throw std::runtime_error("it is damaged: " + firstWarning(*source));
    QPDFObjectHandle root = source->getRoot();
    if (root.hasKey("/OpenAction") || root.hasKey("/AA")) {
        QPDFObjectHandle action = root.getKey("/OpenAction");
        if (root.hasKey("/AA") || (action.isDictionary() && !nameOf(action, "/S").empty() && nameOf(action, "/S") != "/GoTo")) {
            throw std::runtime_error("it runs an action when opened; append a copy without it");
        }
    }
    QPDFObjectHandle names = root.getKey("/Names");
    if (names.isDictionary() && names.hasKey("/JavaScript")) throw std::runtime_error("it holds JavaScript");
    // Every object is looked at once, with the dictionaries and arrays written inside it: JavaScript
    // or a launch action anywhere refuses the file, wherever it hangs (a page's annotation, a form
    // field, an outline item).
    for (QPDFObjectHandle object : source->getAllObjects()) {
        std::vector<QPDFObjectHandle> pending = {object.isStream() ? object.getDict() : object};
        while (!pending.empty()) {
            QPDFObjectHandle value = pending.back();
            pending.pop_back();
            if (value.isDictionary()) {
                std::string action = nameOf(value, "/S");
                if (value.hasKey("/JS") || action == "/JavaScript") throw std::runtime_error("it holds JavaScript");
                if (action == "/Launch") throw std::runtime_error("it holds an action that launches a program");
                for (auto const &key : value.getKeys()) {
                    QPDFObjectHandle item = value.getKey(key);
                    if (!item.isIndirect() && (item.isDictionary() || item.isArray())) pending.push_back(item);
                }
            } else if (value.isArray()) {
                for (int index = 0; index < value.getArrayNItems(); ++index) {
                    QPDFObjectHandle item = value.getArrayItem(index);
                    if (!item.isIndirect() && (item.isDictionary() || item.isArray())) pending.push_back(item);
                }
            }
        }
    }
    // qpdf finds a loop in the page tree, or a page that is no dictionary, as it counts the pages.
    std::vector<QPDFPageObjectHelper> pages;
    try {
        pages = QPDFPageDocumentHelper(*source).getAllPages();
    } catch (std::exception const &error) {
        std::string text = error.what();
        size_t colon = text.find("): ");
        throw std::runtime_error("it is damaged: " + (colon == std::string::npos ? text : text.substr(colon + 3)));
    }
    if (source->anyWarnings()) throw std::runtime_error("it is damaged: " + firstWarning(*source));
    sourcePageCount = pages.size();
    if (sourcePageCount == 0) throw std::runtime_error("it has no page");
    if (sourcePageCount > maximumPages) {
        throw std::runtime_error(
            "it has " + std::to_string(sourcePageCount) + " pages; at most " + std::to_string(maximumPages) + " may be appended");
    }
}

void ImportedDocument::choose(std::vector<size_t> const &indices, bool requireEmbeddedFonts) {
    if (!source) throw std::logic_error("the pages were chosen already");
    // What the pages show through annotations — a filled form field, a signature's picture, a stamp —
    // becomes page content first (as printed: hidden and non-printing ones are left out), so that it
    // is not lost with the annotations, which are not copied.
    // Its links to web addresses are read first: flattening draws a link's appearance and drops the link.
    WebLinks webLinks = webLinksOf(*source, indices);
    QPDFAcroFormDocumentHelper(*source).generateAppearancesIfNeeded();
    QPDFPageDocumentHelper(*source).flattenAnnotations(an_print, an_invisible | an_hidden);
    if (source->anyWarnings()) throw std::runtime_error("it is damaged: " + firstWarning(*source));
    std::vector<QPDFPageObjectHelper> pages = QPDFPageDocumentHelper(*source).getAllPages();
    LocalNumbering local(source->getObjectCount() + 1);
    objects.assign(1, std::string());
    PageChooser chooser{*source, deflate, local, objects, {}, {}, contentBytes, mostTextShown, textShown, requireEmbeddedFonts};
    for (size_t index : indices) chosen.push_back(chooser.choose(pages, index, webLinks[index]));
    checkStreamsDecode(*source, local.objects);
    checkFontPrograms(chooser.fonts.programs);

    // Every object the chosen pages need, as text numbered locally.
    objects.resize(local.objects.size());
    for (size_t number = 1; number < local.objects.size(); ++number) {
        QPDFObjectHandle object = local.objects[number];
        if (object.isNull() && !objects[number].empty()) continue;
        objects[number] = localText(object, local.numbers);
    }
    if (source->anyWarnings()) throw std::runtime_error("it is damaged: " + firstWarning(*source));
    for (auto const &text : objects) heldBytes += text.size();
    source.reset();
    bytes.clear();
    bytes.shrink_to_fit();
}

} // namespace folio_finish
