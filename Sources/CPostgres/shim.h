#ifndef OPENMAPS_CPOSTGRES_SHIM_H
#define OPENMAPS_CPOSTGRES_SHIM_H
#include <libpq-fe.h>
#endif
