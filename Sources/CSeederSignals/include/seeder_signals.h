#ifndef SEEDER_SIGNALS_H
#define SEEDER_SIGNALS_H

/// Removes `paths` (copied) when the process gets SIGINT, SIGTERM or SIGHUP, then exits with
/// 128 + the signal's number. The handler calls only `unlink` and `_exit`, which are
/// async-signal-safe: Swift code in a handler can wait forever on a lock of the runtime that the
/// interrupted thread holds. Returns 0, or -1 with `errno` set.
int seeder_remove_on_interrupt(const char *const *paths, int count);

#endif
