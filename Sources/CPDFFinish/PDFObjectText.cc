// See PDFObjectText.hh.
#include "PDFObjectText.hh"

#include <algorithm>

#include <cstdlib>
#include <stdexcept>

namespace folio_text {
namespace {

bool isWhite(char byte) { return byte == ' ' || byte == '\n' || byte == '\r' || byte == '\t' || byte == '\f' || byte == '\0'; }

bool isDelimiter(char byte) {
    switch (byte) {
    case '(': case ')': case '<': case '>': case '[': case ']': case '{': case '}': case '/': case '%': return true;
    default: return false;
    }
}

/// Where the literal string starting at `position` (its opening parenthesis) ends, after its
/// closing one: nested parentheses count, a backslash escapes the next byte. npos when it does not end.
size_t endOfLiteralString(std::string_view text, size_t position) {
    int depth = 0;
    while (position < text.size()) {
        char character = text[position];
        if (character == '\\') {
            position += 2;
            continue;
        }
        ++position;
        if (character == '(') ++depth;
        if (character == ')' && --depth == 0) return position;
    }
    return std::string_view::npos;
}

/// The tokens of PDF object syntax, one at a time.
class Lexer {
  public:
    enum class Kind { end, dictionaryOpen, dictionaryClose, arrayOpen, arrayClose, name, string, word };

    struct Token {
        Kind kind;
        size_t start;
        size_t end;
    };

    explicit Lexer(std::string_view text, size_t position = 0) : text(text), position(position) {}

    Token next() {
        skipWhite();
        size_t start = position;
        if (position >= text.size()) return {Kind::end, start, start};
        char byte = text[position];
        if (byte == '<' && position + 1 < text.size() && text[position + 1] == '<') {
            position += 2;
            return {Kind::dictionaryOpen, start, position};
        }
        if (byte == '>' && position + 1 < text.size() && text[position + 1] == '>') {
            position += 2;
            return {Kind::dictionaryClose, start, position};
        }
        if (byte == '[' || byte == ']') {
            ++position;
            return {byte == '[' ? Kind::arrayOpen : Kind::arrayClose, start, position};
        }
        if (byte == '<') {
            size_t close = text.find('>', position);
            if (close == std::string_view::npos) throw std::runtime_error("structure: a hexadecimal string does not end");
            position = close + 1;
            return {Kind::string, start, position};
        }
        if (byte == '(') {
            position = endOfLiteralString(text, position);
            if (position == std::string_view::npos) throw std::runtime_error("structure: a string does not end");
            return {Kind::string, start, position};
        }
        if (byte == '/') {
            ++position;
            while (position < text.size() && !isWhite(text[position]) && !isDelimiter(text[position])) ++position;
            return {Kind::name, start, position};
        }
        if (isDelimiter(byte)) throw std::runtime_error("structure: unexpected '" + std::string(1, byte) + "' in an object");
        while (position < text.size() && !isWhite(text[position]) && !isDelimiter(text[position])) ++position;
        return {Kind::word, start, position};
    }

    /// Skips one whole value starting with `first`; returns where it ends.
    size_t skipValue(Token first) {
        if (first.kind == Kind::dictionaryOpen || first.kind == Kind::arrayOpen) {
            Kind close = first.kind == Kind::dictionaryOpen ? Kind::dictionaryClose : Kind::arrayClose;
            while (true) {
                Token token = next();
                if (token.kind == Kind::end) throw std::runtime_error("structure: a dictionary or array does not end");
                if (token.kind == close) return token.end;
                skipValue(token);
            }
        }
        if (first.kind == Kind::word && isInteger(first)) {
            // "12 0 R" is one value.
            size_t saved = position;
            Token generation = next();
            if (generation.kind == Kind::word && isInteger(generation)) {
                Token keyword = next();
                if (keyword.kind == Kind::word && word(keyword) == "R") return keyword.end;
            }
            position = saved;
            return first.end;
        }
        if (first.kind == Kind::end || first.kind == Kind::dictionaryClose || first.kind == Kind::arrayClose) {
            throw std::runtime_error("structure: a value is missing");
        }
        return first.end;
    }

    std::string_view word(Token token) const { return text.substr(token.start, token.end - token.start); }

    bool isInteger(Token token) const {
        std::string_view digits = word(token);
        if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) digits.remove_prefix(1);
        if (digits.empty() || digits.size() > 18) return false;
        for (char digit : digits) {
            if (digit < '0' || digit > '9') return false;
        }
        return true;
    }

    size_t position;

  private:
    std::string_view text;

    void skipWhite() {
        while (position < text.size()) {
            if (isWhite(text[position])) {
                ++position;
            } else if (text[position] == '%') {
                while (position < text.size() && text[position] != '\n' && text[position] != '\r') ++position;
            } else {
                return;
            }
        }
    }
};

} // namespace

std::vector<Entry> entries(std::string_view dictionary, size_t &closing) {
    Lexer lexer(dictionary);
    if (lexer.next().kind != Lexer::Kind::dictionaryOpen) throw std::runtime_error("structure: an element is not a dictionary");
    std::vector<Entry> found;
    while (true) {
        Lexer::Token key = lexer.next();
        if (key.kind == Lexer::Kind::dictionaryClose) {
            closing = key.start;
            return found;
        }
        if (key.kind != Lexer::Kind::name) throw std::runtime_error("structure: a dictionary key is not a name");
        Lexer::Token value = lexer.next();
        size_t end = lexer.skipValue(value);
        found.push_back({dictionary.substr(key.start, key.end - key.start), key.start, value.start, end});
    }
}

