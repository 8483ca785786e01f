#include "CCurl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The libcurl functions called, each with libcurl's own signature.
static struct {
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_reset) *easy_reset;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_perform) *easy_perform;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_slist_append) *slist_append;
    __typeof__(curl_slist_free_all) *slist_free_all;
} curl;
static int loaded;
static char failure_message[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;
/// Each thread's easy handle, kept between requests so that its connections are reused.
static pthread_key_t handle_key;

static void release_handle(void *handle) { curl.easy_cleanup(handle); }

static void load(void) {
    // libcurl from `OPENMAPS_LIBCURL` when set, else by its soname, then its development link.
    const char *configured = getenv("OPENMAPS_LIBCURL");
    void *library;
    if (configured && *configured) {
        library = dlopen(configured, RTLD_LAZY | RTLD_LOCAL);
        if (!library)
            snprintf(failure_message, sizeof failure_message,
                     "libcurl could not be loaded from OPENMAPS_LIBCURL=%s (%s)", configured, dlerror());
    } else {
        library = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
        if (!library)
            snprintf(failure_message, sizeof failure_message, "libcurl could not be loaded (%s); install libcurl4",
                     dlerror());
        if (!library) library = dlopen("libcurl.so", RTLD_LAZY | RTLD_LOCAL);
    }
    if (!library) return;
#define RESOLVE(field, name)                                                                        \
    if (!(*(void **)&curl.field = dlsym(library, #name))) {                                         \
        snprintf(failure_message, sizeof failure_message, "libcurl has no %s (7.62 or later is needed)", #name); \
        return;                                                                                     \
    }
    RESOLVE(global_init, curl_global_init)
    RESOLVE(easy_init, curl_easy_init)
    RESOLVE(easy_reset, curl_easy_reset)
    RESOLVE(easy_setopt, curl_easy_setopt)
    RESOLVE(easy_perform, curl_easy_perform)
    RESOLVE(easy_getinfo, curl_easy_getinfo)
    RESOLVE(easy_cleanup, curl_easy_cleanup)
    RESOLVE(easy_strerror, curl_easy_strerror)
    RESOLVE(slist_append, curl_slist_append)
    RESOLVE(slist_free_all, curl_slist_free_all)
#undef RESOLVE
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(failure_message, sizeof failure_message, "libcurl could not be initialised");
        return;
    }
    if (pthread_key_create(&handle_key, release_handle) != 0) {
        snprintf(failure_message, sizeof failure_message, "libcurl's handles could not be kept");
        return;
    }
    loaded = 1;
}

/// Bytes gathered as they come.
typedef struct buffer {
    char *bytes;
    size_t length;
    size_t capacity;
    int failed;
} buffer;

static int append(buffer *buffer, const char *bytes, size_t length) {
    if (buffer->length + length + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 16384;
        while (capacity < buffer->length + length + 1) capacity *= 2;
        char *grown = realloc(buffer->bytes, capacity);
        if (!grown) {
            buffer->failed = 1;
            return 0;
        }
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
    buffer->bytes[buffer->length] = 0;
    return 1;
}

static size_t write_body(char *bytes, size_t size, size_t count, void *user) {
    return append(user, bytes, size * count) ? size * count : 0;
}

static size_t write_header(char *bytes, size_t size, size_t count, void *user) {
    buffer *headers = user;
    // A new response (after a redirect, or a 100 Continue): its headers replace the last one's.
    if (size * count >= 5 && memcmp(bytes, "HTTP/", 5) == 0) headers->length = 0;
    return append(headers, bytes, size * count) ? size * count : 0;
}

int openmaps_http_get(const char *url, const char *const *headers, int header_count, long timeout_seconds,
                      openmaps_http_answer *answer, char *error, size_t error_size) {
    memset(answer, 0, sizeof *answer);
    pthread_once(&once, load);
    if (!loaded) {
        snprintf(error, error_size, "%s", failure_message);
        return 1;
    }
    CURL *handle = pthread_getspecific(handle_key);
    if (handle) {
        curl.easy_reset(handle);
    } else {
        handle = curl.easy_init();
        if (!handle || pthread_setspecific(handle_key, handle) != 0) {
            if (handle) curl.easy_cleanup(handle);
            snprintf(error, error_size, "libcurl could not make a request");
            return 1;
        }
    }
    struct curl_slist *list = NULL;
    for (int index = 0; index < header_count; index++) {
        struct curl_slist *longer = curl.slist_append(list, headers[index]);
        if (!longer) {
            curl.slist_free_all(list);
            snprintf(error, error_size, "out of memory");
            return 1;
        }
        list = longer;
    }
    buffer body = {0}, head = {0};
    char reason[CURL_ERROR_SIZE] = {0};
    curl.easy_setopt(handle, CURLOPT_URL, url);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
    curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(handle, CURLOPT_MAXREDIRS, 10L);
#if CURL_AT_LEAST_VERSION(7, 85, 0)
    curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl.easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#endif
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, timeout_seconds);
    // An answer that stops for the timeout fails; a long download that keeps coming does not.
    curl.easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl.easy_setopt(handle, CURLOPT_LOW_SPEED_TIME, timeout_seconds);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, write_body);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, &body);
    curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, write_header);
    curl.easy_setopt(handle, CURLOPT_HEADERDATA, &head);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, reason);
    CURLcode code = curl.easy_perform(handle);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, NULL);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, NULL);
    curl.slist_free_all(list);
    if (code != CURLE_OK || body.failed || head.failed) {
        snprintf(error, error_size, "%s", body.failed || head.failed ? "out of memory"
                                          : reason[0]                 ? reason
                                                                      : curl.easy_strerror(code));
        free(body.bytes);
        free(head.bytes);
        return 1;
    }
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &answer->status);
    answer->body = (unsigned char *)body.bytes;
    answer->body_length = body.length;
    answer->headers = head.bytes;
    answer->headers_length = head.length;
    return 0;
}

void openmaps_http_answer_free(openmaps_http_answer *answer) {
    free(answer->body);
    free(answer->headers);
    memset(answer, 0, sizeof *answer);
}
