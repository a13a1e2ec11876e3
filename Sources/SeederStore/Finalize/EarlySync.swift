import Foundation
import GRDB

/// The seed's sync begun once its rows are in, on a thread of its own, while the resolver builds
/// the indexes on one core and the other would idle: the table pages, most of the file, are
/// final by then. The sync before publishing (`SeedChecks.check`) then writes only what came
/// after, and no longer waits for the whole file (bench/README.md).
final class EarlySync: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written by the syncing thread before `done` is signalled, read after it.
    private var result: Result<Void, Error> = .success(())

    /// Writes the pages of `db`'s seed that its cache holds to the file at `path`, then syncs
    /// the file on another thread.
    init(_ db: Database, path: String) throws {
        try RawSQLite.flushCache(db)
        Thread { [self] in
            result = Result { try FinishedFile.sync(path) }
            done.signal()
        }.start()
    }

    /// Waits for the sync and throws its error: a page that failed to reach the disk may not be
    /// reported by a later sync of the file.
    func wait() throws {
        done.wait()
        done.signal()
        try result.get()
    }
}
