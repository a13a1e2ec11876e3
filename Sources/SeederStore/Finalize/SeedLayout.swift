import Foundation
import GRDB
import SeederCore
import SeederFiles

/// The tables a mapping's seed is built in, made before the load: the seed's own (`SeedSchema`),
/// and the side and link tables of its rows (`RowLayout`, `LinkLayout`) in the working database.
struct SeedLayout {
    let mapping: Mapping
    let schema: SeedSchema
    let layouts: [RowLayout]
    let links: [[LinkLayout?]]

    init(mapping: Mapping) {
        self.mapping = mapping
        schema = SeedSchema(mapping: mapping)
        layouts = RowLayout.all(for: mapping)
        links = LinkLayout.all(for: mapping)
    }

    /// Creates the seed's tables in `db`'s main database, in mapping order. `NOT NULL` waits for
    /// the finish (`SeedFinisher`): a first occurrence may lack what a later one or a link
    /// supplies, and a row that still lacks it is an error that no seed is written with
    /// (`ReferenceResolver`). A run that never assembles the seed (`publication`: a validation)
    /// makes no join table, which only the finish fills: each table made costs SQLite a pass
    /// over the whole schema, and a big mapping has thousands (bench/README.md, Big mappings).
    /// `made` hears how many of `tableCount(for:)` are made, after each.
    func createTables(_ db: Database, for publication: Publication, made: (Int) -> Void = { _ in }) throws {
        for statement in SeedSchema.metadataTables { try db.execute(sql: statement) }
        for (index, table) in tables(for: publication).enumerated() {
            try db.execute(sql: SeedSchema.createTable(table, constrained: false))
            made(index + 1)
        }
    }

    /// The working database's page size. Big pages suit side and link tables, appended to and
    /// read back in order (bench/README.md), but every table takes at least its root page, and
    /// the load's cache (`WritingConnection.cacheKiB`) holds 256 pages of 64 KiB: a mapping of
    /// hundreds of entities, a side table each, would fill it with roots of a few rows each. The
    /// pages halve, down to SQLite's default of 4 KiB, until every working table's root fits in a
    /// quarter of the cache.
    var workingPageSize: Int {
        // A side table an entity; a link table a shape, and its pair's index.
        let tables = layouts.count + 2 * LinkTable.all(for: links.joined().compactMap { $0 }).count
        var size = 65536
        while size > 4096, tables * size > WritingConnection.cacheKiB * 1024 / 4 { size /= 2 }
        return size
    }

    /// The seed's tables `createTables` makes for `publication`, after its metadata.
    func tables(for publication: Publication) -> [SeedSchema.Table] {
        publication.assembles ? schema.tables : schema.entityTables.map { schema.tables[$0] }
    }
}
