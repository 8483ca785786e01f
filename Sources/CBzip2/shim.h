#ifndef OPENMAPS_CBZIP2_SHIM_H
#define OPENMAPS_CBZIP2_SHIM_H
#include <bzlib.h>
#endif
