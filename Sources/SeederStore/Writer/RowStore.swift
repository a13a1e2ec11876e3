import Foundation
import GRDB
import GRDBSQLite
import SeederCore

/// The counts a build reports per entity (docs/commands.md: records read, rows written, occurrences
/// merged, conflicts resolved, references resolved).
public struct EntityCounts: Sendable, Hashable, Codable {
    /// Occurrences mapped, embedded ones included.
    public var recordsRead = 0
    /// Rows in the seed.
    public var rowsWritten = 0
    /// Occurrences that merged into a row seen before.
    public var occurrencesMerged = 0
    /// Conflicts `onConflict: first|last` settled.
    public var conflictsResolved = 0
    /// References whose target was found.
    public var referencesResolved = 0
    /// References dropped by `onMissing: null`.
    public var referencesDropped = 0
    /// `null`s skipped where a record was expected.
    public var nullsSkipped = 0
}

/// The rows of a build as they merge, with SQLite as the identity map: every occurrence of an
/// identity merges into one row of the seed's own table (docs/mapping.md, Merging), so memory holds
/// one batch of records, never the set of identities.
///
/// Attribute values and to-one foreign keys go straight into the seed's columns; a side row
/// (`RowLayout`) keeps presence bits, to tell absent from null, and each value's file and offset
/// for conflict messages; side rows wait in a log until something reads their table
/// (`SideRowLog`, `sideTable(of:)`). To-many links wait in link tables until every input is read
/// (`ReferenceResolver`), except those to embedded children that take their parent as they are
/// inserted: children with `identity: none`, and new children of a one-to-many that
/// `claimsAtInsert`.
final class RowStore {
    let db: Database
    /// The raw connection, for the rowid of each insert (GRDB's accessor checks its queue first).
    private let connection: OpaquePointer
    let mapping: Mapping
    let layouts: [RowLayout]
    /// Per entity, per relationship: the link table of a to-many.
    let links: [[LinkLayout?]]
    private let mergers: [RecordMerger]
    /// Per entity: the statements every occurrence uses, prepared once.
    private var statements: [EntityStatements] = []
    /// Per entity, per relationship: the link table's insert.
    private var linkInserts: [[RawStatement?]] = []
    /// Dump files by index, as `_file` columns store them.
    let files: [String]
    // Counted per record on the writing thread only: no run-time exclusivity checks.
    @exclusivity(unchecked) var counts: [EntityCounts]
    /// Per entity, per relationship: an ordered to-many whose owner merged an occurrence that
    /// lists targets. Positions are each occurrence's own until `ReferenceResolver.renumberLinks`
    /// (and `renumberChildren`) make them the owner's united, first-seen order; set, they run.
    @exclusivity(unchecked) private(set) var mergedOrderedLinks: [[Bool]]
    /// Per entity, per relationship: a to-many with a link that names its target by identity.
    /// Unset, every link's target was embedded, and so inserted with it: none can be missing.
    @exclusivity(unchecked) private(set) var linksByIdentity: [[Bool]]
    /// Per entity, per relationship: a one-to-many with `inverse` whose embedded children, new
    /// when embedded, take their parent for good as they are inserted: its key, position and
    /// presence bit, with no link row (these were graph's 200k link rows). Their claim
    /// stands where their record does (their slot's origin is the row's own). A later claim on
    /// such a child is a link row, or, from the child's own record, a merge that the merger
    /// settles in source order like any to-one. Not when another to-many shares the inverse:
    /// then a claim would not say whose it is. (Children with `identity: none` take their
    /// parent for good anyway: `RowEncoder.Parent.isFinal`.)
    let claimsAtInsert: [[Bool]]
    /// Per entity, per relationship: a to-one that some record names by identity. Unset, every
    /// value of its foreign key names a row the load inserted: an embedded target, or a parent
    /// claiming its child (an inverse). Only a reference by identity can dangle.
    @exclusivity(unchecked) private(set) var referencedByIdentity: [[Bool]]
    /// Per entity: the rows inserted, which are the seed's rows (none is ever deleted).
    @exclusivity(unchecked) private(set) var rowsInserted: [Int]
    /// Per entity, per relationship: a to-many with a row in its link table.
    @exclusivity(unchecked) private(set) var hasLinkRows: [[Bool]]

