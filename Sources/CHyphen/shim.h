#ifndef CHYPHEN_SHIM_H
#define CHYPHEN_SHIM_H
/* libhyphen (Debian's libhyphen-dev, linked statically from libhyphen.a): the hyphenation of
   LibreOffice and TeX's patterns, read from the hyphen-* packages' /usr/share/hyphen/hyph_*.dic. */
#include <stdlib.h>
#include <hyphen.h>
#endif
