#ifndef OPENMAPS_CZLIB_SHIM_H
#define OPENMAPS_CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 is a macro; raw deflate streams (zip entries) use window bits -15.
static inline int openmaps_inflate_init_raw(z_stream *stream) { return inflateInit2(stream, -15); }
/// gzip members (window bits 15 + 16), as `.gz` files hold them.
static inline int openmaps_inflate_init_gzip(z_stream *stream) { return inflateInit2(stream, 31); }
/// deflateInit2 is a macro too: a zlib stream (PNG's IDAT) at `level` 0...9 with `strategy`.
static inline int openmaps_deflate_init(z_stream *stream, int level, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, 15, 8, strategy);
}
/// A gzip member (window bits 15 + 16) at `level` 0...9.
static inline int openmaps_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
}
#endif