    /// A store over `db`, whose main database holds the seed's tables and whose `work` database
    /// takes the side and link tables of `layouts` and `links`; `files` are the dump files in
    /// plan order (`RowEncoder.fileIndexes`); side rows past what their logs hold in memory go
    /// to a file at `spillPath` past `spillBytes` each (`SideRowLog`).
    init(db: Database, mapping: Mapping, layouts: [RowLayout], links: [[LinkLayout?]], files: [String], spillPath: String,
         spillBytes: Int) throws {
        self.db = db
        connection = db.sqliteConnection!
        self.mapping = mapping
        self.layouts = layouts
        let fileIndexes = RowEncoder.fileIndexes(files)
        self.files = fileIndexes.sorted { $0.value < $1.value }.map(\.key)
        encoder = RowEncoder(layouts: layouts, fileIndexes: fileIndexes)
        self.links = links
        mergers = mapping.entities.map(RecordMerger.init)
        counts = mapping.entities.map { _ in EntityCounts() }
        rowsInserted = mapping.entities.map { _ in 0 }
        mergedOrderedLinks = mapping.entities.map { entity in entity.relationships.map { _ in false } }
        linksByIdentity = mergedOrderedLinks
        hasLinkRows = mergedOrderedLinks
        referencedByIdentity = mergedOrderedLinks
        claimsAtInsert = mapping.entities.map { entity in
            entity.relationships.map { relationship in
                guard relationship.isToMany, let inverse = relationship.inverse, mapping.entities[relationship.target].identity != .none else { return false }
                let sharing = mapping.entities.flatMap(\.relationships).filter { $0.isToMany && $0.target == relationship.target && $0.inverse == inverse }
                return sharing.count == 1
            }
        }
        for layout in layouts {
            for statement in layout.createStatements { try db.execute(sql: statement) }
        }
        for layout in links.flatMap({ $0 }).compactMap({ $0 }) {
            for statement in layout.createStatements { try db.execute(sql: statement) }
        }
        let spill = SpillFile(path: spillPath)
        statements = try layouts.map { try EntityStatements(layout: $0, spill: spill, spillBytes: spillBytes, db: db) }
        linkInserts = try links.map { layouts in
            try layouts.map { layout in
                guard let layout else { return nil }
                let columns = layout.ownerColumns + layout.targetColumns + ["_position", "_file", "_offset"]
                return RawStatement(try db.makeStatement(sql: "INSERT OR IGNORE INTO \(layout.table) (\(SQLText.list(columns))) VALUES (\(SQLText.placeholders(columns.count)))"))
            }
        }
    }

    /// The statements of one entity's rows (a class: the store reads them per record, and a
    /// struct of statements would retain and release each one).
    private final class EntityStatements {
        /// A new row (`identity: none`).
        let insert: RawStatement
        /// A row unless its identity has one.
        let insertIfNew: RawStatement
        /// Side rows of rows inserted, logged until something reads their table.
        let sideRows: SideRowLog
        /// New rows that go without a side row, waiting to go in together (`NewRow`).
        let newRows: BatchedInsert<NewRow>?
        /// A row and its side row by identity, as `decode` reads them.
        let select: RawStatement
        let update: RawStatement
        let updateSide: RawStatement
        let setForeignKey: [RawStatement?]
        /// Occurrences waiting to go in, or merge, together (`PendingRows`); `nil` unless the
        /// entity can (`PendingRows.canBatch`).
        let pending: PendingRows?
        /// Consecutive occurrences of one batch that go in together (`RowRun`); `nil` unless
        /// the entity can (`RowRun.canRun`).
        let run: RowRun?

        init(layout: RowLayout, spill: SpillFile, spillBytes: Int, db: Database) throws {
            let columns = layout.dataColumns + layout.positionColumns.map(\.column)
            insert = RawStatement(try db.makeStatement(sql: SQLText.insert(into: layout.table, columns)))
            insertIfNew = RawStatement(try db.makeStatement(sql: SQLText.insert(into: layout.table, columns) + " ON CONFLICT DO NOTHING"))
            sideRows = try SideRowLog(layout: layout, spill: spill, spillBytes: spillBytes, db: db)
            let positionColumns = layout.positionColumns.count
            newRows = layout.mayGoWithoutSideRow && !layout.entity.relationships.contains(where: \.isToMany)
                ? try BatchedInsert(table: layout.table, columns: columns, db: db) { $0.bind(&$1, positionColumns: positionColumns) } : nil
            let selected = layout.sideColumns.map { "s.\(SQLText.quote($0))" } + layout.dataColumns.map { "t.\(SQLText.quote($0))" } + ["t.\"rowid\""]
            select = RawStatement(try db.makeStatement(sql: "SELECT \(selected.joined(separator: ", ")) FROM \(layout.joined(layout.sideTable)) WHERE \(layout.keyCondition("t"))"))
            update = RawStatement(try db.makeStatement(sql: "UPDATE \(layout.table) SET \(SQLText.assignments(layout.dataColumns)) WHERE \"rowid\" = ?"))
            let sideUpdated = layout.maskColumns + ["_fields"]
            updateSide = RawStatement(try db.makeStatement(sql: "UPDATE \(layout.sideTable) SET \(SQLText.assignments(sideUpdated)) WHERE \"_row\" = ?"))
            setForeignKey = try layout.foreignKeyColumns.map { columns in
                guard !columns.isEmpty else { return nil }
                return RawStatement(try db.makeStatement(sql: "UPDATE \(layout.table) SET \(SQLText.assignments(columns)) WHERE \(layout.keyCondition())"))
            }
            pending = PendingRows.canBatch(layout) ? try PendingRows(table: layout.table, sideTable: layout.sideTable, columns: columns, db: db) : nil
            run = RowRun.canRun(layout) ? try RowRun(table: layout.table, sideTable: layout.sideTable, columns: columns, db: db) : nil
        }
    }

    /// One to `limit` rows at once into the table of an entity whose identity is its rowid, by
    /// one `INSERT ... ON CONFLICT DO NOTHING` (prepared per row count, when first needed), and
    /// which of them had a row already: none when all went in, all when none did, else those
    /// with a side row (every row with an identity has one, and only the rows just inserted have
    /// none yet). `PendingRows` and `RowRun` go in through it.
    final class InsertIfNew {
        static var limit: Int { 32 }

        /// Whether `layout`'s identity is its table's rowid: one integer attribute.
        static func identityIsRowid(_ layout: RowLayout) -> Bool {
            let identity = layout.entity.identityAttributes
            return identity.count == 1 && layout.entity.attributes[identity[0]].type == .integer
        }

