#ifndef OPENMAPS_CCURL_H
#define OPENMAPS_CCURL_H
// One HTTP GET through libcurl, loaded at the first request (`dlopen`) rather than linked (as
// Foundation's URLSession links it): libcurl pulls in some thirty libraries (TLS, Kerberos,
// LDAP, SSH, IDN), and loading them cost every `openmaps` command, online or not, a few
// milliseconds.
#include <stddef.h>

/// What a host answered: the status, the body, and the header lines of the last response (a
/// redirect's are dropped), each ending in CRLF. Free with `openmaps_http_answer_free`.
typedef struct openmaps_http_answer {
    long status;
    unsigned char *_Nullable body;
    size_t body_length;
    char *_Nullable headers;
    size_t headers_length;
} openmaps_http_answer;

/// GETs `url` (http or https, redirects followed) with `header_count` request headers ("Name:
/// value"), failing when connecting takes `timeout_seconds` or the answer stops for as long.
/// Returns 0 with `answer` filled, or else nonzero with why in `error` (`error_size` bytes,
/// terminated): libcurl missing, no host, refused, timed out.
int openmaps_http_get(const char *_Nonnull url, const char *_Nonnull const *_Nullable headers, int header_count,
                      long timeout_seconds, openmaps_http_answer *_Nonnull answer, char *_Nonnull error,
                      size_t error_size);

/// Frees what `openmaps_http_get` put in `answer`.
void openmaps_http_answer_free(openmaps_http_answer *_Nonnull answer);

#endif
