#ifndef OPENMAPS_CGDAL_H
#define OPENMAPS_CGDAL_H
// GDAL's declarations, and the functions GDALKit calls loaded from libgdal at first use
// (`dlopen`) rather than linked: libgdal pulls in some eighty libraries, and loading them cost
// every `openmaps` command, raster or not, about a twentieth of a second.
#if __has_include(<gdal/gdal.h>)
#include <gdal/gdal.h>
#include <gdal/gdalwarper.h>
#include <gdal/gdal_utils.h>
#include <gdal/ogr_srs_api.h>
#include <gdal/cpl_conv.h>
#include <gdal/cpl_error.h>
#include <gdal/cpl_string.h>
#else
#include <gdal.h>
#include <gdalwarper.h>
#include <gdal_utils.h>
#include <ogr_srs_api.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#endif

/// Every GDAL function GDALKit calls, by name.
#define OPENMAPS_GDAL_FUNCTIONS(X)                                                                  \
    X(CPLErrorReset) X(CPLGetLastErrorMsg) X(CPLQuietErrorHandler) X(CPLSetErrorHandler)            \
    X(CSLAddString) X(CSLDestroy)                                                                   \
    X(GDALAllRegister) X(GDALBuildOverviews) X(GDALBuildVRT) X(GDALBuildVRTOptionsFree)             \
    X(GDALBuildVRTOptionsNew) X(GDALClose) X(GDALComputeRasterMinMax) X(GDALCreate)                 \
    X(GDALCreateColorTable) X(GDALCreateCopy) X(GDALDatasetRasterIO) X(GDALDestroyColorTable)       \
    X(GDALGetDatasetDriver) X(GDALGetDriverByName) X(GDALGetDriverShortName) X(GDALGetGeoTransform) \
    X(GDALGetProjectionRef) X(GDALGetRasterBand) X(GDALGetRasterColorInterpretation)                \
    X(GDALGetRasterColorTable) X(GDALGetRasterCount) X(GDALGetRasterDataType)                       \
    X(GDALGetRasterNoDataValue) X(GDALGetRasterXSize) X(GDALGetRasterYSize) X(GDALInvGeoTransform)  \
    X(GDALOpenEx) X(GDALRasterIO) X(GDALReprojectImage) X(GDALSetColorEntry) X(GDALSetGeoTransform) \
    X(GDALSetProjection) X(GDALSetRasterColorInterpretation) X(GDALSetRasterColorTable)             \
    X(GDALSetRasterNoDataValue) X(GDALTranslate) X(GDALTranslateOptionsFree)                        \
    X(GDALTranslateOptionsNew) X(GDALWarp) X(GDALWarpAppOptionsFree) X(GDALWarpAppOptionsNew)       \
    X(OCTDestroyCoordinateTransformation) X(OCTNewCoordinateTransformation) X(OCTTransformEx)       \
    X(OSRDestroySpatialReference) X(OSRExportToWkt) X(OSRImportFromEPSG) X(OSRNewSpatialReference)  \
    X(OSRSetAxisMappingStrategy) X(VSIFCloseL) X(VSIFileFromMemBuffer) X(VSIFree)                   \
    X(VSIGetMemFileBuffer) X(VSIUnlink)

/// The GDAL functions GDALKit calls, each with GDAL's own signature.
typedef struct openmaps_gdal {
#define OPENMAPS_GDAL_FIELD(name) __typeof__(name) *_Nonnull name;
    OPENMAPS_GDAL_FUNCTIONS(OPENMAPS_GDAL_FIELD)
#undef OPENMAPS_GDAL_FIELD
} openmaps_gdal;

/// libgdal's functions, loaded once a process (thread-safe); NULL when libgdal or one of them
/// cannot be found, with `*failure` (when given) set to why, a message that lives as long as
/// the process.
const openmaps_gdal *_Nullable openmaps_gdal_load(const char *_Nullable *_Nullable failure);

#endif