        private let table: String
        private let columns: [String]
        private let db: Database
        // The writing thread's only: no run-time exclusivity checks.
        @exclusivity(unchecked) private var inserts: [RawStatement?] = Array(repeating: nil, count: InsertIfNew.limit + 1)
        private let existing: RawStatement

        init(table: String, sideTable: String, columns: [String], db: Database) throws {
            (self.table, self.columns, self.db) = (table, columns, db)
            existing = RawStatement(try db.makeStatement(sql: "SELECT \"_row\" FROM \(sideTable) WHERE \"_row\" IN (\(SQLText.placeholders(Self.limit)))"))
        }

        /// Inserts the rows of `ids` (at most `limit`), their values bound by `bind` in order,
        /// each unless its identity has a row; returns the identities whose row was there before.
        func insert(_ ids: some Collection<Int64>, sideRows: SideRowLog, bind: (inout RawStatement.Binder) -> Void) throws -> Set<Int64> {
            let count = ids.count
            if inserts[count] == nil {
                inserts[count] = RawStatement(try db.makeStatement(sql: SQLText.insert(into: table, columns, rows: count) + " ON CONFLICT DO NOTHING"))
            }
            let inserted = try inserts[count]!.execute(bind)
            if inserted == count { return [] }
            if inserted == 0 { return Set(ids) }
            try sideRows.flush()
            var found = Set<Int64>()
            try existing.forEachRow({ binder in
                for id in ids { binder.bind(id) }
                for _ in count..<Self.limit { binder.bind(SQLValue.null) }
            }, { found.insert($0.int64(0)) })
            return found
        }
    }

    /// Occurrences of an entity whose identity is its table's rowid that `PendingRows` cannot
    /// take (they have relationships or a position column), consecutive in one batch: graph's
    /// ten tasks of a project. They wait, up to `limit`, and go in by one `INSERT ... ON
    /// CONFLICT DO NOTHING` of as many rows, with their parents' keys and positions
    /// (`InsertIfNew`); those whose identity had a row already then merge into theirs, in
    /// order. Any other record of the batch, an identity already waiting, and the end of the
    /// batch send them first (`RowStore.flushRun`), so they go in and merge
    /// while the batch they name is at hand, and before the links of the batch are read: the
    /// store does what one insert or merge per occurrence did, in the same order. (The
    /// writing thread of a graph build at 20,000 records 514.7 -> 491.8 M instructions, SQLite's
    /// steps 275 -> 242 M; at 1,000,000, five builds each alternated, median 3.22 -> 3.06 s.)
    final class RowRun {
        static var limit: Int { InsertIfNew.limit }

        /// Whether `layout`'s occurrences can go in together.
        static func canRun(_ layout: RowLayout) -> Bool {
            InsertIfNew.identityIsRowid(layout) && !PendingRows.canBatch(layout)
        }

        private let inserts: InsertIfNew
        // The writing thread's only: no run-time exclusivity checks.
        /// The waiting occurrences, in order.
        @exclusivity(unchecked) private(set) var waiting: [Occurrence] = []

        /// A waiting occurrence: its index in the batch, its identity, and its parent's key,
        /// presence bit and position when it is a child (`RowStore.placement`). (A struct: an
        /// array of tuples was copied through the run time's generic tuple witnesses.)
        struct Occurrence {
            var index: Int
            var id: Int64
            var placement: Placement
        }

        init(table: String, sideTable: String, columns: [String], db: Database) throws {
            inserts = try InsertIfNew(table: table, sideTable: sideTable, columns: columns, db: db)
            waiting.reserveCapacity(Self.limit)
        }

        func add(_ index: Int, id: Int64, placement: Placement) {
            waiting.append(Occurrence(index: index, id: id, placement: placement))
        }

        func contains(_ id: Int64) -> Bool {
            waiting.contains { $0.id == id }
        }

        func removeAll() {
            waiting.removeAll(keepingCapacity: true)
        }

        /// Inserts every waiting row in one statement, each unless its identity has one; returns
        /// the identities whose row was there before.
        func insertAll(_ batch: UnsafeBufferPointer<Record>, encoded: UnsafeBufferPointer<RowEncoder.Encoded>, positionColumns: Int,
                       sideRows: SideRowLog) throws -> Set<Int64> {
            try inserts.insert(waiting.lazy.map(\.id), sideRows: sideRows) { binder in
                for row in waiting.indices {
                    let index = waiting[row].index
                    NewRow.bind(batch[index].fields, encoded[index].foreignKeys, parentKey: waiting[row].placement.parentKey,
                                position: waiting[row].placement.position, positionColumns: positionColumns, &binder)
                }
            }
        }
    }

    /// Occurrences of an entity whose identity is its table's rowid (one integer attribute) and
    /// that has no relationship and no position column: their rows are nothing but attributes, and
    /// nothing reads their table while the load runs but their own merges. They wait, up to
    /// `batch`, and go in by one `INSERT ... ON CONFLICT DO NOTHING` of as many rows (a C test of a
    /// million flat rows, 32 at a time: 1.5 s -> 1.1 s of CPU, `InsertIfNew`; bench/README.md).
    /// Those whose identity had a row already then merge into theirs, in order, as they would have
    /// at once. One entity's occurrences wait at a time, and a message of the build, any other
    /// merge or an identity already waiting sends them first (`flushPending`), so rows, rowids,
    /// merges and messages come in source order whether they waited or not.
    final class PendingRows {
        static var batch: Int { InsertIfNew.limit }

