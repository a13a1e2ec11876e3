import Foundation

/// Why `SeedInstaller` could not put the seed in place. Every case names the file it concerns and
/// the system's or SQLite's reason; the working copy is as it was before the call, whatever the
/// case (docs/guides/updating-an-installed-seed.md, The API).
public enum SeedInstallError: Error, Sendable, CustomStringConvertible, Equatable, LocalizedError {
    /// The working copy at `path` exists but is no seed: a symbolic link, not a regular file, not
    /// an SQLite database, or without the `seed_metadata` rows that name a seed. The installer
    /// never writes over such a file.
    case notASeed(path: String, reason: String)
    /// The bundled seed at `path` is no seed (not a regular file, not an SQLite database, no
    /// identity in `seed_metadata`): the app was built with a wrong resource.
    case bundledSeedIsNotASeed(path: String, reason: String)
    /// A file-system call failed on `path`: `operation` (`open`, `read`, `write`, `rename`, ...)
    /// and `strerror` of its `errno`.
    case fileSystem(operation: String, path: String, reason: String)
    /// SQLite failed on `path` while doing `operation`, with its message.
    case sqlite(operation: String, path: String, message: String)
    /// The changeset leads from the working copy's seed, but the copy's `table` is not as the
    /// seed has it (the app added a column, or altered or dropped a seed table): nothing was
    /// applied, and the copy was not replaced either.
    case changesetDoesNotFit(changeset: String, table: String, reason: String)
    /// The conflict policy abandoned the patch on a row of `table`: nothing was applied. `key` is
    /// the row's primary key as `column = value`. `kind` is never `.foreignKey`: see
    /// `.danglingReferences`.
    case conflict(changeset: String, table: String, kind: SeedInstallation.ConflictKind, key: [String])
    /// The changeset would leave `rows` pointing at nothing, and the policy is `.abort` (or a row
    /// is in a `WITHOUT ROWID` table, which the installer cannot delete by rowid): nothing was
    /// applied.
    case danglingReferences(changeset: String, rows: [SeedInstallation.DanglingReference])
    /// After the changeset, the working copy's identity was not the bundled seed's: nothing was
    /// applied.
    case patchMissedTheSeed(changeset: String, workingCopy: String)

    /// A `.fileSystem` error for the current `errno`.
    static func system(_ operation: String, _ path: String, _ code: Int32 = errno) -> SeedInstallError {
        .fileSystem(operation: operation, path: path, reason: String(cString: strerror(code)))
    }

    /// The same error with `path` named `name`: for a copy made to be patched, which messages
    /// name by the file it was made of.
    func naming(_ path: String, as name: String) -> SeedInstallError {
        func named(_ file: String) -> String { file == path ? name : file }
        switch self {
        case let .notASeed(file, reason): return .notASeed(path: named(file), reason: reason)
        case let .bundledSeedIsNotASeed(file, reason): return .bundledSeedIsNotASeed(path: named(file), reason: reason)
        case let .fileSystem(operation, file, reason): return .fileSystem(operation: operation, path: named(file), reason: reason)
        case let .sqlite(operation, file, message): return .sqlite(operation: operation, path: named(file), message: message)
        case let .patchMissedTheSeed(changeset, workingCopy):
            return .patchMissedTheSeed(changeset: changeset, workingCopy: named(workingCopy))
        case .changesetDoesNotFit, .conflict, .danglingReferences: return self
        }
    }

    /// The message, for `localizedDescription`: what `description` says.
    public var errorDescription: String? { description }

    /// The message an app logs: what failed, on which file, and why.
    public var description: String {
        switch self {
        case let .notASeed(path, reason):
            return "the working copy \(path) is not a seed (\(reason)); the installer leaves it as it is"
        case let .bundledSeedIsNotASeed(path, reason):
            return "the bundled seed \(path) is not a seed (\(reason)); the working copy was not touched"
        case let .fileSystem(operation, path, reason):
            return "cannot \(operation) \(path): \(reason)"
        case let .sqlite(operation, path, message):
            return "cannot \(operation) \(path): \(message)"
        case let .changesetDoesNotFit(changeset, table, reason):
            return "the changeset \(changeset) does not fit the working copy's table \(table): \(reason); nothing was applied"
        case let .conflict(changeset, table, kind, key):
            let row = key.isEmpty ? "" : ", row " + key.joined(separator: ", ")
            return "the changeset \(changeset) conflicts with the working copy in \(table)\(row): \(kind) (\(kind.explanation)); "
                + "the patch was abandoned, nothing was applied"
        case let .danglingReferences(changeset, rows):
            let shown = rows.prefix(5).map(\.description).joined(separator: ", ")
            let more = rows.count > 5 ? ", and \(rows.count - 5) more" : ""
            return "the changeset \(changeset) would leave rows of the working copy pointing at nothing: \(shown)\(more); "
                + "the patch was abandoned, nothing was applied"
        case let .patchMissedTheSeed(changeset, workingCopy):
            return "after the changeset \(changeset), \(workingCopy) is not the bundled seed; nothing was applied"
        }
    }
}
