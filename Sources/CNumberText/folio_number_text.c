#include "folio_number_text.h"

#include <stdio.h>

int folio_fixed_text(char *buffer, size_t capacity, int decimals, double value) {
    return snprintf(buffer, capacity, "%.*f", decimals, value);
}