        /// Whether `layout`'s occurrences can wait here.
        static func canBatch(_ layout: RowLayout) -> Bool {
            InsertIfNew.identityIsRowid(layout) && layout.entity.relationships.isEmpty && layout.positionColumns.isEmpty
        }

        private let inserts: InsertIfNew
        /// The rows' last known values, once the entity has merged an occurrence.
        let states = RowStates()
        // The writing thread's only: no run-time exclusivity checks.
        @exclusivity(unchecked) private(set) var records: [Record] = []
        @exclusivity(unchecked) private(set) var rows: [RowEncoder.Encoded] = []
        @exclusivity(unchecked) private(set) var ids: [Int64] = []

        init(table: String, sideTable: String, columns: [String], db: Database) throws {
            inserts = try InsertIfNew(table: table, sideTable: sideTable, columns: columns, db: db)
            records.reserveCapacity(Self.batch)
            rows.reserveCapacity(Self.batch)
            ids.reserveCapacity(Self.batch)
        }

        func add(_ record: UnsafePointer<Record>, row: UnsafePointer<RowEncoder.Encoded>, id: Int64) {
            records.append(record.pointee)
            rows.append(row.pointee)
            ids.append(id)
        }

        func removeAll() {
            records.removeAll(keepingCapacity: true)
            rows.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
        }

        /// Inserts every waiting row in one statement, each unless its identity has one; returns
        /// the identities whose row was there before.
        func insertAll(sideRows: SideRowLog) throws -> Set<Int64> {
            try records.withUnsafeBufferPointer { records in
                try inserts.insert(ids, sideRows: sideRows) { binder in
                    for index in records.indices {
                        NewRow.bind(records[index].fields, rows[index].foreignKeys, parentKey: nil, position: nil, positionColumns: 0, &binder)
                    }
                }
            }
        }
    }

    /// Rows that go in `batch` at a time, by one `INSERT` of that many rows: SQLite's work per
    /// statement run (binding aside) is paid once per batch instead of once per row, which
    /// made side rows 40% cheaper in a C test of a million (0.47 -> 0.28 s). A waiting row must
    /// be in its table before anything reads the table or inserts into it otherwise: `flush`.
    final class BatchedInsert<Row> {
        static var batch: Int { 32 }
        private let many: RawStatement
        private let one: RawStatement
        private let bind: (Row, inout RawStatement.Binder) -> Void
        // Used by the writing thread only: no run-time exclusivity checks.
        @exclusivity(unchecked) private var waiting: [Row] = []

        /// Inserts into `table`'s `columns`, each row's values bound by `bind`.
        init(table: String, columns: [String], db: Database, bind: @escaping (Row, inout RawStatement.Binder) -> Void) throws {
            many = RawStatement(try db.makeStatement(sql: SQLText.insert(into: table, columns, rows: Self.batch)))
            one = RawStatement(try db.makeStatement(sql: SQLText.insert(into: table, columns)))
            self.bind = bind
            waiting.reserveCapacity(Self.batch)
        }

        func add(_ row: Row) throws {
            waiting.append(row)
            guard waiting.count == Self.batch else { return }
            try many.execute { binder in
                for index in waiting.indices { bind(waiting[index], &binder) }
            }
            waiting.removeAll(keepingCapacity: true)
        }

        /// Inserts every waiting row.
        func flush() throws {
            guard !waiting.isEmpty else { return }
            for index in waiting.indices {
                try one.execute { bind(waiting[index], &$0) }
            }
            waiting.removeAll(keepingCapacity: true)
        }
    }

    /// The values of rows recently inserted or merged, by identity, in a table of 4,096 entries
    /// that a newer row takes over: an occurrence that would change nothing in its row (graph's
    /// owners, embedded again and again as they are) is counted as merged without reading the
    /// row back. Every insert and merge of the entity remembers its row's values, so they are
    /// the row's whenever no occurrence of the identity waits (`upsert` sends one that does
    /// before it looks).
    final class RowStates {
        private static var size: Int { 4096 }
        // The writing thread's only: no run-time exclusivity checks.
        @exclusivity(unchecked) private var ids = [Int64?](repeating: nil, count: RowStates.size)
        @exclusivity(unchecked) private var values = [[Record.Field]](repeating: [], count: RowStates.size)

        private func slot(_ id: Int64) -> Int {
            Int(truncatingIfNeeded: (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> 52)
        }

        func remember(_ id: Int64, _ fields: [Record.Field]) {
            let slot = slot(id)
            ids[slot] = id
            values[slot] = fields
        }

        /// Whether merging `occurrence` into the row of `id`, as last remembered, would change
        /// nothing: each of its values absent, or the row's own (docs/mapping.md, Merging).
        func changesNothing(_ id: Int64, _ occurrence: UnsafePointer<Record>) -> Bool {
            let slot = slot(id)
            guard ids[slot] == id else { return false }
            let row = values[slot]
            let incoming = occurrence.pointee.fields
            guard row.count == incoming.count else { return false }
            for index in incoming.indices {
                guard case let .value(value) = incoming[index].value else { continue }
                guard case let .value(kept) = row[index].value, kept == value else { return false }
            }
            return true
        }
    }

