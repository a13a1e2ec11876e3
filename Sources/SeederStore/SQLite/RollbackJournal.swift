import Foundation
import SeederFiles

/// The rollback journal beside a database (`NAME-journal`): the original pages of the pages a
/// transaction changed, kept to put them back. One that a writer left behind when it crashed, or
/// that it holds while it writes, is *hot*: the database's own pages are not its committed
/// content until a connection that may write rolls the journal back (docs/seed.md, Journals).
enum RollbackJournal {
    /// The journal's name beside the database at `path`.
    static func path(of database: String) -> String { database + "-journal" }

    /// The hot journal beside `database`, or beside the file it leads to when it is a symbolic
    /// link (where SQLite keeps it), by the test SQLite itself makes before it reads: the file
    /// exists, is not empty, and its first byte is not zero (a journal committed in `PERSIST`
    /// mode has its header zeroed; in `TRUNCATE` mode it is emptied). A journal that cannot be
    /// read counts as hot: SQLite could not tell either. One whose name would be too long cannot
    /// exist (a database name of 248 bytes or more). `nil` when there is none.
    static func hotJournal(beside database: String) -> String? {
        PathStatus.sidecarNames(of: database).lazy.map(path(of:)).first(where: isHot)
    }

    private static func isHot(_ journal: String) -> Bool {
        var info = stat()
        guard stat(journal, &info) == 0 else { return !cannotExist(errno) }
        guard info.st_size > 0 else { return false }
        let descriptor = open(journal, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        var first: UInt8 = 0
        return read(descriptor, &first, 1) != 1 || first != 0
    }

    /// Why a reader refuses a database beside the hot `journal`: read as it is, it would show
    /// a transaction that never committed.
    static func refusal(_ journal: String) -> String {
        "\(journal) beside it holds a transaction that never committed (a program crashed writing it, or is "
            + "writing it now); open it once with sqlite3 to roll the transaction back"
    }

    /// Removes the journal beside `output`, if there is one; returns whether there was. Called
    /// before a new file is renamed over `output`: the old file's journal, beside the new file,
    /// would be rolled into it by the next open (docs/seed.md, Journals).
    static func remove(beside output: String, shown: String) throws(OutputError) -> Bool {
        guard unlink(path(of: output)) == 0 else {
            guard cannotExist(errno) else { throw OutputError.cannot("remove", path(of: shown), error: errno) }
            return false
        }
        return true
    }

    /// Whether `stat` or `unlink` failed because there is no journal: none, or none can have
    /// such a name.
    private static func cannotExist(_ error: Int32) -> Bool { error == ENOENT || error == ENAMETOOLONG }
}
