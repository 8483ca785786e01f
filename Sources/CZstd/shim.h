#ifndef OPENMAPS_CZSTD_SHIM_H
#define OPENMAPS_CZSTD_SHIM_H
#include <zstd.h>
#endif