    /// A row's values as bound: the record's, with its parent's key and its position when it
    /// is a child inserted with them. New rows of an entity with `identity: none` and no
    /// to-many that go without a side row (`RowEncoder.Encoded.hasSide`), nested dumps' leaf
    /// children like pages' urls, wait in a `BatchedInsert`: nothing reads their key. Any other
    /// insert into their table sends them first, so rowids keep source order.
    struct NewRow {
        var record: Record
        var encoded: RowEncoder.Encoded
        var parentKey: (start: Int, values: [SQLValue])?
        var position: (column: Int, value: Int)?

        func bind(_ binder: inout RawStatement.Binder, positionColumns: Int) {
            Self.bind(record.fields, encoded.foreignKeys, parentKey: parentKey, position: position, positionColumns: positionColumns, &binder)
        }

        /// Binds a row's values, from its record's fields and its encoded foreign keys, without
        /// making it a `NewRow`: a copy of the record retained and released each of its arrays
        /// and strings (a twentieth of the writing thread's work).
        static func bind(
            _ fields: [Record.Field], _ foreignKeys: [SQLValue], parentKey: (start: Int, values: [SQLValue])?,
            position: (column: Int, value: Int)?, positionColumns: Int, _ binder: inout RawStatement.Binder
        ) {
            RowEncoder.forEachDataValue(fields, foreignKeys, replacing: parentKey) { binder.bind($0) }
            for column in 0..<positionColumns {
                if let position, position.column == column { binder.bind(Int64(position.value)) } else { binder.bind(SQLValue.null) }
            }
        }
    }

    /// Ends the load: every waiting row in its table. Side rows stay in their logs until
    /// something reads them (`sideTable(of:)`).
    func finishLoad() throws {
        try flushPending()
        for entity in statements {
            try entity.newRows?.flush()
        }
    }

    /// The side table of `layout`, with every side row in it: how anything after the load
    /// names a side table, so that it never reads one before its log is in (`SideRowLog`).
    func sideTable(of layout: RowLayout) throws -> String {
        try statements[layout.entityIndex].sideRows.flush()
        return layout.sideTable
    }

    /// Whether a side row of `layout` may lack the presence bit of `slot` (`SideRowLog`).
    func someSideRowMayLack(_ layout: RowLayout, slot: Int) -> Bool {
        let (column, bit) = RowLayout.maskIndex(slot)
        return statements[layout.entityIndex].sideRows.someRowMayLack(column: column, bit: bit)
    }

    /// The sink of the messages of merges that waited (`PendingRows`): set by the `upsert` that
    /// made one wait.
    @exclusivity(unchecked) private var pendingDiagnostics: DiagnosticSink?

    /// The entity whose `PendingRows` holds occurrences, if any: one at a time, so that those
    /// waiting all come before whatever the store does next, in source order.
    @exclusivity(unchecked) private var waitingEntity: Int?

    /// Sends the occurrences waiting in a `PendingRows`: before a message of the build is
    /// reported, and before any other merge, which may report one (a waiting merge's message
    /// comes first); before another entity's occurrence waits; at the end of the load.
    func flushPending() throws {
        if let waitingEntity { try flushPending(waitingEntity) }
    }

    private func flushPending(_ entity: Int) throws {
        waitingEntity = nil
        let statements = statements[entity]
        guard let pending = statements.pending, !pending.ids.isEmpty else { return }
        defer { pending.removeAll() }
        // One statement; then the identities that had a row, usually none.
        let existed = try pending.insertAll(sideRows: statements.sideRows)
        // Their rows name no other record (no relationship): no batch to name them in.
        let none = UnsafeBufferPointer<Record>(start: nil, count: 0)
        let diagnostics = pendingDiagnostics!
        try pending.records.withUnsafeBufferPointer { records in
            try pending.rows.withUnsafeBufferPointer { rows in
                for index in records.indices {
                    let (record, row) = (records.baseAddress! + index, rows.baseAddress! + index)
                    let isNew = !existed.contains(pending.ids[index])
                    if isNew {
                        try insertSide(record, encoded: row, parentBit: nil, rowid: pending.ids[index])
                    } else {
                        try merge(record, identity: record.pointee.identity!, batch: none, diagnostics: diagnostics)
                    }
                    if isNew, counts[entity].occurrencesMerged > 0 { pending.states.remember(pending.ids[index], record.pointee.fields) }
                    // `upsert` counted it as a new row when it began to wait.
                    if !isNew { rowsInserted[entity] -= 1 }
                }
            }
        }
    }

    /// The encoder of this store's rows, for whichever thread encodes a batch, and for merged rows.
    let encoder: RowEncoder
    /// `add`'s arrays, kept from batch to batch (two allocations a record fewer).
    @exclusivity(unchecked) private var batchKeys: [[SQLValue]] = []
    @exclusivity(unchecked) private var batchMerged: [Bool] = []

    // MARK: Adding records

