/// What a first pass over a whole changeset finds, before anything is written: whether it reads
/// to its end, how many changes it holds, and whether each table it writes has, in the working
/// copy, the columns and key it was made for (SQLite would skip a table that does not, and the
/// patch would miss its rows without a word).
struct ChangesetSurvey {
    /// How many row changes it holds, in tables it writes, the no-op updates that name the seed it
    /// starts from aside.
    var changes = 0
    /// The tables it writes.
    var touched: Set<String> = []
    /// Its full-text shadow tables, skipped.
    var skipped: Set<String> = []
    /// The first table it writes that does not fit the working copy, and why.
    var misfit: (table: String, reason: String)?
    /// Its `seed_source` rows have today's layout and the working copy's table the first one:
    /// the patch upgrades the table first (`SourceLayout`).
    var upgradesSources = false

    /// Reads `changeset` to its end, or to its first table that does not fit `shapes`. A changeset
    /// truncated or corrupt after its head throws.
    init(_ changeset: ChangesetFile, against shapes: TableShapes) throws(UnreadableChangeset) {
        var checked: String?
        var survey = Self()
        try changeset.forEachChange { iterator in
            let change = Change(iterator)
            if change.table == checked {
                if !change.isNoOp { survey.changes += 1 }
                return true
            }
            if survey.skipped.contains(change.table) { return true }
            if shapes.isShadow(change.table) {
                survey.skipped.insert(change.table)
                return true
            }
            if change.table == SourceLayout.table, shapes.upgradesSources(to: change.columns) {
                survey.upgradesSources = true
            }
            let fitted = survey.upgradesSources ? shapes.withUpgradedSources() : shapes
            guard let columns = fitted.tables[change.table] else {
                survey.misfit = (change.table, "the working copy has no such table")
                return false
            }
            guard columns.count == change.columns, columns.map(\.inPrimaryKey) == change.primaryKey else {
                survey.misfit = (
                    change.table, "the changeset has \(change.columns) columns, the table \(columns.count), or another primary key"
                )
                return false
            }
            checked = change.table
            survey.touched.insert(change.table)
            if !change.isNoOp { survey.changes += 1 }
            return true
        }
        self = survey
    }

    private init() {}
}
