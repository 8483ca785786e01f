#include "CPostgres.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static openmaps_pq functions;
static const openmaps_pq *loaded;
static char failure_message[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/// libpq from `OPENMAPS_LIBPQ` when set (a libpq built into another prefix), else by its
/// soname (every libpq since PostgreSQL 8.2 is libpq.so.5), then by its development link.
static void *open_library(void) {
    const char *configured = getenv("OPENMAPS_LIBPQ");
    if (configured && *configured) {
        void *library = dlopen(configured, RTLD_LAZY | RTLD_LOCAL);
        if (!library)
            snprintf(failure_message, sizeof failure_message,
                     "PostgreSQL's client library could not be loaded from OPENMAPS_LIBPQ=%s (%s)", configured,
                     dlerror());
        return library;
    }
    void *library = dlopen("libpq.so.5", RTLD_LAZY | RTLD_LOCAL);
    if (library) return library;
    snprintf(failure_message, sizeof failure_message,
             "PostgreSQL's client library could not be loaded (%s); install libpq5", dlerror());
    return dlopen("libpq.so", RTLD_LAZY | RTLD_LOCAL);
}

static void load(void) {
    void *library = open_library();
    if (!library) return;
#define OPENMAPS_PQ_RESOLVE(name)                                                                 \
    if (!(*(void **)&functions.name = dlsym(library, #name))) {                                   \
        snprintf(failure_message, sizeof failure_message,                                         \
                 "PostgreSQL's client library has no %s (libpq 10 or later is needed)", #name);   \
        return;                                                                                   \
    }
    OPENMAPS_PQ_FUNCTIONS(OPENMAPS_PQ_RESOLVE)
#undef OPENMAPS_PQ_RESOLVE
    loaded = &functions;
}

const openmaps_pq *openmaps_pq_load(const char **failure) {
    pthread_once(&once, load);
    if (!loaded && failure) *failure = failure_message;
    return loaded;
}