bool hasRepeatedKey(std::string_view dictionary, int depth) {
    if (depth <= 0) return true;
    size_t closing = 0;
    std::vector<Entry> found = entries(dictionary, closing);
    std::vector<std::string_view> keys;
    keys.reserve(found.size());
    for (auto const &entry : found) {
        keys.push_back(entry.key);
        std::string_view value = dictionary.substr(entry.valueStart, entry.end - entry.valueStart);
        size_t first = value.find_first_not_of(" \t\r\n\f");
        if (first != std::string_view::npos && value.substr(first, 2) == "<<" && hasRepeatedKey(value.substr(first), depth - 1)) return true;
    }
    std::sort(keys.begin(), keys.end());
    return std::adjacent_find(keys.begin(), keys.end()) != keys.end();
}

Entry const *find(std::vector<Entry> const &entries, std::string_view key) {
    for (auto const &entry : entries) {
        if (entry.key == key) return &entry;
    }
    return nullptr;
}

std::vector<Item> items(std::string_view value) {
    Lexer lexer(value);
    std::vector<Item> found;
    auto item = [&](Lexer::Token first) {
        size_t end = lexer.skipValue(first);
        Item::Kind kind = Item::Kind::other;
        long long number = 0;
        if (first.kind == Lexer::Kind::word && lexer.isInteger(first)) {
            number = std::strtoll(std::string(lexer.word(first)).c_str(), nullptr, 10);
            kind = end == first.end ? Item::Kind::integer : Item::Kind::reference;
        }
        found.push_back({kind, number, first.start, end});
    };
    Lexer::Token first = lexer.next();
    if (first.kind == Lexer::Kind::end) return found;
    if (first.kind != Lexer::Kind::arrayOpen) {
        item(first);
        return found;
    }
    while (true) {
        Lexer::Token token = lexer.next();
        if (token.kind == Lexer::Kind::arrayClose) return found;
        if (token.kind == Lexer::Kind::end) throw std::runtime_error("structure: an array does not end");
        item(token);
    }
}

void setEntry(std::string &dictionary, std::string_view key, std::string const &value) {
    size_t closing = 0;
    std::vector<Entry> found = entries(dictionary, closing);
    std::string entry = std::string(key) + " " + value;
    if (Entry const *existing = find(found, key)) {
        dictionary.replace(existing->start, existing->end - existing->start, entry);
    } else {
        dictionary.insert(closing, "   " + entry + "\n");
    }
}

std::string reference(int number) { return std::to_string(number) + " 0 R"; }

void appendRenumbered(std::string &out, std::string_view body, std::vector<int> const &numbers) {
    // One pass over the bytes (every object of a long document goes through here): strings,
    // names and comments are skipped whole; a run of digits followed by white space, digits, white
    // space and the keyword R is a reference.
    size_t length = body.size();
    size_t copied = 0;
    size_t position = 0;
    auto isDigit = [](char byte) { return byte >= '0' && byte <= '9'; };
    auto isRegular = [](char byte) { return !isWhite(byte) && !isDelimiter(byte); };
    while (position < length) {
        char byte = body[position];
        if (byte == '(') {
            position = endOfLiteralString(body, position);
            if (position == std::string_view::npos) position = length;
        } else if (byte == '<') {
            if (position + 1 < length && body[position + 1] == '<') {
                position += 2;
            } else {
                size_t close = body.find('>', position);
                position = close == std::string_view::npos ? length : close + 1;
            }
        } else if (byte == '%') {
            while (position < length && body[position] != '\n' && body[position] != '\r') ++position;
        } else if (byte == '/') {
            ++position;
            while (position < length && isRegular(body[position])) ++position;
        } else if (isDigit(byte)) {
            size_t start = position;
            while (position < length && isDigit(body[position])) ++position;
            if (position < length && isRegular(body[position])) {
                while (position < length && isRegular(body[position])) ++position;
                continue;
            }
            // An integer: is it "N G R"?
            size_t cursor = position;
            while (cursor < length && isWhite(body[cursor])) ++cursor;
            size_t generation = cursor;
            while (cursor < length && isDigit(body[cursor])) ++cursor;
            if (cursor == generation || cursor - generation > 9 || cursor >= length || !isWhite(body[cursor])) continue;
            while (cursor < length && isWhite(body[cursor])) ++cursor;
            if (cursor >= length || body[cursor] != 'R' || (cursor + 1 < length && isRegular(body[cursor + 1]))) continue;
            long long number = position - start > 12 ? -1 : std::strtoll(std::string(body.substr(start, position - start)).c_str(), nullptr, 10);
            int mapped = number > 0 && static_cast<unsigned long long>(number) < numbers.size() ? numbers[static_cast<size_t>(number)] : 0;
            out.append(body, copied, start - copied);
            if (mapped > 0) {
                out += std::to_string(mapped);
                out += " 0 R";
            } else {
                out += "null";
            }
            position = cursor + 1;
            copied = position;
        } else if (isRegular(byte)) {
            size_t start = position;
            while (position < length && isRegular(body[position])) ++position;
            // The data after the keyword is bytes, not syntax.
            if (body.substr(start, position - start) == "stream") break;
        } else {
            ++position;
        }
    }
    out.append(body, copied, std::string_view::npos);
}

} // namespace folio_text
