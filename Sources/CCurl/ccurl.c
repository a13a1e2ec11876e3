// libcurl, looked up with dlopen (include/ccurl.h says why). Only its stable C API is used, as of
// 7.68 (curl_multi_poll and curl_multi_wakeup): Debian 11, Ubuntu 20.04 and macOS 11 have it.
#define CURL_DISABLE_TYPECHECK 1
#define CURL_NO_OLDIES 1
#include "ccurl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_cleanup)(CURLM *);
} curl;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int loaded = 0;

// The names libcurl goes by: Debian's and Fedora's (OpenSSL, then GnuTLS), then macOS's.
static const char *const library_names[] = {
    "libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so", "libcurl.4.dylib", "/usr/lib/libcurl.4.dylib", NULL,
};

static int load_symbols(void *handle, const char *name, char *error, size_t size) {
#define LOOK_UP(field, symbol)                                                                    \
    do {                                                                                          \
        *(void **)&curl.field = dlsym(handle, symbol);                                            \
        if (!curl.field) {                                                                        \
            snprintf(error, size, "%s has no %s", name, symbol);                                \
            return -1;                                                                            \
        }                                                                                         \
    } while (0)
    LOOK_UP(global_init, "curl_global_init");
    LOOK_UP(easy_init, "curl_easy_init");
    LOOK_UP(easy_setopt, "curl_easy_setopt");
    LOOK_UP(easy_getinfo, "curl_easy_getinfo");
    LOOK_UP(easy_cleanup, "curl_easy_cleanup");
    LOOK_UP(easy_strerror, "curl_easy_strerror");
    LOOK_UP(slist_append, "curl_slist_append");
    LOOK_UP(slist_free_all, "curl_slist_free_all");
    LOOK_UP(multi_init, "curl_multi_init");
    LOOK_UP(multi_add_handle, "curl_multi_add_handle");
    LOOK_UP(multi_remove_handle, "curl_multi_remove_handle");
    LOOK_UP(multi_perform, "curl_multi_perform");
    LOOK_UP(multi_poll, "curl_multi_poll");
    LOOK_UP(multi_wakeup, "curl_multi_wakeup");
    LOOK_UP(multi_info_read, "curl_multi_info_read");
    LOOK_UP(multi_cleanup, "curl_multi_cleanup");
#undef LOOK_UP
    return 0;
}

int ccurl_load(const char *library, char *error, size_t size) {
    pthread_mutex_lock(&load_lock);
    int result = 0;
    if (!loaded) {
        void *handle = NULL;
        const char *name = library;
        if (library) {
            handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
            if (!handle) snprintf(error, size, "%s", dlerror());
        } else {
            for (const char *const *candidate = library_names; *candidate && !handle; candidate++) {
                handle = dlopen(*candidate, RTLD_NOW | RTLD_LOCAL);
                name = *candidate;
            }
            if (!handle) snprintf(error, size, "no libcurl.so.4 on this system");
        }
        if (!handle) {
            result = -1;
        } else if (load_symbols(handle, name, error, size) != 0) {
            dlclose(handle);
            result = -1;
        } else if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
            snprintf(error, size, "curl_global_init failed");
            result = -1;
        } else {
            loaded = 1;
        }
    }
    pthread_mutex_unlock(&load_lock);
    return result;
}

// Bytes collected as they come, up to a limit.
typedef struct {
    char *bytes;
    size_t count;
    size_t capacity;
} buffer;

static int buffer_append(buffer *buffer, const char *bytes, size_t count) {
    if (buffer->count + count + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 16384;
        while (capacity < buffer->count + count + 1) capacity *= 2;
        char *grown = realloc(buffer->bytes, capacity);
        if (!grown) return -1;
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->count, bytes, count);
    buffer->count += count;
    buffer->bytes[buffer->count] = 0;
    return 0;
}

