#include "CGDAL.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static openmaps_gdal functions;
static const openmaps_gdal *loaded;
static char failure_message[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/// libgdal from `OPENMAPS_LIBGDAL` when set (a GDAL built into another prefix), else by its
/// development link's name, then by the sonames of GDAL 3.0 to 3.x.
static void *open_library(void) {
    const char *configured = getenv("OPENMAPS_LIBGDAL");
    if (configured && *configured) {
        void *library = dlopen(configured, RTLD_LAZY | RTLD_GLOBAL);
        if (!library)
            snprintf(failure_message, sizeof failure_message,
                     "GDAL's library could not be loaded from OPENMAPS_LIBGDAL=%s (%s)", configured, dlerror());
        return library;
    }
    void *library = dlopen("libgdal.so", RTLD_LAZY | RTLD_GLOBAL);
    if (library) return library;
    snprintf(failure_message, sizeof failure_message,
             "GDAL's library could not be loaded (%s); install libgdal-dev", dlerror());
    for (int version = 60; version >= 26 && !library; version--) {
        char name[32];
        snprintf(name, sizeof name, "libgdal.so.%d", version);
        library = dlopen(name, RTLD_LAZY | RTLD_GLOBAL);
    }
    return library;
}

static void load(void) {
    void *library = open_library();
    if (!library) return;
#define OPENMAPS_GDAL_RESOLVE(name)                                                               \
    if (!(*(void **)&functions.name = dlsym(library, #name))) {                                   \
        snprintf(failure_message, sizeof failure_message, "GDAL's library has no %s (GDAL 3.0 or " \
                 "later is needed)", #name);                                                      \
        return;                                                                                   \
    }
    OPENMAPS_GDAL_FUNCTIONS(OPENMAPS_GDAL_RESOLVE)
#undef OPENMAPS_GDAL_RESOLVE
    loaded = &functions;
}

const openmaps_gdal *openmaps_gdal_load(const char **failure) {
    pthread_once(&once, load);
    if (!loaded && failure) *failure = failure_message;
    return loaded;
}
