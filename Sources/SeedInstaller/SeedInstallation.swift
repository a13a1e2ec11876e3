/// What `SeedInstaller.install()` or `replace()` did to the working copy.
public enum SeedInstallation: Sendable, Equatable {
    /// There was no working copy: the bundled seed was copied into place.
    case installed
    /// The working copy is already the bundled seed (the same inputs, mapping and seeder): it was
    /// not written.
    case upToDate
    /// The working copy was another seed, and it was replaced by a copy of the bundled one: rows
    /// the app wrote are gone. `skipped` says why each changeset given was not applied (empty for
    /// `replace()`, or when there were none).
    case replaced(skipped: [SkippedChangeset])
    /// The working copy was patched to the bundled seed with a changeset: the app's own rows and
    /// tables are kept, except where a conflict was resolved in the seed's favour, or a row was
    /// left pointing at nothing and deleted.
    case patched(PatchReport)

    /// What applying a changeset did.
    public struct PatchReport: Sendable, Equatable, CustomStringConvertible {
        /// The changeset's path, as given to the installer.
        public var changeset: String
        /// How many of the changeset's row changes were applied (an omitted conflict is not).
        public var appliedChanges: Int
        /// The conflicts met, one entry per table, kind and resolution, sorted by table and kind.
        /// The rows deleted because the patch left them pointing at nothing are the
        /// `.foreignKey` entries, resolved `.deleted`, one per table.
        public var conflicts: [ConflictCount]
        /// The changesets tried before this one and not applied, with why, in the order given.
        public var skipped: [SkippedChangeset]

        /// A report, as an app's tests may expect one.
        public init(changeset: String, appliedChanges: Int, conflicts: [ConflictCount], skipped: [SkippedChangeset] = []) {
            self.changeset = changeset
            self.appliedChanges = appliedChanges
            self.conflicts = conflicts
            self.skipped = skipped
        }

        /// `from-2.3.changeset: 12 changes applied, 1 conflict (book: 2 DATA -> seed row)`, then
        /// the changesets skipped before it, for a log.
        public var description: String {
            let total = conflicts.reduce(0) { $0 + $1.count }
            var text = "\(changeset): \(appliedChanges) change\(appliedChanges == 1 ? "" : "s") applied, "
            text += total == 0 ? "no conflicts" : "\(total) conflict\(total == 1 ? "" : "s") ("
            if total > 0 { text += conflicts.map(\.description).joined(separator: "; ") + ")" }
            if !skipped.isEmpty { text += "; skipped before it: " + skipped.map(\.description).joined(separator: "; ") }
            return text
        }
    }

    /// A changeset `install()` did not apply, and why.
    public struct SkippedChangeset: Sendable, Equatable, CustomStringConvertible {
        /// The changeset's path, as given to the installer.
        public var changeset: String
        public var reason: Reason

        /// Why a changeset was not applied.
        public enum Reason: Sendable, Equatable {
            /// It starts from another seed than the working copy's.
            case startsFromAnotherSeed
            /// It starts from the working copy's seed but leads to another seed than the bundled
            /// one (a changeset of an earlier release, left in the bundle).
            case leadsToAnotherSeed
            /// Its `seed_metadata` changes do not name all three identity keys with their old
            /// values, so it does not say which seed it starts from (made by `sqldiff`, or by an
            /// older seeder).
            case identityNotPinned
            /// It could not be read: missing, a directory, not a changeset, truncated or corrupt.
            /// The system's or SQLite's reason.
            case unreadable(String)
        }

        /// A skipped changeset, as an app's tests may expect one.
        public init(changeset: String, reason: Reason) {
            self.changeset = changeset
            self.reason = reason
        }

        /// `path: reason`, for a log.
        public var description: String {
            switch reason {
            case .startsFromAnotherSeed: return "\(changeset): starts from another seed than the working copy's"
            case .leadsToAnotherSeed:
                return "\(changeset): leads from the working copy's seed to another seed than the bundled one"
            case .identityNotPinned: return "\(changeset): does not name the seed it starts from"
            case let .unreadable(why): return "\(changeset): unreadable (\(why))"
            }
        }
    }

