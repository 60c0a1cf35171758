// Reading and editing the text of one PDF object without parsing the file (ISO 32000-1, 7.2 and
// 7.3): enough to finish the structure elements Cairo writes one object at a time, instead of
// holding every element of a long document as a qpdf object.
#ifndef FOLIO_PDF_OBJECT_TEXT_HH
#define FOLIO_PDF_OBJECT_TEXT_HH

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace folio_text {

/// One top-level entry of a dictionary's text: its key (a name such as "/S") and where the entry
/// and its value are in the text.
struct Entry {
    std::string_view key;
    size_t start;
    size_t valueStart;
    size_t end;
};

/// One value of an array (or a lone value): a reference ("12 0 R"), an integer, or anything else
/// (a dictionary such as a marked-content reference), and where it is in the text.
struct Item {
    enum class Kind { reference, integer, other };
    Kind kind;
    long long number;
    size_t start;
    size_t end;
};

/// A dictionary's text (`<< … >>`, leading white space allowed) read into its top-level entries;
/// `closing` is set to where its `>>` starts. Throws std::runtime_error on anything else.
std::vector<Entry> entries(std::string_view dictionary, size_t &closing);

/// Whether `dictionary` (a dictionary's text), or a dictionary inside it, names a key twice (Cairo
/// 1.16 can name one image twice in a resource dictionary). Throws std::runtime_error when it is
/// not a dictionary; true when dictionaries nest deeper than `depth`.
bool hasRepeatedKey(std::string_view dictionary, int depth = 8);

/// The entry `key` of `entries`, or nullptr.
Entry const *find(std::vector<Entry> const &entries, std::string_view key);

/// The values of an array's text, or the one value `value` is when it is not an array.
std::vector<Item> items(std::string_view value);

/// `dictionary` with `key` set to `value` (PDF syntax): the entry replaced where it is, or added
/// before the closing `>>`.
void setEntry(std::string &dictionary, std::string_view key, std::string const &value);

/// "12 0 R".
std::string reference(int number);

/// Appends `body` (the text of one object: a value, or a stream's dictionary then its data) to `out`
/// with the object number of every reference looked up in `numbers`; a reference to a number it
/// maps to 0 or does not hold becomes `null` (ISO 32000-1, 7.3.10). A stream's data is copied as it is.
void appendRenumbered(std::string &out, std::string_view body, std::vector<int> const &numbers);

} // namespace folio_text

#endif
