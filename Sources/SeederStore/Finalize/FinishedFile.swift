import Foundation
import GRDB
import SeederCore
import SeederFiles

/// A seed file once nothing will change its pages: where it is, and whether it passed the seed's
/// checks (`SeedChecks.check`, which also synced it). Each stage that writes the file ends by
/// `compact`, and the last one's file is published.
struct FinishedFile: Equatable {
    var path: String
    var checked: Bool

    /// The file of `db`'s main database, at `path`, made final: a seed holds no free page (docs/seed.md), so
    /// one that holds some is vacuumed into `spare` (a temporary file, removed first), which is
    /// then the file. With `checking`, the final file is checked, after `verifyCopy` (given the
    /// copy's connection and the original's path) when it is a vacuumed copy. A stage that hands
    /// the file on to another that writes it does not check it: the last one does. A sync of
    /// the file begun `after` is waited for.
    static func compact(
        _ db: Database, at path: String, spare: String, checking: Bool, after earlySync: FileSync? = nil,
        verifyCopy: ((Database, String) throws -> Void)? = nil
    ) throws -> FinishedFile {
        // Built by appending, the seed usually holds no free page and is final as it is.
        guard try Int.fetchOne(db, sql: "PRAGMA freelist_count") != 0 else {
            if checking { try SeedChecks.check(db, after: earlySync) }
            return FinishedFile(path: path, checked: checking)
        }
        try earlySync?.wait()
        unlink(spare)
        try db.execute(sql: "VACUUM INTO ?", arguments: [spare])
        guard checking else { return FinishedFile(path: spare, checked: false) }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let copy = try DatabaseQueue(path: spare, configuration: configuration)
        try copy.inDatabase { db in
            try verifyCopy?(db, path)
            try SeedChecks.check(db)
        }
        try copy.close()
        return FinishedFile(path: spare, checked: true)
    }

    /// Syncs the file unless its check did, renames it over `output` (`shown` in messages), then
    /// syncs the directory: until that rename the previous output is untouched. A rollback
    /// journal the previous output left is removed first, and that removal synced, so that no
    /// crash leaves the new file beside it (docs/seed.md, Journals).
    func publish(as output: String, shown: String) throws {
        if !checked { try Self.sync(path) }
        let directory = PathText.directory(of: output).isEmpty ? "." : PathText.directory(of: output)
        if try RollbackJournal.remove(beside: output, shown: shown) { try Self.sync(directory) }
        guard rename(path, output) == 0 else { throw OutputError.cannot("replace", shown, error: errno) }
        try Self.sync(directory)
    }

    /// `fsync` on a file or directory.
    static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw OutputError.cannot("open", path, error: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw OutputError.cannot("write", path, error: errno) }
    }
}