    /// Adds one batch from the mapper: a record and the records embedded in it (pre-order), with
    /// their rows as `RowEncoder` made them (on either thread: `DumpReader.encodesHere`).
    /// Records are read through buffers: binding one from an array would copy it, retaining and
    /// releasing each of its arrays.
    func add(_ batch: UnsafeBufferPointer<Record>, encoded: UnsafeBufferPointer<RowEncoder.Encoded>, diagnostics: DiagnosticSink) throws {
        // Each row's key and whether it merged, in arrays lent from one batch to the next.
        var keys: [[SQLValue]] = []
        var merged: [Bool] = []
        swap(&keys, &batchKeys)
        swap(&merged, &batchMerged)
        defer {
            keys.removeAll(keepingCapacity: true)
            merged.removeAll(keepingCapacity: true)
            swap(&keys, &batchKeys)
            swap(&merged, &batchMerged)
        }
        for index in batch.indices {
            let entity = batch[index].entity
            counts[entity].recordsRead += 1
            var parent: (key: [SQLValue], parent: RowEncoder.Parent)?
            if let found = encoded[index].parent { parent = (keys[found.owner], found) }
            // Waits with the occurrences of its entity just before it (`RowRun`), or sends them.
            if let run = statements[entity].run, let identity = batch[index].identity, case let .integer(id) = identity.values[0] {
                if runEntity != entity || run.contains(id) { try flushRun(batch, encoded: encoded, merged: &merged, diagnostics: diagnostics) }
                runEntity = entity
                run.add(index, id: id, placement: placement(layouts[entity], parent: parent, batch: batch))
                keys.append(identity.values)
                merged.append(false)
                if run.waiting.count == RowRun.limit { try flushRun(batch, encoded: encoded, merged: &merged, diagnostics: diagnostics) }
                continue
            }
            try flushRun(batch, encoded: encoded, merged: &merged, diagnostics: diagnostics)
            let (key, isNew) = try upsert(batch.baseAddress! + index, encoded: encoded.baseAddress! + index, parent: parent, batch: batch,
                                          diagnostics: diagnostics)
            if isNew { rowsInserted[entity] += 1 }
            keys.append(key)
            merged.append(!isNew)
        }
        try flushRun(batch, encoded: encoded, merged: &merged, diagnostics: diagnostics)
        for index in batch.indices {
            let entity = batch[index].entity
            for (relationshipIndex, link) in batch[index].links.enumerated() {
                let relationship = mapping.entities[entity].relationships[relationshipIndex]
                if relationship.isToMany, case let .many(targets) = link, let insert = linkInserts[entity][relationshipIndex] {
                    if relationship.isOrdered, merged[index], !targets.isEmpty { mergedOrderedLinks[entity][relationshipIndex] = true }
                    let file = Int64(encoded[index].file)
                    for (position, target) in targets.enumerated() {
                        // A child inserted with its parent for good needs no link row (`upsert`).
                        if case let .embedded(child) = target, let parent = encoded[child].parent,
                           parent.owner == index, parent.relationship == relationshipIndex,
                           parent.isFinal || (claimsAtInsert[entity][relationshipIndex] && !merged[child]) {
                            continue
                        }
                        hasLinkRows[entity][relationshipIndex] = true
                        if case .identity = target { linksByIdentity[entity][relationshipIndex] = true }
                        let (targetKey, offset) = key(of: target, keys: keys, batch: batch)
                        try insert.execute { binder in
                            for value in keys[index] { binder.bind(value) }
                            for value in targetKey { binder.bind(value) }
                            binder.bind(Int64(position))
                            binder.bind(file)
                            binder.bind(Int64(offset))
                        }
                    }
                } else if !relationship.isToMany, case .one(.identity) = link {
                    referencedByIdentity[entity][relationshipIndex] = true
                } else if !relationship.isToMany, case let .one(.embedded(child)) = link, batch[child].identity == nil {
                    // An embedded target with no identity: its key is the `_pk` just given to it.
                    // (One with an identity was named by it when the row was encoded.)
                    try statements[entity].setForeignKey[relationshipIndex]?.execute { binder in
                        for value in keys[child] + keys[index] { binder.bind(value) }
                    }
                }
            }
        }
    }

    /// The entity whose `RowRun` holds occurrences of the batch being added, if any.
    @exclusivity(unchecked) private var runEntity: Int?

    /// Sends the occurrences waiting in a `RowRun`: one insert for them all, then, in order, a
    /// side row for each new row and a merge for each of the others (whose `merged` is set).
    private func flushRun(_ batch: UnsafeBufferPointer<Record>, encoded: UnsafeBufferPointer<RowEncoder.Encoded>, merged: inout [Bool],
                          diagnostics: DiagnosticSink) throws {
        guard let entity = runEntity else { return }
        runEntity = nil
        let statements = statements[entity]
        guard let run = statements.run, !run.waiting.isEmpty else { return }
        defer { run.removeAll() }
        let records = batch.baseAddress!
        let rows = encoded.baseAddress!
        let existed = try run.insertAll(batch, encoded: encoded, positionColumns: layouts[entity].positionColumns.count, sideRows: statements.sideRows)
        for row in run.waiting.indices {
            let (index, id) = (run.waiting[row].index, run.waiting[row].id)
            if existed.contains(id) {
                try merge(records + index, identity: batch[index].identity!, batch: batch, diagnostics: diagnostics)
                merged[index] = true
            } else {
                try insertSide(records + index, encoded: rows + index, parentBit: run.waiting[row].placement.parentBit, rowid: id)
                rowsInserted[entity] += 1
            }
        }
    }

    private func key(of target: RecordReference, keys: [[SQLValue]], batch: UnsafeBufferPointer<Record>) -> ([SQLValue], Int) {
        switch target {
        case let .identity(identity, offset): return (identity.values, offset)
        case let .embedded(index): return (keys[index], batch[index].origin.offset)
        }
    }

