#ifndef OPENMAPS_CZLIB_SHIM_H
#define OPENMAPS_CZLIB_SHIM_H
#include <zlib.h>
#endif