struct ccurl_transfer {
    CURL *easy;
    struct curl_slist *headers;
    buffer head;
    buffer body;
    size_t body_limit;
    int over_limit;
    // A body past `spill_after` bytes goes to the file `spill_path` (all of it, from its first
    // byte; the file made then), so that large bodies are not held in memory; `spilled` bytes
    // are there.
    char *spill_path;
    int spill_fd;
    size_t spill_after;
    size_t spilled;
    int spill_failed;
    CURLcode result;
    ccurl_outcome outcome;
    long status;
    char error[CURL_ERROR_SIZE];
    char message[CURL_ERROR_SIZE + 64];
};

struct ccurl_multi {
    CURLM *multi;
};

static int write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(fd, bytes, count);
        if (written < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        bytes += written;
        count -= (size_t)written;
    }
    return 0;
}

static size_t collect_body(char *bytes, size_t size, size_t count, void *context) {
    ccurl_transfer *transfer = context;
    size_t length = size * count;
    if (transfer->body.count + transfer->spilled + length > transfer->body_limit) {
        transfer->over_limit = 1;
        return 0;
    }
    if (transfer->spill_path && (transfer->spilled > 0 || transfer->body.count + length > transfer->spill_after)) {
        if (transfer->spill_fd < 0) {
            transfer->spill_fd = open(transfer->spill_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            if (transfer->spill_fd < 0) {
                transfer->spill_failed = errno;
                return 0;
            }
        }
        if (transfer->spilled == 0 && transfer->body.count > 0) {
            if (write_all(transfer->spill_fd, transfer->body.bytes, transfer->body.count) != 0) {
                transfer->spill_failed = errno;
                return 0;
            }
            transfer->spilled = transfer->body.count;
            transfer->body.count = 0;
        }
        if (write_all(transfer->spill_fd, bytes, length) != 0) {
            transfer->spill_failed = errno;
            return 0;
        }
        transfer->spilled += length;
        return length;
    }
    return buffer_append(&transfer->body, bytes, length) == 0 ? length : 0;
}

static size_t collect_head(char *bytes, size_t size, size_t count, void *context) {
    ccurl_transfer *transfer = context;
    size_t length = size * count;
    // An interim answer (100 Continue) is followed by the real one: keep the last.
    if (length >= 5 && memcmp(bytes, "HTTP/", 5) == 0) transfer->head.count = 0;
    return buffer_append(&transfer->head, bytes, length) == 0 ? length : 0;
}

// libcurl speaks only http and https for a transfer, whatever scheme its URL has: the check in
// CurlTransport.swift comes first, this holds below it. CURLOPT_PROTOCOLS_STR (libcurl 7.85)
// replaces the deprecated bit mask; the library is the one dlopen found, which may be older than
// the header, so an unknown option falls back to the mask.
static int allow_only_http(CURL *easy) {
#if LIBCURL_VERSION_NUM >= 0x075500
    CURLcode named = curl.easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    if (named != CURLE_UNKNOWN_OPTION) return named == CURLE_OK;
#endif
    return curl.easy_setopt(easy, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS)) == CURLE_OK;
}

