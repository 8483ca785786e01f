#ifndef OPENMAPS_CCAIRO_SHIM_H
#define OPENMAPS_CCAIRO_SHIM_H
// Cairo through its own headers (found under the default include path). Pango's headers
// pull in GLib's, whose pkg-config flags SwiftPM rejects (-pthread), so the handful of
// Pango functions CairoKit calls are declared here, with opaque types, exactly as in
// <pango/pango-layout.h>, <pango/pango-font.h> and <pango/pangocairo.h> (Pango 1.50).
// CairoKitTests compiles these declarations against the real headers (with
// OPENMAPS_PANGO_FROM_HEADERS defined, so Pango's own types are used), so a declaration that
// drifts from Pango's is a failing test, not a silent ABI mismatch.
#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>
#include <cairo/cairo-svg.h>

/// Pango units per point (PANGO_SCALE).
enum { OPENMAPS_PANGO_SCALE = 1024 };

#ifndef OPENMAPS_PANGO_FROM_HEADERS
typedef struct _PangoLayout PangoLayout;
typedef struct _PangoFontDescription PangoFontDescription;
typedef struct _PangoContext PangoContext;

/// Pango's rectangle, in Pango units or pixels depending on the call.
typedef struct {
    int x;
    int y;
    int width;
    int height;
} PangoRectangle;
#endif

PangoLayout *pango_cairo_create_layout(cairo_t *cr);
void pango_cairo_update_layout(cairo_t *cr, PangoLayout *layout);
void pango_cairo_show_layout(cairo_t *cr, PangoLayout *layout);
void pango_cairo_layout_path(cairo_t *cr, PangoLayout *layout);
void pango_layout_set_text(PangoLayout *layout, const char *text, int length);
void pango_layout_set_font_description(PangoLayout *layout, const PangoFontDescription *desc);
void pango_layout_set_width(PangoLayout *layout, int width);
int pango_layout_get_unknown_glyphs_count(PangoLayout *layout);
int pango_layout_get_baseline(PangoLayout *layout);
void pango_layout_get_extents(PangoLayout *layout, PangoRectangle *ink_rect, PangoRectangle *logical_rect);
PangoFontDescription *pango_font_description_from_string(const char *str);
void pango_font_description_free(PangoFontDescription *desc);
void g_object_unref(void *object);
#endif
