/// What `SeedInstaller.install()` or `replace()` did to the working copy.
public enum SeedInstallation: Sendable, Equatable {
    /// There was no working copy: the bundled seed was copied into place.
    case installed
    /// The working copy is already the bundled seed (the same inputs, mapping and seeder): it was
    /// not written.
    case upToDate
    /// The working copy was another seed, and it was replaced by a copy of the bundled one: rows
    /// the app wrote are gone.
    case replaced
    /// The working copy was patched to the bundled seed with a changeset: the app's own rows and
    /// tables are kept, except where a conflict was resolved in the seed's favour.
    case patched(PatchReport)

    /// What applying a changeset did.
    public struct PatchReport: Sendable, Equatable {
        /// The changeset's path, as given to the installer.
        public var changeset: String
        /// How many of the changeset's row changes were applied (an omitted conflict is not).
        public var appliedChanges: Int
        /// The conflicts met, one entry per table, kind and resolution, sorted by table and kind.
        public var conflicts: [ConflictCount]

        /// A report, as an app's tests may expect one.
        public init(changeset: String, appliedChanges: Int, conflicts: [ConflictCount]) {
            self.changeset = changeset
            self.appliedChanges = appliedChanges
            self.conflicts = conflicts
        }
    }

    /// How many conflicts of one kind a table had, and how the policy resolved them.
    public struct ConflictCount: Sendable, Equatable {
        /// The table, or `""` for a `.foreignKey` conflict, which concerns the whole patch.
        public var table: String
        /// What the changeset met.
        public var kind: ConflictKind
        /// What the policy did about it.
        public var resolution: Resolution
        /// How many rows (for `.foreignKey`: how many dangling references).
        public var count: Int

        /// A count, as an app's tests may expect one.
        public init(table: String, kind: ConflictKind, resolution: Resolution, count: Int) {
            self.table = table
            self.kind = kind
            self.resolution = resolution
            self.count = count
        }
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
        /// The patch left references dangling (`SQLITE_CHANGESET_FOREIGN_KEY`).
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
            case .foreignKey: return "the patch leaves references dangling"
            }
        }
    }

    /// What a conflict policy did with a conflicting change.
    public enum Resolution: Sendable, Equatable {
        /// The seed's row was written over the app's.
        case seedRow
        /// The change was skipped: the app's row (or its deletion) stays.
        case omitted
        /// The patch was abandoned.
        case aborted
    }
}