ccurl_transfer *ccurl_transfer_new(
    const char *url, int post, const char *accept_encoding, long timeout_ms, long connect_ms, size_t body_limit) {
    ccurl_transfer *transfer = calloc(1, sizeof *transfer);
    if (!transfer) return NULL;
    transfer->easy = curl.easy_init();
    if (!transfer->easy) {
        free(transfer);
        return NULL;
    }
    transfer->body_limit = body_limit;
    transfer->spill_fd = -1;
    CURL *easy = transfer->easy;
    int failed = 0;
    failed |= curl.easy_setopt(easy, CURLOPT_URL, url) != CURLE_OK;
    failed |= curl.easy_setopt(easy, CURLOPT_PRIVATE, (void *)transfer) != CURLE_OK;
    failed |= curl.easy_setopt(easy, CURLOPT_ERRORBUFFER, transfer->error) != CURLE_OK;
    // Threads without signals: name lookups time out without SIGALRM.
    failed |= curl.easy_setopt(easy, CURLOPT_NOSIGNAL, 1L) != CURLE_OK;
    // Redirects are followed by CurlTransport.swift, which checks each one.
    failed |= curl.easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L) != CURLE_OK;
    failed |= !allow_only_http(easy);
    failed |= curl.easy_setopt(easy, CURLOPT_TIMEOUT_MS, timeout_ms) != CURLE_OK;
    failed |= curl.easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, connect_ms) != CURLE_OK;
    failed |= curl.easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, accept_encoding) != CURLE_OK;
    failed |= curl.easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)body_limit) != CURLE_OK;
    failed |= curl.easy_setopt(easy, CURLOPT_WRITEFUNCTION, collect_body) != CURLE_OK;
    failed |= curl.easy_setopt(easy, CURLOPT_WRITEDATA, (void *)transfer) != CURLE_OK;
    failed |= curl.easy_setopt(easy, CURLOPT_HEADERFUNCTION, collect_head) != CURLE_OK;
    failed |= curl.easy_setopt(easy, CURLOPT_HEADERDATA, (void *)transfer) != CURLE_OK;
    if (post) failed |= curl.easy_setopt(easy, CURLOPT_POST, 1L) != CURLE_OK;
    if (failed) {
        ccurl_transfer_free(transfer);
        return NULL;
    }
    return transfer;
}

void ccurl_transfer_free(ccurl_transfer *transfer) {
    if (!transfer) return;
    curl.easy_cleanup(transfer->easy);
    curl.slist_free_all(transfer->headers);
    if (transfer->spill_fd >= 0) close(transfer->spill_fd);
    free(transfer->spill_path);
    free(transfer->head.bytes);
    free(transfer->body.bytes);
    free(transfer);
}

int ccurl_transfer_spill(ccurl_transfer *transfer, const char *path, size_t after) {
    free(transfer->spill_path);
    transfer->spill_path = strdup(path);
    transfer->spill_after = after;
    return transfer->spill_path ? 0 : -1;
}

size_t ccurl_transfer_spilled(const ccurl_transfer *transfer) { return transfer->spilled; }

int ccurl_transfer_add_header(ccurl_transfer *transfer, const char *line) {
    struct curl_slist *headers = curl.slist_append(transfer->headers, line);
    if (!headers) return -1;
    transfer->headers = headers;
    return curl.easy_setopt(transfer->easy, CURLOPT_HTTPHEADER, headers) == CURLE_OK ? 0 : -1;
}

int ccurl_transfer_set_body(ccurl_transfer *transfer, const void *bytes, size_t count) {
    if (curl.easy_setopt(transfer->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)count) != CURLE_OK) return -1;
    return curl.easy_setopt(transfer->easy, CURLOPT_COPYPOSTFIELDS, count ? bytes : "") == CURLE_OK ? 0 : -1;
}

