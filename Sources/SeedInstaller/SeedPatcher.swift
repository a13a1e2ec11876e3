import CSQLite

/// Applies a changeset to the working copy in one transaction, so that the copy is either the old
/// seed with the app's rows or the new seed with them, never a part
/// (docs/guides/updating-an-installed-seed.md, Patching).
struct SeedPatcher {
    let changeset: ChangesetFile
    let workingCopy: String
    /// The bundled seed's identity, which the copy must have once the changeset is applied.
    let target: SeedIdentity
    let policy: SeedInstaller.ConflictPolicy

    /// Applies the changeset: foreign keys on, the app's triggers off (the seed's rows are not
    /// the app's writes), then the changes under the conflict policy, a rebuild of every search
    /// table whose content table changed, and a check of the copy's identity. Any failure rolls
    /// the whole transaction back.
    func apply() throws(SeedInstallError) -> SeedInstallation.PatchReport {
        let connection = try SQLiteConnection(path: workingCopy, readOnly: false)
        let shapes = try TableShapes(connection)
        let survey = try survey(against: shapes)
        try connection.execute("PRAGMA foreign_keys = ON", doing: "turn foreign keys on in")
        guard seeder_enable_triggers(connection.handle, 0) == SQLITE_OK else {
            throw .sqlite(operation: "turn triggers off in", path: workingCopy, message: connection.message)
        }
        defer { seeder_enable_triggers(connection.handle, 1) }
        try connection.execute("BEGIN IMMEDIATE", doing: "begin a transaction in")
        do throws(SeedInstallError) {
            let log = ConflictLog(
                policy: policy, columns: shapes.tables.mapValues { $0.map(\.name) }, skipped: survey.skipped)
            let code = sqlite3changeset_apply_v2_strm(
                connection.handle, ChangesetFile.input, changeset.rewound(), ConflictLog.filter, ConflictLog.handler,
                Unmanaged.passUnretained(log).toOpaque(), nil, nil, 0)
            if let abort = log.abort {
                throw SeedInstallError.conflict(changeset: changeset.path, table: abort.table, kind: abort.kind, key: abort.key)
            }
            guard code == SQLITE_OK else {
                throw SeedInstallError.sqlite(operation: "apply \(changeset.path) to", path: workingCopy, message: connection.message)
            }
            for search in shapes.searchTables(readingFrom: survey.touched) {
                try connection.execute(
                    "INSERT INTO \(quoted(search))(\(quoted(search))) VALUES ('rebuild')", doing: "rebuild the search table \(search) in")
            }
            guard try SeedMetadata(connection).identity == target else {
                throw SeedInstallError.patchMissedTheSeed(changeset: changeset.path, workingCopy: workingCopy)
            }
            try connection.execute("COMMIT", doing: "commit the patch to")
            return SeedInstallation.PatchReport(
                changeset: changeset.path, appliedChanges: survey.changes - log.omitted, conflicts: log.report)
        } catch {
            sqlite3_exec(connection.handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// What a first pass over the changeset finds.
    private struct Survey {
        /// How many row changes it holds, in tables it writes.
        var changes = 0
        /// The tables it writes.
        var touched: Set<String> = []
        /// Its full-text shadow tables, skipped.
        var skipped: Set<String> = []
    }

    /// Counts the changes and checks that each table they write has the columns and key the
    /// changeset was made for: SQLite would skip a table that does not, and the patch would miss
    /// its rows without a word.
    private func survey(against shapes: TableShapes) throws(SeedInstallError) -> Survey {
        var survey = Survey()
        var checked: String?
        try changeset.forEachChange { (iterator: OpaquePointer) throws(SeedInstallError) -> Bool in
            let change = Change(iterator)
            if change.isNoOp { return true }
            if change.table == checked {
                survey.changes += 1
                return true
            }
            if survey.skipped.contains(change.table) { return true }
            if shapes.isShadow(change.table) {
                survey.skipped.insert(change.table)
                return true
            }
            guard let columns = shapes.tables[change.table] else {
                throw .changesetDoesNotFit(changeset: changeset.path, table: change.table, reason: "the working copy has no such table")
            }
            guard columns.count == change.columns, columns.map(\.inPrimaryKey) == change.primaryKey else {
                throw .changesetDoesNotFit(
                    changeset: changeset.path, table: change.table,
                    reason: "the changeset has \(change.columns) columns, the table \(columns.count), or another primary key")
            }
            checked = change.table
            survey.touched.insert(change.table)
            survey.changes += 1
            return true
        }
        return survey
    }
}
