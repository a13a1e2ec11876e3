import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// A `RowStore` driven as the build drives it, for tests of the write path: the seed and its
/// working database opened in a workspace as the build opens them, the seed's tables made, and
/// records added one JSON document at a time from a single dump file.
struct StoreHarness {
    let mapping: Mapping
    let mapper: Mapper
    let diagnostics = DiagnosticSink(maxErrors: 100)
    let workspace: Workspace
    /// The dump file every record comes from.
    static let file = "projects.json"

    init(yaml: String) throws {
        workspace = try Workspace.withDumps()
        mapping = try validMapping(yaml)
        mapper = Mapper(mapping: mapping)
    }

    /// Runs `body` with a store over a fresh seed (foreign keys unchecked until the seed is
    /// complete, as in a build); `prepare` runs once the tables exist, before the store takes
    /// its statements.
    func withStore<T>(prepare: (Database) throws -> Void = { _ in }, body: (Database, RowStore) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: workspace.path("seed.sqlite"), configuration: configuration)
        return try queue.inDatabase { db in
            try db.execute(sql: "ATTACH DATABASE ? AS \"work\"", arguments: [workspace.path("work.sqlite")])
            let layout = SeedLayout(mapping: mapping)
            try layout.createTables(db, for: Publication(layout: layout, fit: nil, writesOutput: true))
            try prepare(db)
            let store = try RowStore(
                db: db, mapping: mapping, layouts: RowLayout.all(for: mapping), links: LinkLayout.all(for: mapping),
                files: [Self.file], spillPath: workspace.path("spill"), spillBytes: SideRowLog.defaultSpillBytes,
                tally: EntityTally(entities: mapping.entities.count))
            return try body(db, store)
        }
    }

    /// Maps `json`, one record of `entity` with what it embeds, and adds it to `store`.
    func add(_ json: String, entity: Int, to store: RowStore) throws {
        let batch = mapper.records(from: try JSONDocument(parsing: json).root, entity: entity, file: Self.file, diagnostics: diagnostics)
        var rows: [RowEncoder.Encoded] = []
        try batch.withUnsafeBufferPointer { records in
            store.encoder.encode(batch: records, file: 0, appendingTo: &rows)
            try rows.withUnsafeBufferPointer { try store.add(records, encoded: $0, diagnostics: diagnostics) }
        }
    }
}