    /// Where a child goes as it is inserted: its parent's key in place of its inverse foreign key,
    /// the presence bit of that key when the link is final, and its position. All `nil` for a
    /// record that is not such a child (`RowEncoder.Parent`).
    struct Placement {
        var parentKey: (start: Int, values: [SQLValue])?
        var parentBit: (column: Int, bit: Int64)?
        var position: (column: Int, value: Int)?
    }

    private func placement(_ layout: RowLayout, parent: (key: [SQLValue], parent: RowEncoder.Parent)?, batch: UnsafeBufferPointer<Record>) -> Placement {
        var placement = Placement()
        guard let (ownerKey, parent) = parent else { return placement }
        // What `ReferenceResolver.applyInverse` would do for the link, done now. Final, with
        // its presence bit, when nothing else can claim the child, or when the claim stands
        // where the child's record does (`claimsAtInsert`): the bit goes on the side row
        // only, which only a new row gets.
        let ownerEntity = batch[parent.owner].entity
        let inverse = mapping.entities[ownerEntity].relationships[parent.relationship].inverse!
        if parent.isFinal || claimsAtInsert[ownerEntity][parent.relationship] {
            placement.parentBit = RowLayout.maskIndex(layout.slot(relationship: inverse))
        }
        placement.parentKey = (layout.foreignKeyDataOffsets[inverse], ownerKey)
        if let column = layout.positionIndex(owner: ownerEntity, relationship: parent.relationship) {
            placement.position = (column, parent.position)
        }
        return placement
    }

    /// Inserts a record, or merges it into the row of its identity; returns the row's key, and
    /// whether the row is new. The record and its row are read through pointers into the
    /// batch: passed by value out of a buffer, each was copied, its arrays and strings retained
    /// and released.
    private func upsert(
        _ record: UnsafePointer<Record>, encoded: UnsafePointer<RowEncoder.Encoded>, parent: (key: [SQLValue], parent: RowEncoder.Parent)?,
        batch: UnsafeBufferPointer<Record>, diagnostics: DiagnosticSink
    ) throws -> (key: [SQLValue], isNew: Bool) {
        let layout = layouts[record.pointee.entity]
        let place = placement(layout, parent: parent, batch: batch)
        let (parentKey, parentBit, position) = (place.parentKey, place.parentBit, place.position)
        let statements = statements[record.pointee.entity]
        let positionColumns = layout.positionColumns.count
        guard let identity = record.pointee.identity else {
            // A row that nothing names waits to go in with others; its key is never read.
            if !encoded.pointee.hasSide, let newRows = statements.newRows {
                try newRows.add(NewRow(record: record.pointee, encoded: encoded.pointee, parentKey: parentKey, position: position))
                return ([], true)
            }
            try statements.newRows?.flush()
            try statements.insert.execute {
                NewRow.bind(record.pointee.fields, encoded.pointee.foreignKeys, parentKey: parentKey, position: position,
                            positionColumns: positionColumns, &$0)
            }
            if encoded.pointee.hasSide { try insertSide(record, encoded: encoded, parentBit: parentBit) }
            return ([.integer(sqlite3_last_insert_rowid(connection))], true)
        }
        let key = identity.values
        if let pending = statements.pending, case let .integer(id) = key[0] {
            let entity = record.pointee.entity
            if pending.ids.contains(id) { try flushPending() }
            // Nothing of this identity waits: the values remembered for it, if any, are its row's.
            if counts[entity].occurrencesMerged > 0, pending.states.changesNothing(id, record) {
                counts[entity].occurrencesMerged += 1
                return (key, false)
            }
            // Waits with others (`PendingRows`), counted as new until it merges.
            if waitingEntity != entity { try flushPending() }
            waitingEntity = entity
            pendingDiagnostics = diagnostics
            pending.add(record, row: encoded, id: id)
            if pending.ids.count == PendingRows.batch { try flushPending(record.pointee.entity) }
            return (key, true)
        }
        let isNew = try insertOrMerge(record, encoded: encoded, identity: identity, parentKey: parentKey, parentBit: parentBit, position: position,
                                      batch: batch, diagnostics: diagnostics)
        return (key, isNew)
    }

    /// The side row of the row inserted with `rowid` (by default the last one), with its
    /// parent's presence bit if it has one.
    private func insertSide(_ record: UnsafePointer<Record>, encoded: UnsafePointer<RowEncoder.Encoded>, parentBit: (column: Int, bit: Int64)?,
                            rowid: Int64? = nil) throws {
        try statements[record.pointee.entity].sideRows.add(row: rowid ?? sqlite3_last_insert_rowid(connection), encoded: encoded,
                                                           parentBit: parentBit, offset: record.pointee.origin.offset)
    }

    /// Inserts a record with an identity, or merges it into the row of its identity; returns
    /// whether the row is new.
    private func insertOrMerge(
        _ record: UnsafePointer<Record>, encoded: UnsafePointer<RowEncoder.Encoded>, identity: IdentityKey,
        parentKey: (start: Int, values: [SQLValue])?, parentBit: (column: Int, bit: Int64)?, position: (column: Int, value: Int)?,
        batch: UnsafeBufferPointer<Record>, diagnostics: DiagnosticSink
    ) throws -> Bool {
        let layout = layouts[record.pointee.entity]
        let statements = statements[record.pointee.entity]
        if try statements.insertIfNew.execute({
            NewRow.bind(record.pointee.fields, encoded.pointee.foreignKeys, parentKey: parentKey, position: position,
                        positionColumns: layout.positionColumns.count, &$0)
        }) == 1 {
            try insertSide(record, encoded: encoded, parentBit: parentBit)
            return true
        }

        try merge(record, identity: identity, batch: batch, diagnostics: diagnostics)
        return false
    }

