#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_MODULE_H

/// The 26.6 fixed-point value `value` as a whole number of pixels, rounded.
static inline long openmaps_ft_pixels(FT_Pos value) { return (value + 32) >> 6; }
