import Foundation
import GRDB

/// A file's `fsync` (`FinishedFile.sync`) on a thread of its own, begun now and waited for when
/// the file must be on the disk. A build begins one on its output as soon as every row is in,
/// while the resolver builds the indexes on one core and the other would idle: the table pages,
/// most of the file, are final by then, and the sync before publishing (`SeedChecks.check`)
/// writes only what came after (bench/README.md).
final class FileSync: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written by the syncing thread before `done` is signalled, read after it.
    private var result: Result<Void, Error> = .success(())

    /// Syncs the file at `path` on another thread, once the sync `after` it (if any) is done.
    init(_ path: String, after earlier: FileSync? = nil) {
        Thread { [self] in
            result = Result {
                try earlier?.wait()
                try FinishedFile.sync(path)
            }
            done.signal()
        }.start()
    }

    /// Waits for the sync and throws its error (or the earlier one's): a page that failed to
    /// reach the disk may not be reported by a later sync of the file.
    func wait() throws {
        done.wait()
        done.signal()
        try result.get()
    }
}