    /// Merges a record into the row of its identity, seen before, by docs/mapping.md's rules.
    private func merge(_ record: UnsafePointer<Record>, identity: IdentityKey, batch: UnsafeBufferPointer<Record>, diagnostics: DiagnosticSink) throws {
        // Occurrences that wait came before this one, and so do their messages.
        try flushPending()
        let layout = layouts[record.pointee.entity]
        counts[record.pointee.entity].occurrencesMerged += 1
        guard case (var row, let rowid)? = try storedRecord(layout, key: identity.values, identity: identity) else { return }
        var incoming = record.pointee.namingEmbeddedTargets(in: batch)
        for (index, relationship) in layout.entity.relationships.enumerated() where relationship.isToMany {
            incoming.links[index] = .absent
        }
        var changed = false
        let conflicts = mergers[record.pointee.entity].merge(incoming, into: &row, changed: &changed)
        for conflict in conflicts {
            if conflict.isResolved {
                counts[record.pointee.entity].conflictsResolved += 1
            } else {
                diagnostics.report(mergers[record.pointee.entity].diagnostic(for: conflict, identity: identity))
            }
        }
        // An occurrence that repeats the row (an embedded user, again) writes nothing.
        if changed { try update(row, rowid: rowid, batch: batch) }
        if let states = statements[record.pointee.entity].pending?.states { states.remember(rowid, row.fields) }
    }

    /// The row of an identity and its rowid, as a record the merger can take.
    func storedRecord(_ layout: RowLayout, key: [SQLValue], identity: IdentityKey?) throws -> (Record, Int64)? {
        var found: (Record, Int64)?
        try statements[layout.entityIndex].sideRows.flush()
        try statements[layout.entityIndex].select.forEachRow({ binder in
            for value in key { binder.bind(value) }
        }, { row in
            found = (decode(row, layout: layout, identity: identity), row.int64(layout.sideColumns.count + layout.dataColumns.count))
        })
        return found
    }

    /// Decodes a row selected as `masks, _fields, _file, _offset, data...`.
    private func decode(_ row: RawStatement.RawRow, layout: RowLayout, identity: IdentityKey?) -> Record {
        let maskCount = layout.maskColumns.count
        let masks: [Int64] = (0..<maskCount).map { row.int64($0) }
        let rowFile = Int(row.int64(maskCount + 1))
        let rowOffset = Int(row.int64(maskCount + 2))
        let file = files[rowFile]
        let origin = Record.Origin(file: file, offset: rowOffset)
        let origins = RowLayout.origins(in: row.bytes(maskCount), rowFile: rowFile, rowOffset: rowOffset)
        func slot(_ slot: Int) -> (present: Bool, file: Int, offset: Int) {
            let (column, bit) = RowLayout.maskIndex(slot)
            let (fileIndex, offset) = slot < origins.count ? origins[slot] : (rowFile, rowOffset)
            return (masks[column] & bit != 0, fileIndex, offset)
        }
        var column = maskCount + 3
        var fields: [Record.Field] = []
        var fieldFiles: [String] = []
        for index in layout.entity.attributes.indices {
            let (present, fileIndex, offset) = slot(layout.slot(attribute: index))
            fields.append(Record.Field(value: present ? .value(row.value(column)) : .absent, offset: offset))
            fieldFiles.append(files[fileIndex])
            column += 1
        }
        var links: [Link] = []
        for (index, relationship) in layout.entity.relationships.enumerated() {
            let columns = layout.foreignKeyColumns[index]
            let (present, _, offset) = slot(layout.slot(relationship: index))
            let values = columns.indices.map { row.value(column + $0) }
            column += columns.count
            if relationship.isToMany || !present {
                links.append(.absent)
            } else if values.allSatisfy({ $0 == .null }) {
                links.append(.null)
            } else {
                links.append(.one(.identity(IdentityKey(values), offset: offset)))
            }
        }
        var record = Record(entity: layout.entityIndex, identity: identity, fields: fields, links: links, origin: origin)
        if fieldFiles.contains(where: { $0 != file }) { record.fieldFiles = fieldFiles }
        return record
    }

    private func update(_ record: Record, rowid: Int64, batch: UnsafeBufferPointer<Record>) throws {
        let encoded = withUnsafePointer(to: record) { encoder.encode($0, file: nil, batch: batch) }
        let statements = statements[record.entity]
        try statements.update.execute { binder in
            RowEncoder.forEachDataValue(record.fields, encoded.foreignKeys, replacing: nil) { binder.bind($0) }
            binder.bind(rowid)
        }
        try statements.updateSide.execute { binder in
            RowEncoder.forEachMask(encoded) { binder.bind($0) }
            encoded.fields.withUnsafeBytes { binder.bind(blob: $0) }
            binder.bind(rowid)
        }
    }
}

extension SQLValue {
    /// The value as GRDB binds it.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case let .integer(value): return value.databaseValue
        case let .real(value): return value.databaseValue
        case let .text(value): return value.databaseValue
        case let .blob(bytes): return Data(bytes).databaseValue
        }
    }

    /// A value read back from SQLite.
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case let .int64(integer): self = .integer(integer)
        case let .double(double): self = .real(double)
        case let .string(string): self = .text(string)
        case let .blob(data): self = .blob(Array(data))
        }
    }
}