// What `result` means for fetch, and in whose words.
static void conclude(ccurl_transfer *transfer, CURLcode result) {
    transfer->result = result;
    const char *words = transfer->error[0] ? transfer->error : curl.easy_strerror(result);
    snprintf(transfer->message, sizeof transfer->message, "%s", words);
    long os_error = 0;
    curl.easy_getinfo(transfer->easy, CURLINFO_OS_ERRNO, &os_error);
    switch (result) {
    case CURLE_OK:
        transfer->outcome = CCURL_DONE;
        curl.easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &transfer->status);
        return;
    case CURLE_COULDNT_CONNECT:
        transfer->outcome = CCURL_NOT_CONNECTED;
        if (os_error == ECONNREFUSED) snprintf(transfer->message, sizeof transfer->message, "connection refused");
        return;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        transfer->outcome = CCURL_NOT_RESOLVED;
        return;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
        transfer->outcome = CCURL_TLS;
        return;
    case CURLE_OPERATION_TIMEDOUT: {
        curl_off_t connected = 0;
        curl.easy_getinfo(transfer->easy, CURLINFO_CONNECT_TIME_T, &connected);
        transfer->outcome = connected > 0 ? CCURL_TIMED_OUT : CCURL_NOT_CONNECTED;
        if (connected == 0) snprintf(transfer->message, sizeof transfer->message, "connect timed out");
        return;
    }
    case CURLE_FILESIZE_EXCEEDED:
        transfer->outcome = CCURL_TOO_LARGE;
        return;
    case CURLE_WRITE_ERROR:
        transfer->outcome = transfer->over_limit ? CCURL_TOO_LARGE : CCURL_OTHER;
        if (transfer->spill_failed)
            snprintf(transfer->message, sizeof transfer->message, "cannot write the body: %s", strerror(transfer->spill_failed));
        else if (!transfer->over_limit)
            snprintf(transfer->message, sizeof transfer->message, "out of memory for the body");
        return;
    case CURLE_GOT_NOTHING:
        transfer->outcome = CCURL_NOTHING;
        return;
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_BAD_CONTENT_ENCODING:
    case CURLE_WEIRD_SERVER_REPLY:
        transfer->outcome = CCURL_BROKEN;
        if (os_error == ECONNRESET) snprintf(transfer->message, sizeof transfer->message, "connection reset by peer");
        return;
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
        transfer->outcome = CCURL_BAD_URL;
        return;
    default:
        transfer->outcome = CCURL_OTHER;
        return;
    }
}

ccurl_outcome ccurl_transfer_outcome(const ccurl_transfer *transfer) { return transfer->outcome; }
const char *ccurl_transfer_message(const ccurl_transfer *transfer) { return transfer->message; }
long ccurl_transfer_status(const ccurl_transfer *transfer) { return transfer->status; }

const char *ccurl_transfer_head(const ccurl_transfer *transfer, size_t *count) {
    *count = transfer->head.count;
    return transfer->head.bytes;
}

const char *ccurl_transfer_body(const ccurl_transfer *transfer, size_t *count) {
    *count = transfer->body.count;
    return transfer->body.bytes;
}

ccurl_multi *ccurl_multi_new(void) {
    ccurl_multi *multi = calloc(1, sizeof *multi);
    if (!multi) return NULL;
    multi->multi = curl.multi_init();
    if (!multi->multi) {
        free(multi);
        return NULL;
    }
    return multi;
}

void ccurl_multi_free(ccurl_multi *multi) {
    if (!multi) return;
    curl.multi_cleanup(multi->multi);
    free(multi);
}

int ccurl_multi_add(ccurl_multi *multi, ccurl_transfer *transfer) {
    CURLMcode code = curl.multi_add_handle(multi->multi, transfer->easy);
    if (code != CURLM_OK) {
        snprintf(transfer->message, sizeof transfer->message, "libcurl refused the transfer (CURLMcode %d)", (int)code);
        transfer->outcome = CCURL_OTHER;
        return -1;
    }
    return 0;
}

void ccurl_multi_run(ccurl_multi *multi, int milliseconds) {
    int running = 0;
    curl.multi_perform(multi->multi, &running);
    curl.multi_poll(multi->multi, NULL, 0, milliseconds, NULL);
    curl.multi_perform(multi->multi, &running);
}

void ccurl_multi_wakeup(ccurl_multi *multi) { curl.multi_wakeup(multi->multi); }

ccurl_transfer *ccurl_multi_next_done(ccurl_multi *multi) {
    int left = 0;
    CURLMsg *message;
    while ((message = curl.multi_info_read(multi->multi, &left))) {
        if (message->msg != CURLMSG_DONE) continue;
        CURL *easy = message->easy_handle;
        CURLcode result = message->data.result;
        ccurl_transfer *transfer = NULL;
        curl.easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&transfer);
        curl.multi_remove_handle(multi->multi, easy);
        conclude(transfer, result);
        return transfer;
    }
    return NULL;
}
