#ifndef OPENMAPS_CPOSTGRES_H
#define OPENMAPS_CPOSTGRES_H
// libpq's declarations, and the functions PostgresKit calls loaded at first use (`dlopen`)
// rather than linked: libpq pulls in a dozen libraries (TLS, Kerberos, LDAP), and loading them
// cost every `openmaps` command, PostGIS store or not, a few milliseconds.
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif

/// Every libpq function PostgresKit calls, by name.
#define OPENMAPS_PQ_FUNCTIONS(X)                                                                   \
    X(PQclear) X(PQcmdTuples) X(PQconnectdb) X(PQerrorMessage) X(PQexec) X(PQexecPrepared)        \
    X(PQfinish) X(PQftype) X(PQgetisnull) X(PQgetlength) X(PQgetResult) X(PQgetvalue)             \
    X(PQntuples) X(PQprepare) X(PQputCopyData) X(PQputCopyEnd) X(PQresultErrorField)              \
    X(PQresultErrorMessage) X(PQresultStatus) X(PQsetNoticeProcessor) X(PQstatus)

/// The libpq functions PostgresKit calls, each with libpq's own signature.
typedef struct openmaps_pq {
#define OPENMAPS_PQ_FIELD(name) __typeof__(name) *_Nonnull name;
    OPENMAPS_PQ_FUNCTIONS(OPENMAPS_PQ_FIELD)
#undef OPENMAPS_PQ_FIELD
} openmaps_pq;

/// libpq's functions, loaded once a process (thread-safe); NULL when libpq or one of them
/// cannot be found, with `*failure` (when given) set to why, a message that lives as long as
/// the process.
const openmaps_pq *_Nullable openmaps_pq_load(const char *_Nullable *_Nullable failure);

#endif
