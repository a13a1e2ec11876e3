import Foundation
import GRDB
import SeederCore

/// A file's `fsync` (`FinishedFile.sync`) on a thread of its own, begun now and waited for when
/// the file must be on the disk. A build begins one on its output as soon as every row is in,
/// while the resolver builds the indexes on one core and the other would idle: the table pages,
/// most of the file, are final by then, and the sync before publishing (`SeedChecks.check`)
/// writes only what came after (bench/README.md).
typealias FileSync = BackgroundWork<Void>

extension BackgroundWork where Value == Void {
    /// Syncs the file at `path` on another thread, once the sync `after` it (if any) is done.
    /// Its `wait()` throws this sync's error or the earlier one's: a page that failed to reach
    /// the disk may not be reported by a later sync of the file.
    convenience init(_ path: String, after earlier: FileSync? = nil) {
        self.init {
            try earlier?.wait()
            try FinishedFile.sync(path)
        }
    }
}

/// The output's sync begun as soon as its rows are in (`FileSync`), when its rows' file is the
/// output (`Publication.earlySync`): the load begins it, and the checks of the finished file
/// wait for it (`FinishedFile.compact`).
final class EarlySync: @unchecked Sendable {
    /// The sync, once the load began it; a build whose rows had errors begins none.
    private(set) var begun: FileSync?

    /// Writes the pages `db`'s cache holds to its main file, so that the sync writes them, and
    /// begins the sync.
    func begin(_ db: Database) throws {
        guard let path = RawSQLite.path(of: db, schema: "main") else { return }
        try RawSQLite.flushCache(db)
        begun = FileSync(path)
    }
}
