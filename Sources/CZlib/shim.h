#ifndef OPENMAPS_CZLIB_SHIM_H
#define OPENMAPS_CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 is a macro; raw deflate streams (zip entries) use window bits -15.
static inline int openmaps_inflate_init_raw(z_stream *stream) { return inflateInit2(stream, -15); }
#endif
