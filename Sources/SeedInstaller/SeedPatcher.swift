import CSQLite

/// Applies a changeset to the working copy in one transaction, so that the copy is either the old
/// seed with the app's rows or the new seed with them, never a part
/// (docs/guides/updating-an-installed-seed.md, What it does on each launch).
struct SeedPatcher {
    let changeset: ChangesetFile
    /// What `install()` learned of the changeset, read whole before anything is written.
    let survey: ChangesetSurvey
    /// The working copy's tables, as the patch leaves them.
    let shapes: TableShapes
    let workingCopy: String
    /// The bundled seed's identity, which the copy must have once the changeset is applied.
    let target: SeedIdentity
    let policy: SeedInstaller.ConflictPolicy

    /// A patcher of `workingCopy`, whose tables are `shapes`, with `changeset`, which leads from
    /// the copy's seed to `target` and was surveyed whole. The changeset holds no schema: a table
    /// that does not fit the seed it leads to (`seedShapes`, when that seed is at hand) or the
    /// changeset is one the app altered, and patching or replacing the copy would drop the app's
    /// rows without a word (docs/guides/updating-an-installed-seed.md, The changesets).
    init(
        changeset: ChangesetFile, survey: ChangesetSurvey, shapes: TableShapes, seedShapes: TableShapes?, workingCopy: String,
        target: SeedIdentity, policy: SeedInstaller.ConflictPolicy
    ) throws(SeedInstallError) {
        // The copy as the patch leaves it: `seed_source` upgraded when the changeset asks.
        let patched = survey.upgradesSources ? shapes.withUpgradedSources() : shapes
        if let misfit = seedShapes.flatMap({ patched.misfit($0) }) ?? survey.misfit {
            throw .changesetDoesNotFit(changeset: changeset.path, table: misfit.table, reason: misfit.reason)
        }
        (self.changeset, self.survey, self.shapes, self.workingCopy, self.target, self.policy) = (
            changeset, survey, patched, workingCopy, target, policy
        )
    }

    /// Applies the changeset: foreign keys on, the app's triggers off (the seed's rows are not
    /// the app's writes), then the changes under the conflict policy, the deletion of the rows
    /// they leave pointing at nothing, a rebuild of every search table whose content table
    /// changed, and a check of the copy's identity. Any failure rolls the whole transaction back.
    func apply() throws(SeedInstallError) -> SeedInstallation.PatchReport {
        let connection = try SQLiteConnection(path: workingCopy, readOnly: false)
        try connection.execute("PRAGMA foreign_keys = ON", doing: "turn foreign keys on in")
        guard seeder_enable_triggers(connection.handle, 0) == SQLITE_OK else {
            throw .sqlite(operation: "turn triggers off in", path: workingCopy, message: connection.message)
        }
        defer { seeder_enable_triggers(connection.handle, 1) }
        try connection.execute("BEGIN IMMEDIATE; SAVEPOINT seed_patch", doing: "begin a transaction in")
        do throws(SeedInstallError) {
            var log = try applyChanges(on: connection)
            var deleted: [String: Int] = [:]
            if log.danglingReferences {
                // Rows that pointed at nothing before the patch are the app's business: they are
                // found on the copy as it was, then the changes are made again and only the rows
                // they leave dangling are deleted (docs/guides/updating-an-installed-seed.md,
                // Rows left pointing at nothing).
                try connection.execute("ROLLBACK TO seed_patch", doing: "roll back the patch in")
                let before = try DanglingRows(connection)
                log = try applyChanges(on: connection)
                deleted = try deleteDanglingRows(on: connection, besides: before)
            }
            for search in shapes.searchTables(readingFrom: survey.touched.union(deleted.keys)) {
                try connection.execute(
                    "INSERT INTO \(quoted(search))(\(quoted(search))) VALUES ('rebuild')", doing: "rebuild the search table \(search) in")
            }
            guard try SeedMetadata(connection).identity == target else {
                throw SeedInstallError.patchMissedTheSeed(changeset: changeset.path, workingCopy: workingCopy)
            }
            try connection.execute("RELEASE seed_patch; COMMIT", doing: "commit the patch to")
            let deletions = deleted.map {
                SeedInstallation.ConflictCount(table: $0.key, kind: .foreignKey, resolution: .deleted, count: $0.value)
            }
            return SeedInstallation.PatchReport(
                changeset: changeset.path, appliedChanges: survey.changes - log.omitted,
                conflicts: (log.report + deletions).sorted { ($0.table, $0.kind) < ($1.table, $1.kind) })
        } catch {
            sqlite3_exec(connection.handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Applies the changes under the conflict policy and returns what it met. A conflict the
    /// policy aborts on throws; rows left pointing at nothing are kept, for the caller to find.
    private func applyChanges(on connection: SQLiteConnection) throws(SeedInstallError) -> ConflictLog {
        if survey.upgradesSources {
            try connection.execute(SourceLayout.upgradeInPlace, doing: "upgrade seed_source in")
        }
        let log = ConflictLog(policy: policy, columns: shapes.tables.mapValues { $0.map(\.name) }, skipped: survey.skipped)
        let code = sqlite3changeset_apply_v2_strm(
            connection.handle, ChangesetFile.input, changeset.rewound(), ConflictLog.filter, ConflictLog.handler,
            Unmanaged.passUnretained(log).toOpaque(), nil, nil, 0)
        if let abort = log.abort {
            throw .conflict(changeset: changeset.path, table: abort.table, kind: abort.kind, key: abort.key)
        }
        guard code == SQLITE_OK else {
            if code & 0xFF == SQLITE_MISMATCH, let value = try MismatchedValue.first(in: changeset, on: connection) {
                throw .changesetDoesNotFit(changeset: changeset.path, table: value.table, reason: value.reason)
            }
            // SQLite leaves the connection's message at "not an error" when the changeset stops.
            throw .sqlite(operation: "apply \(changeset.path) to", path: workingCopy, message: String(cString: sqlite3_errstr(code)))
        }
        return log
    }

    /// Deletes the rows that point at nothing and were not in `before`, again and again, as
    /// `ON DELETE CASCADE` would, until none is left; returns how many went, per table. Under
    /// `.abort`, or for a row without a rowid, throws `.danglingReferences` instead.
    private func deleteDanglingRows(on connection: SQLiteConnection, besides before: DanglingRows) throws(SeedInstallError)
        -> [String: Int]
    {
        // A deleted row may be another's parent: that row dangles in turn and goes in the next
        // round, so the check waits for the commit.
        try connection.execute("PRAGMA defer_foreign_keys = ON", doing: "defer foreign keys in")
        var deleted: [String: Int] = [:]
        while true {
            let rows = try DanglingRows(connection).subtracting(before)
            if rows.isEmpty { return deleted }
            if policy == .abort || rows.contains(where: { $0.rowid == nil }) {
                throw .danglingReferences(changeset: changeset.path, rows: rows)
            }
            var seen: Set<String> = []
            for row in rows {
                guard let rowid = row.rowid, seen.insert("\(row.table)\u{0}\(rowid)").inserted else { continue }
                try connection.execute("DELETE FROM \(quoted(row.table)) WHERE rowid = \(rowid)", doing: "delete a dangling row of")
                deleted[row.table, default: 0] += Int(sqlite3_changes(connection.handle))
            }
        }
    }
}
