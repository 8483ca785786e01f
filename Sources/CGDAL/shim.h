#ifndef OPENMAPS_CGDAL_SHIM_H
#define OPENMAPS_CGDAL_SHIM_H
#include <gdal.h>
#include <gdalwarper.h>
#include <gdal_utils.h>
#include <ogr_srs_api.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#endif
