/// The two layouts of `seed_source` (docs/seed.md, Metadata): a row per dump file with four
/// columns, which seeds built before sources had rows carry, and the five columns of today, a row
/// per source (or per file, with `files` 1). A changeset made from a seed of the first layout to
/// one of the second holds `seed_source`'s rows in the second; the installer upgrades the working
/// copy's table before applying it, each old row kept as a file's row (`files` 1), so that the
/// changeset's deletes find them.
package enum SourceLayout {
    package static let table = "seed_source"

    /// The columns of the first layout, in order.
    package static let fileColumns = ["path", "sha256", "bytes", "records"]

    /// The columns of today's layout, in order.
    package static let columns = ["path", "files", "sha256", "bytes", "records"]

    /// The statement that creates today's table, as every seed has it.
    package static let createTable = createTable(named: "\"seed_source\"")

    /// Creates today's table as `name` (quoted, and qualified by its schema where it must be).
    private static func createTable(named name: String) -> String {
        "CREATE TABLE \(name) (\n  \"path\" TEXT PRIMARY KEY NOT NULL,\n  \"files\" INTEGER NOT NULL,\n"
            + "  \"sha256\" TEXT NOT NULL,\n  \"bytes\" INTEGER NOT NULL,\n  \"records\" INTEGER NOT NULL\n)"
    }

    /// Fills today's table `target` with the first layout's rows of `source`, each a file's:
    /// `files` 1.
    private static func copy(into target: String, from source: String) -> String {
        "INSERT INTO \(target) SELECT \"path\", 1, \"sha256\", \"bytes\", \"records\" FROM \(source) ORDER BY \"path\""
    }

    /// The statements that make today's `seed_source` in the attached database `schema`, holding
    /// the rows of the first layout's table `source` (qualified): the old seed as a changeset
    /// from it to a seed of today's layout compares it.
    package static func upgradedCopy(in schema: String, from source: String) -> String {
        let target = quoted(schema) + ".\"seed_source\""
        return createTable(named: target) + "; " + copy(into: target, from: source)
    }

    /// The statements that turn the first layout's table in `main` into today's, in place: the
    /// old table moves aside, today's is created under the name with the statement every seed
    /// has, filled, and the old one dropped.
    package static let upgradeInPlace =
        "ALTER TABLE \"seed_source\" RENAME TO \"seed_source_files\"; " + createTable + "; "
        + copy(into: "\"seed_source\"", from: "\"seed_source_files\"") + "; DROP TABLE \"seed_source_files\""

    /// Whether a table with `names` (in order) is the first layout's.
    package static func isFileLayout(_ names: [String]) -> Bool { names == fileColumns }
}

extension TableShapes {
    /// Whether the working copy's `seed_source` has the first layout, and a changeset or seed of
    /// `columns` columns (today's: five, `path` the key) asks for today's.
    func upgradesSources(to columns: Int) -> Bool {
        guard let here = tables[SourceLayout.table] else { return false }
        return SourceLayout.isFileLayout(here.map(\.name)) && columns == SourceLayout.columns.count
    }

    /// These shapes with `seed_source` as `upgradesSources` leaves it: what a changeset or a seed
    /// of today's layout is checked against.
    func withUpgradedSources() -> TableShapes {
        guard let here = tables[SourceLayout.table], SourceLayout.isFileLayout(here.map(\.name)) else { return self }
        var shapes = self
        shapes.tables[SourceLayout.table] = SourceLayout.columns.map { Column(name: $0, inPrimaryKey: $0 == "path") }
        return shapes
    }
}
