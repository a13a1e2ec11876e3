import CSQLite

/// The conflict handler's state while a changeset is applied: the policy, what it met, and why it
/// aborted. A class because SQLite's C callback reaches it through a pointer.
final class ConflictLog {
    let policy: SeedInstaller.ConflictPolicy
    /// table -> column names, to name a conflicting row's key.
    let columns: [String: [String]]
    private(set) var counts: [Key: Int] = [:]
    /// Whether the changes left rows pointing at nothing.
    private(set) var danglingReferences = false
    /// The first conflict the policy aborted on: table, kind, key as `column = value`.
    private(set) var abort: (table: String, kind: SeedInstallation.ConflictKind, key: [String])?

    /// The rows counted, by what they were counted as and their key.
    private var seen: Set<Seen> = []

    private struct Seen: Hashable {
        var key: Key
        var row: [String]
    }

    struct Key: Hashable {
        var table: String
        var kind: SeedInstallation.ConflictKind
        var resolution: SeedInstallation.Resolution
    }

    /// Tables the changeset must not write: full-text tables' shadow tables, which a patch
    /// rebuilds instead (a changeset made with `sqldiff` has them).
    let skipped: Set<String>

    init(policy: SeedInstaller.ConflictPolicy, columns: [String: [String]], skipped: Set<String>) {
        self.policy = policy
        self.columns = columns
        self.skipped = skipped
    }

    /// How many changes the policy skipped.
    var omitted: Int { counts.filter { $0.key.resolution == .omitted }.values.reduce(0, +) }

    /// The counts, sorted by table and kind.
    var report: [SeedInstallation.ConflictCount] {
        counts.map {
            SeedInstallation.ConflictCount(table: $0.key.table, kind: $0.key.kind, resolution: $0.key.resolution, count: $0.value)
        }
        .sorted { ($0.table, $0.kind) < ($1.table, $1.kind) }
    }

    /// The `xFilter` of `sqlite3changeset_apply_v2`: 0 skips the table's changes.
    static let filter: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Int32 = { context, name in
        guard let context, let name else { return 0 }
        return Unmanaged<ConflictLog>.fromOpaque(context).takeUnretainedValue().skipped.contains(String(cString: name)) ? 0 : 1
    }

    /// The `xConflict` of `sqlite3changeset_apply_v2`.
    static let handler: @convention(c) (UnsafeMutableRawPointer?, Int32, OpaquePointer?) -> Int32 = { context, code, iterator in
        guard let context, let iterator, let kind = SeedInstallation.ConflictKind(rawValue: Int(code)) else {
            return SQLITE_CHANGESET_ABORT
        }
        return Unmanaged<ConflictLog>.fromOpaque(context).takeUnretainedValue().resolve(kind, iterator)
    }

    private func resolve(_ kind: SeedInstallation.ConflictKind, _ iterator: OpaquePointer) -> Int32 {
        // The iterator of a foreign-key conflict is on no change, and the conflict concerns the
        // whole patch: the changes are kept, and `SeedPatcher` finds the rows that point at
        // nothing, then deletes them or aborts.
        if kind == .foreignKey {
            danglingReferences = true
            return SQLITE_CHANGESET_OMIT
        }
        let resolution = policy.resolution(of: kind)
        let change = Change(iterator)
        let table = change.table
        // SQLite retries a change that broke a constraint once the others are in, and asks again:
        // a row is counted once.
        let counted = Key(table: table, kind: kind, resolution: resolution)
        if seen.insert(Seen(key: counted, row: key(of: change))).inserted { counts[counted, default: 0] += 1 }
        switch resolution {
        case .seedRow: return SQLITE_CHANGESET_REPLACE
        case .omitted, .deleted: return SQLITE_CHANGESET_OMIT
        case .aborted:
            if abort == nil { abort = (table, kind, key(of: change)) }
            return SQLITE_CHANGESET_ABORT
        }
    }

    /// The changed row's primary key, as `column = value`.
    private func key(of change: Change) -> [String] {
        change.key(named: columns[change.table] ?? [])
    }
}
