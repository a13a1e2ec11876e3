import Foundation

/// Why `SeedInstaller` could not put the seed in place. Every case names the file it concerns and
/// the system's or SQLite's reason; the working copy is as it was before the call, except where
/// the case says otherwise.
public enum SeedInstallError: Error, Sendable, CustomStringConvertible, Equatable {
    /// `path` exists but is no seed: not a regular file, not an SQLite database, or without the
    /// `seed_metadata` rows that name a seed. The installer never writes over such a file.
    case notASeed(path: String, reason: String)
    /// A file-system call failed on `path`: `operation` (`open`, `read`, `write`, `rename`, ...)
    /// and `strerror` of its `errno`.
    case fileSystem(operation: String, path: String, reason: String)
    /// SQLite failed on `path` while doing `operation`, with its message.
    case sqlite(operation: String, path: String, message: String)
    /// The changeset at `changeset` could not be read: missing, unreadable, or not a changeset.
    case unreadableChangeset(changeset: String, reason: String)
    /// The changeset changes `table`, whose columns in the working copy are not the ones the
    /// changeset was made for (the app altered or dropped a seed table): nothing was applied.
    case changesetDoesNotFit(changeset: String, table: String, reason: String)
    /// The conflict policy aborted the patch on a row of `table`: nothing was applied.
    /// `key` is the row's primary key as `column = value`; it is empty for a
    /// `.foreignKey` conflict, which concerns the whole patch.
    case conflict(changeset: String, table: String, kind: SeedInstallation.ConflictKind, key: [String])
    /// After the changeset, the working copy's identity was not the bundled seed's: nothing was
    /// applied.
    case patchMissedTheSeed(changeset: String, workingCopy: String)

    /// A `.fileSystem` error for the current `errno`.
    static func system(_ operation: String, _ path: String, _ code: Int32 = errno) -> SeedInstallError {
        .fileSystem(operation: operation, path: path, reason: String(cString: strerror(code)))
    }

    /// The message an app logs: what failed, on which file, and why.
    public var description: String {
        switch self {
        case let .notASeed(path, reason):
            return "\(path) is not a seed (\(reason)); the installer leaves it as it is"
        case let .fileSystem(operation, path, reason):
            return "cannot \(operation) \(path): \(reason)"
        case let .sqlite(operation, path, message):
            return "cannot \(operation) \(path): \(message)"
        case let .unreadableChangeset(changeset, reason):
            return "cannot read the changeset \(changeset): \(reason)"
        case let .changesetDoesNotFit(changeset, table, reason):
            return "the changeset \(changeset) does not fit the working copy's table \(table): \(reason); nothing was applied"
        case let .conflict(changeset, table, kind, key):
            let row = key.isEmpty ? "" : ", row " + key.joined(separator: ", ")
            return "the changeset \(changeset) conflicts with the working copy in \(table)\(row): \(kind) (\(kind.explanation)); "
                + "the policy aborts, nothing was applied"
        case let .patchMissedTheSeed(changeset, workingCopy):
            return "after the changeset \(changeset), \(workingCopy) is not the bundled seed; nothing was applied"
        }
    }
}
