// libcurl for `seeder fetch`, loaded when a fetch starts rather than linked: `seeder build` and
// the other commands never need it (docs/install.md). The functions wrap libcurl's multi
// interface, which one thread drives (CurlTransport.swift); a transfer collects its answer's head
// and body itself, so no callback crosses into Swift.
#ifndef CCURL_H
#define CCURL_H

#include <stddef.h>

typedef struct ccurl_multi ccurl_multi;
typedef struct ccurl_transfer ccurl_transfer;

/// How a transfer ended.
typedef enum {
    CCURL_DONE = 0,
    /// Nothing was sent: the connection was refused or could not be made.
    CCURL_NOT_CONNECTED,
    /// The host name could not be resolved.
    CCURL_NOT_RESOLVED,
    /// The TLS handshake failed, or the peer's certificate was refused.
    CCURL_TLS,
    /// The transfer's time ran out.
    CCURL_TIMED_OUT,
    /// The body is larger than the transfer's limit.
    CCURL_TOO_LARGE,
    /// The server closed the connection without answering.
    CCURL_NOTHING,
    /// The connection broke after the request went out.
    CCURL_BROKEN,
    /// The URL cannot be requested.
    CCURL_BAD_URL,
    /// Anything else (libcurl's message tells).
    CCURL_OTHER,
} ccurl_outcome;

/// Loads `library` (NULL: the system's libcurl) once for the process. 0 when it is loaded;
/// otherwise -1, and why in `error`.
int ccurl_load(const char *library, char *error, size_t size);

ccurl_multi *ccurl_multi_new(void);
void ccurl_multi_free(ccurl_multi *multi);
/// Starts `transfer`; 0 on success.
int ccurl_multi_add(ccurl_multi *multi, ccurl_transfer *transfer);
/// Moves every transfer on, then waits up to `milliseconds` for the network or a wakeup.
void ccurl_multi_run(ccurl_multi *multi, int milliseconds);
/// Ends a `ccurl_multi_run` wait early; the one function another thread may call.
void ccurl_multi_wakeup(ccurl_multi *multi);
/// A transfer that has ended, taken off `multi`; NULL when none is left.
ccurl_transfer *ccurl_multi_next_done(ccurl_multi *multi);

/// A request to `url` (a POST when `post`), taking up to `timeout_ms` in all and `connect_ms` to
/// connect, asking for `accept_encoding` and undoing it, keeping at most `body_limit` bytes.
ccurl_transfer *ccurl_transfer_new(
    const char *url, int post, const char *accept_encoding, long timeout_ms, long connect_ms, size_t body_limit);
void ccurl_transfer_free(ccurl_transfer *transfer);
/// Past `after` bytes, the body goes to the file at `path` (made or emptied then), all of it
/// from its first byte, instead of memory; `ccurl_transfer_spilled` then says how many bytes
/// are there (0: the body is in memory, `ccurl_transfer_body`). 0 on success.
int ccurl_transfer_spill(ccurl_transfer *transfer, const char *path, size_t after);
size_t ccurl_transfer_spilled(const ccurl_transfer *transfer);
/// Adds a header line ("Name: value"); 0 on success.
int ccurl_transfer_add_header(ccurl_transfer *transfer, const char *line);
/// The POST body, copied; 0 on success.
int ccurl_transfer_set_body(ccurl_transfer *transfer, const void *bytes, size_t count);

ccurl_outcome ccurl_transfer_outcome(const ccurl_transfer *transfer);
/// libcurl's words for how the transfer ended.
const char *ccurl_transfer_message(const ccurl_transfer *transfer);
long ccurl_transfer_status(const ccurl_transfer *transfer);
/// The last answer's header lines, each ending in CRLF (the status line first).
const char *ccurl_transfer_head(const ccurl_transfer *transfer, size_t *count);
const char *ccurl_transfer_body(const ccurl_transfer *transfer, size_t *count);

#endif
