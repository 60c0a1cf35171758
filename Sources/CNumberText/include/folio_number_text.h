#ifndef FOLIO_NUMBER_TEXT_H
#define FOLIO_NUMBER_TEXT_H
#include <stddef.h>

/// Writes `value` as `printf("%.*f", decimals, value)` does into `buffer` (NUL-terminated, at most
/// `capacity` bytes): the exact binary value rounded half to even. Returns the length printf gives
/// (which may exceed `capacity - 1` when the text was cut), or a negative number on failure.
/// Called from Swift without a variadic argument list: Swift's CVarArg boxing of each argument
/// costs a dynamic cast per argument type, whose first use scans every protocol conformance.
int folio_fixed_text(char *buffer, size_t capacity, int decimals, double value);

#endif