    /// A row the patch would leave pointing at nothing, as `PRAGMA foreign_key_check` names it.
    public struct DanglingReference: Sendable, Equatable, CustomStringConvertible {
        /// The table of the row that points.
        public var table: String
        /// The row's rowid, `nil` in a `WITHOUT ROWID` table.
        public var rowid: Int64?
        /// The table it points into, which lacks the row.
        public var parent: String

        /// A dangling reference, as an app's tests may expect one.
        public init(table: String, rowid: Int64?, parent: String) {
            self.table = table
            self.rowid = rowid
            self.parent = parent
        }

        /// `book rowid 9 -> author`, or `fav (a row without rowid) -> recipe`.
        public var description: String {
            "\(table) \(rowid.map { "rowid \($0)" } ?? "(a row without rowid)") -> \(parent)"
        }
    }

    /// How many conflicts of one kind a table had, and how the policy resolved them.
    public struct ConflictCount: Sendable, Equatable, CustomStringConvertible {
        /// The table (for `.foreignKey`: the table of the rows that pointed at nothing).
        public var table: String
        /// What the changeset met.
        public var kind: ConflictKind
        /// What the policy did about it.
        public var resolution: Resolution
        /// How many rows.
        public var count: Int

        /// A count, as an app's tests may expect one.
        public init(table: String, kind: ConflictKind, resolution: Resolution, count: Int) {
            self.table = table
            self.kind = kind
            self.resolution = resolution
            self.count = count
        }

        /// `book: 2 DATA -> seed row`: the table, how many rows, the kind and the resolution.
        public var description: String { "\(table): \(count) \(kind) -> \(resolution)" }
    }

    /// SQLite's conflict kinds, as a changeset change meets the working copy's rows.
    public enum ConflictKind: Int, Sendable, Comparable, CustomStringConvertible {
        /// An update or delete found its row changed by the app (`SQLITE_CHANGESET_DATA`).
        case data = 1
        /// An update or delete found no row: the app deleted it (`SQLITE_CHANGESET_NOTFOUND`).
        case notFound = 2
        /// An insert found a row with its key: the app inserted it (`SQLITE_CHANGESET_CONFLICT`).
        case conflict = 3
        /// A change broke a `UNIQUE`, `NOT NULL` or `CHECK` constraint (`SQLITE_CHANGESET_CONSTRAINT`).
        case constraint = 4
        /// The patch left rows pointing at nothing (`SQLITE_CHANGESET_FOREIGN_KEY`): the app deleted
        /// a row a new seed row points at, or the app's row points at a row the seed deletes.
        case foreignKey = 5

        public static func < (a: ConflictKind, b: ConflictKind) -> Bool { a.rawValue < b.rawValue }

        /// `DATA`, `NOTFOUND`, ...: SQLite's names.
        public var description: String {
            switch self {
            case .data: return "DATA"
            case .notFound: return "NOTFOUND"
            case .conflict: return "CONFLICT"
            case .constraint: return "CONSTRAINT"
            case .foreignKey: return "FOREIGN_KEY"
            }
        }

        /// What the app did that the changeset met, in words.
        var explanation: String {
            switch self {
            case .data: return "the app changed the row the seed changes"
            case .notFound: return "the app deleted the row the seed changes"
            case .conflict: return "the app inserted a row with the key the seed inserts"
            case .constraint: return "the seed's row breaks a constraint"
            case .foreignKey: return "the patch leaves rows pointing at nothing"
            }
        }
    }

    /// What a conflict policy did with a conflicting change.
    public enum Resolution: Sendable, Equatable, CustomStringConvertible {
        /// The seed's row was written over the app's.
        case seedRow
        /// The change was skipped: the app's row (or its deletion) stays.
        case omitted
        /// The patch was abandoned.
        case aborted
        /// The row pointed at nothing after the changeset and was deleted, as `ON DELETE CASCADE`
        /// would (`.foreignKey` only).
        case deleted

        /// `seed row`, `omitted`, `aborted`, `deleted`.
        public var description: String {
            switch self {
            case .seedRow: return "seed row"
            case .omitted: return "omitted"
            case .aborted: return "aborted"
            case .deleted: return "deleted"
            }
        }
    }
}
