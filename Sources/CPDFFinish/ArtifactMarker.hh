// Marks page content drawn outside the structure tree as Artifacts.
#ifndef FOLIO_ARTIFACT_MARKER_HH
#define FOLIO_ARTIFACT_MARKER_HH

// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace folio_finish {

/// Content-stream syntax (ISO 32000-1, 7.2.2): which bytes are white space, and which are
/// regular (neither white space nor a delimiter), as a table made at compile time.
namespace content_syntax {
constexpr bool isWhitespace(unsigned char byte) {
    return byte == ' ' || byte == '\n' || byte == '\r' || byte == '\t' || byte == '\f' || byte == 0;
}

constexpr std::array<bool, 256> regularBytes() {
    std::array<bool, 256> table{};
    constexpr std::string_view delimiters = "()<>[]{}/%";
    for (size_t value = 0; value < table.size(); ++value) {
        bool delimiter = delimiters.find(static_cast<char>(value)) != std::string_view::npos;
        table[value] = !isWhitespace(static_cast<unsigned char>(value)) && !delimiter;
    }
    return table;
}

inline constexpr std::array<bool, 256> regular = regularBytes();
} // namespace content_syntax

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
        size_t const length = input.size();
        char const *const data = input.data();
        operandStart = 0;
        bool operandsHaveMCID = false;
        while (position < length) {
            unsigned char byte = data[position];
            if (isRegular(byte)) {
                // A number, a keyword or an operator: most of what content holds.
                size_t wordStart = position;
                do {
                    ++position;
                } while (position < length && isRegular(data[position]));
                std::string_view word(data + wordStart, position - wordStart);
                if (isOperand(word)) continue;
                handleOperator(word, operandsHaveMCID);
                operandsHaveMCID = false;
                if (word.size() == 2 && word[0] == 'I' && word[1] == 'D') position = skipInlineImageData(position);
                operandStart = position;
            } else if (isWhitespace(byte)) {
                ++position;
            } else if (byte == '%') {
                while (position < length && data[position] != '\n' && data[position] != '\r') ++position;
            } else if (byte == '(') {
                position = skipLiteralString(position);
            } else if (byte == '<' && position + 1 < length && data[position + 1] == '<') {
                position += 2;
            } else if (byte == '>' && position + 1 < length && data[position + 1] == '>') {
                position += 2;
            } else if (byte == '<') {
                size_t close = input.find('>', position);
                position = close == std::string::npos ? length : close + 1;
            } else if (byte == '/') {
                size_t nameStart = position;
                ++position;
                while (position < length && isRegular(data[position])) ++position;
                if (input.compare(nameStart, position - nameStart, "/MCID") == 0) operandsHaveMCID = true;
            } else {
                ++position;  // '[', ']', '{', '}', or a stray delimiter such as ')' or '>'
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

    static bool isWhitespace(unsigned char byte) { return content_syntax::isWhitespace(byte); }

    static bool isRegular(unsigned char byte) { return content_syntax::regular[byte]; }

    static bool isOperand(std::string_view word) {
        unsigned char first = word[0];
        return (first >= '0' && first <= '9') || first == '+' || first == '-' || first == '.' || word == "true" ||
               word == "false" || word == "null";
    }

    /// Whether `op` starts or paints a graphics object: a path's construction or painting
    /// (m l c v y h re S s f F f* B B* b b* n), a shading (sh), an XObject (Do), an inline image
    /// (BI) or text shown (Tj TJ ' ").
    static bool marks(std::string_view op) {
        if (op.size() == 1) {
            switch (op[0]) {
            case 'm': case 'l': case 'c': case 'v': case 'y': case 'h': case 'S': case 's':
            case 'f': case 'F': case 'B': case 'b': case 'n': case '\'': case '"':
                return true;
            default:
                return false;
            }
        }
        if (op.size() != 2) return false;
        return op == "re" || op == "f*" || op == "B*" || op == "b*" || op == "sh" || op == "Do" || op == "BI" || op == "Tj" ||
               op == "TJ";
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

} // namespace folio_finish

#endif
