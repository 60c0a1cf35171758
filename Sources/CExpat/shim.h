#ifndef CEXPAT_SHIM_H
#define CEXPAT_SHIM_H
#include <expat.h>
#endif
