import Foundation
import GRDB
import SeederCore
import SeederFiles

/// The rows of a build as they merge, with SQLite as the identity map: every occurrence of an
/// identity merges into one row of the seed's own table (docs/mapping.md, Merging), so memory holds
/// one batch of records, never the set of identities.
///
/// Attribute values and to-one foreign keys go straight into the seed's columns; a side row
/// (`RowLayout`) keeps presence bits, to tell absent from null, and each value's file and offset
/// for conflict messages; side rows wait in a log until something reads their table
/// (`SideRowLog`). To-many links wait in link tables until every input is read
/// (`ReferenceResolver`), except those to embedded children that take their parent as they are
/// inserted (`takesParentAtInsert`, one rule for the row's `Placement` and its link rows):
/// children with `identity: none`, and new children of a one-to-many that
/// `LoadSummary.Relationship.claimsAtInsert`.
///
/// Which insert path a record takes is its entity's, decided once (`InsertPath`, in
/// `EntityStatements.path`): a new row (`identity: none`), waiting in `PendingRows` or in a
/// `RowRun` (identities that are the rowid), or an insert-or-merge (any other identity).
/// A new row with an identity logs its side row; a child inserted inside its parent takes the
/// parent's key, position and presence bit at once (`Placement`). A merge compares copies of an
/// embedded `identity: none` record in a to-one by content (`EmbeddedCopies`): one it does not
/// keep is not written, or at least not linked.
///
/// When what waits must go in, so that rows, rowids, merges and messages keep source order, is
/// `WaitingOccurrences.due(before:)`'s to say: the store asks it at each such moment (a message,
/// a merge, an occurrence, the batch's links, the load's end) and sends what it answers.
final class RowStore {
    let db: Database
    /// The writer's statements, within their budget (`StatementPool`).
    private let pool: StatementPool
    /// The raw connection, for the rowid of each insert (GRDB's accessor checks its queue first).
    private let connection: OpaquePointer
    let mapping: Mapping
    /// The entities' names, by index: a link through a selector stores its entity's.
    let entityNames: [String]
    let layouts: [RowLayout]
    /// Per entity, per relationship: the link table of a to-many.
    let links: [[LinkLayout?]]
    private let mergers: [RecordMerger]
    /// Copies of embedded `identity: none` records in the to-ones of merged rows.
    let copies: EmbeddedCopies
    /// Per entity: the statements every occurrence uses, prepared once.
    private(set) var statements: [EntityStatements] = []
    /// Per entity, per to-many: the insert of its link table, shared by the relationships of its
    /// shape, and the relationship's number, bound first (`LinkTable.insert`).
    private var linkInserts: [[(insert: RawStatement, number: Int64)?]] = []
    /// Dump files by index, as `_file` columns store them.
    let files: [String]
    /// The encoder of this store's rows, for whichever thread encodes a batch, and for merged rows.
    let encoder: RowEncoder
    /// The build's counts, which each record and row adds to.
    let tally: EntityTally
    /// What the load learns about each relationship, handed over by `finishLoad()`.
    @exclusivity(unchecked) private(set) var summary: LoadSummary
    /// `add`'s keys and merges, kept from batch to batch (two allocations a record fewer).
    @exclusivity(unchecked) private var lentRows = BatchRows()
    /// Which entity's occurrences wait in its `PendingRows` and `RowRun`, and the rules of when
    /// they go in.
    private let waiting = WaitingOccurrences()

    /// A store over `db`, whose main database holds the seed's tables and whose `work` database
    /// takes the side and link tables of `layouts` and `links`; `files` are the dump files in
    /// plan order (`RowEncoder.fileIndexes`); side rows past what their logs hold in memory go
    /// to a file at `spillPath` past `spillBytes` each (`SideRowLog`). `made` hears each step
    /// (`working tables`, `statements`) and how many entities it has done, after each.
    init(
        db: Database, mapping: Mapping, layouts: [RowLayout], links: [[LinkLayout?]], files: [String], spillPath: String,
        spillBytes: Int, tally: EntityTally, made: (_ step: String, _ entities: Int) -> Void = { _, _ in }
    ) throws {
        self.db = db
        connection = db.sqliteConnection!
        self.mapping = mapping
        entityNames = mapping.entities.map(\.name)
        self.layouts = layouts
        let fileIndexes = RowEncoder.fileIndexes(files)
        self.files = fileIndexes.sorted { $0.value < $1.value }.map(\.key)
        encoder = RowEncoder(layouts: layouts, fileIndexes: fileIndexes)
        self.links = links
        mergers = mapping.entities.map(RecordMerger.init)
        copies = EmbeddedCopies(mapping: mapping)
        self.tally = tally
        summary = LoadSummary(mapping: mapping)
        for (index, layout) in layouts.enumerated() {
            for statement in layout.createStatements { try db.execute(sql: statement) }
            made("working tables", index + 1)
        }
        var linkTableInserts: [LinkTable: RawStatement] = [:]
        for table in LinkTable.all(for: links.flatMap { $0 }.compactMap { $0 }) {
            for statement in table.createStatements { try db.execute(sql: statement) }
            linkTableInserts[table] = RawStatement(try db.makeStatement(sql: table.insert))
        }
        let spill = SpillFile(path: spillPath)
        let pool = StatementPool(db: db)
        self.pool = pool
        statements = layouts.enumerated().map { index, layout in
            defer { made("statements", index + 1) }
            return EntityStatements(layout: layout, spill: spill, spillBytes: spillBytes, pool: pool)
        }
        linkInserts = links.map { layouts in
            layouts.map { layout in layout.flatMap { layout in linkTableInserts[layout.stored].map { ($0, Int64(layout.number)) } } }
        }
    }

    // MARK: The build's side

    /// Reports messages of the build in source order: occurrences that wait (`PendingRows`) go
    /// in, and their merges say so, first.
    func report(_ reported: [Diagnostic], to diagnostics: DiagnosticSink) throws {
        guard !reported.isEmpty else { return }
        try send(before: .message)
        for diagnostic in reported { diagnostics.report(diagnostic) }
    }

    /// Ends the load: every waiting row in its table (side rows stay in their logs until
    /// something reads them, `sideTable(of:)`); returns what the load learnt, for the resolver.
    func finishLoad() throws -> LoadSummary {
        try send(before: .loadEnd)
        for entity in statements {
            try entity.newRows?.flush()
        }
        return summary
    }

    /// The side table of `layout`, with every side row in it: how anything after the load
    /// names a side table, so that it never reads one before its log is in (`SideRowLog`).
    func sideTable(of layout: RowLayout) throws -> String {
        try statements[layout.entityIndex].sideRows.flush()
        return layout.sideTable
    }

    /// Notes side rows the resolver put in `entity`'s side table itself (`LoadedTables`).
    func noteSideRowsWentIn(of entity: Int) {
        statements[entity].sideRows.noteRowsWentIn()
    }

    /// Whether a side row of `layout` may lack the presence bit of `slot` (`SideRowLog`).
    func someSideRowMayLack(_ layout: RowLayout, slot: Int) -> Bool {
        let (column, bit) = RowLayout.maskIndex(slot)
        return statements[layout.entityIndex].sideRows.someRowMayLack(column: column, bit: bit)
    }

    // MARK: Adding records

    /// Each row of a batch: its key, and whether it merged into a row seen before.
    struct BatchRows {
        var keys: [[SQLValue]] = []
        var merged: [Bool] = []

        mutating func removeAll() {
            keys.removeAll(keepingCapacity: true)
            merged.removeAll(keepingCapacity: true)
        }
    }

    /// Adds one batch from the mapper: a record and the records embedded in it (pre-order), with
    /// their rows as `RowEncoder` made them (on either thread: `DumpReader.encodesHere`): every
    /// row in, then the batch's links. Records are read through buffers: binding one from an
    /// array would copy it, retaining and releasing each of its arrays. (Not inlined: the
    /// build's loop that calls it stays small enough for the compiler to inline into it.)
    @inline(never)
    func add(_ batch: UnsafeBufferPointer<Record>, encoded: UnsafeBufferPointer<RowEncoder.Encoded>, diagnostics: DiagnosticSink) throws {
        var rows = BatchRows()
        swap(&rows, &lentRows)
        defer {
            rows.removeAll()
            swap(&rows, &lentRows)
            copies.reset()
        }
        try insertRows(batch, encoded: encoded, into: &rows, diagnostics: diagnostics)
        try addLinks(batch, encoded: encoded, rows: rows)
    }

    /// Inserts or merges each record of a batch, filling `rows`; sends any `RowRun` before it
    /// returns, so that `rows` is final.
    private func insertRows(
        _ batch: UnsafeBufferPointer<Record>, encoded: UnsafeBufferPointer<RowEncoder.Encoded>, into rows: inout BatchRows,
        diagnostics: DiagnosticSink
    ) throws {
        for index in batch.indices {
            let entity = batch[index].entity
            tally.counts[entity].recordsRead += 1
            var parent: (key: [SQLValue], parent: RowEncoder.Parent)?
            if let found = encoded[index].parent { parent = (rows.keys[found.owner], found) }
            // Waits with the occurrences of its entity just before it (`RowRun`), or sends them.
            if let run = statements[entity].run, let identity = batch[index].identity, case let .integer(id) = identity.values[0] {
                try send(
                    before: .runOccurrence(entity: entity, alreadyInRun: run.contains(id)), batch, encoded: encoded, rows: &rows,
                    diagnostics: diagnostics)
                waiting.runWaits(entity)
                run.add(index, id: id, placement: placement(layouts[entity], parent: parent, batch: batch))
                rows.keys.append(identity.values)
                rows.merged.append(false)
                if run.waiting.count == RowRun.limit { try sendRun(batch, encoded: encoded, rows: &rows, diagnostics: diagnostics) }
                continue
            }
            try send(before: .otherRecord, batch, encoded: encoded, rows: &rows, diagnostics: diagnostics)
            // A copy that an earlier merge did not keep is not written (`EmbeddedCopies`).
            if !copies.skipped.isEmpty, copies.skipped.contains(index) {
                tally.counts[entity].occurrencesMerged += 1
                rows.keys.append([])
                rows.merged.append(true)
                continue
            }
            let (key, upserted) = try upsert(
                batch.baseAddress! + index, encoded: encoded.baseAddress! + index, parent: parent, batch: batch,
                diagnostics: diagnostics)
            if upserted == .inserted { tally.counts[entity].rowsWritten += 1 }
            rows.keys.append(key)
            rows.merged.append(upserted == .merged)
        }
        try send(before: .links, batch, encoded: encoded, rows: &rows, diagnostics: diagnostics)
    }

    /// The links of a batch whose rows are all in: to-many links as link rows, except those to
    /// children that took their parent as they were inserted (`Placement`), and to-one links to
    /// embedded targets with no identity, whose key is only known now.
    private func addLinks(_ batch: UnsafeBufferPointer<Record>, encoded: UnsafeBufferPointer<RowEncoder.Encoded>, rows: BatchRows) throws {
        for index in batch.indices {
            if !copies.skipped.isEmpty, copies.skipped.contains(index) { continue }
            let entity = batch[index].entity
            for (relationshipIndex, link) in batch[index].links.enumerated() {
                // Read from the layout: a copy of the `Relationship` retains each of its arrays.
                let layout = layouts[entity]
                let isToMany = layout.toMany[relationshipIndex]
                if isToMany, case let .many(targets) = link, let (insert, number) = linkInserts[entity][relationshipIndex] {
                    if layout.ordered[relationshipIndex], rows.merged[index], !targets.isEmpty {
                        summary.relationships[entity][relationshipIndex].needsRenumbering = true
                    }
                    let file = Int64(encoded[index].file)
                    for (position, target) in targets.enumerated() {
                        // A child inserted with its parent for good needs no link row (`Placement`).
                        if case let .embedded(child) = target, let parent = encoded[child].parent,
                            parent.owner == index, parent.relationship == relationshipIndex,
                            takesParentAtInsert(parent, owner: entity, childIsNew: !rows.merged[child])
                        {
                            continue
                        }
                        summary.relationships[entity][relationshipIndex].hasLinkRows = true
                        if case .identity = target { summary.relationships[entity][relationshipIndex].hasLinkByIdentity = true }
                        var (targetKey, offset) = key(of: target, keys: rows.keys, batch: batch)
                        if layout.hasSelector[relationshipIndex], case let .embedded(child) = target {
                            // A record a selector chose: its entity's name after its key.
                            targetKey.append(.text(mapping.entities[batch[child].entity].name))
                        }
                        try insert.execute { binder in
                            binder.bind(number)
                            for value in rows.keys[index] { binder.bind(value) }
                            for value in targetKey { binder.bind(value) }
                            binder.bind(Int64(position))
                            binder.bind(file)
                            binder.bind(Int64(offset))
                        }
                    }
                } else if !isToMany, case .one(.identity) = link {
                    summary.relationships[entity][relationshipIndex].referencedByIdentity = true
                } else if !isToMany, case let .one(.embedded(child)) = link, batch[child].identity == nil,
                    copies.dropped.isEmpty || !copies.dropped.contains(child)
                {
                    // An embedded target with no identity: its key is the `_pk` just given to it,
                    // unless a merge linked the row to another copy (`EmbeddedCopies`). (One with
                    // an identity was named by it when the row was encoded.)
                    try statements[entity].setForeignKey(relationshipIndex)?.execute { binder in
                        for value in rows.keys[child] + rows.keys[index] { binder.bind(value) }
                    }
                }
            }
        }
    }

    private func key(of target: RecordReference, keys: [[SQLValue]], batch: UnsafeBufferPointer<Record>) -> ([SQLValue], Int) {
        switch target {
        case let .identity(identity, offset): return (identity.values, offset)
        case let .embedded(index): return (keys[index], batch[index].origin.offset)
        }
    }

    /// Sends what is due before `moment` in a batch: the pending rows, then the run.
    private func send(
        before moment: WaitingOccurrences.Moment, _ batch: UnsafeBufferPointer<Record>,
        encoded: UnsafeBufferPointer<RowEncoder.Encoded>, rows: inout BatchRows, diagnostics: DiagnosticSink
    ) throws {
        let due = waiting.due(before: moment)
        if due.contains(.pending) { try sendPending() }
        if due.contains(.run) { try sendRun(batch, encoded: encoded, rows: &rows, diagnostics: diagnostics) }
    }

    /// Sends what is due before `moment`, outside a batch's run (only the pending rows can be).
    private func send(before moment: WaitingOccurrences.Moment) throws {
        let due = waiting.due(before: moment)
        assert(!due.contains(.run), "a run waits only inside a batch")
        if due.contains(.pending) { try sendPending() }
    }

    /// Sends the occurrences waiting in a `RowRun`: one insert for them all, then, in order, a
    /// side row for each new row and a merge for each of the others (whose `merged` is set).
    private func sendRun(
        _ batch: UnsafeBufferPointer<Record>, encoded: UnsafeBufferPointer<RowEncoder.Encoded>, rows: inout BatchRows,
        diagnostics: DiagnosticSink
    ) throws {
        guard let entity = waiting.takeRun() else { return }
        let statements = statements[entity]
        guard let run = statements.run, !run.waiting.isEmpty else { return }
        defer { run.removeAll() }
        let records = batch.baseAddress!
        let encodedRows = encoded.baseAddress!
        let existed = try run.insertAll(batch, encoded: encoded, positionColumns: layouts[entity].positionColumns.count)
        for row in run.waiting.indices {
            let (index, id) = (run.waiting[row].index, run.waiting[row].id)
            if existed.contains(id) {
                try merge(records + index, identity: batch[index].identity!, batch: batch, diagnostics: diagnostics)
                rows.merged[index] = true
            } else {
                try insertSide(records + index, encoded: encodedRows + index, parentBit: run.waiting[row].placement.parentBit, rowid: id)
                tally.counts[entity].rowsWritten += 1
            }
        }
    }

    /// What became of an occurrence: a new row, merged into the row of its identity, or waiting
    /// to go in with others (`PendingRows`), which decides when it goes in.
    private enum Upserted {
        case inserted, merged, waiting
    }

    /// Inserts a record, or merges it into the row of its identity, or lets it wait; returns the
    /// row's key, and which. The record and its row are read through pointers into the
    /// batch: passed by value out of a buffer, each was copied, its arrays and strings retained
    /// and released.
    private func upsert(
        _ record: UnsafePointer<Record>, encoded: UnsafePointer<RowEncoder.Encoded>, parent: (key: [SQLValue], parent: RowEncoder.Parent)?,
        batch: UnsafeBufferPointer<Record>, diagnostics: DiagnosticSink
    ) throws -> (key: [SQLValue], upserted: Upserted) {
        let layout = layouts[record.pointee.entity]
        let place = placement(layout, parent: parent, batch: batch)
        let (parentKey, parentBit, position) = (place.parentKey, place.parentBit, place.position)
        let statements = statements[record.pointee.entity]
        let positionColumns = layout.positionColumns.count
        guard let identity = record.pointee.identity else {
            // `InsertPath.newRow`: a row that nothing names waits to go in with others; its key
            // is never read.
            if !encoded.pointee.hasSide, let newRows = statements.newRows {
                try newRows.add(NewRow(record: record.pointee, encoded: encoded.pointee, parentKey: parentKey, position: position))
                return ([], .inserted)
            }
            try statements.insertNew {
                NewRow.bind(
                    record.pointee.fields, encoded.pointee.foreignKeys, parentKey: parentKey, position: position,
                    positionColumns: positionColumns, &$0)
            }
            if encoded.pointee.hasSide { try insertSide(record, encoded: encoded, parentBit: parentBit) }
            return ([.integer(RawSQLite.lastInsertedRowID(connection))], .inserted)
        }
        let key = identity.values
        if let pending = statements.pending, case let .integer(id) = key[0] {
            let entity = record.pointee.entity
            try send(before: .pendingIdentity(alreadyWaiting: pending.ids.contains(id)))
            // Nothing of this identity waits: the values remembered for it, if any, are its row's.
            if tally.counts[entity].occurrencesMerged > 0, pending.states.changesNothing(id, record) {
                tally.counts[entity].occurrencesMerged += 1
                return (key, .merged)
            }
            // Waits with others (`PendingRows`): counted when it goes in or merges.
            try send(before: .pendingOccurrence(entity: entity))
            waiting.pendingWait(entity, reportingTo: diagnostics)
            pending.add(record, row: encoded, id: id)
            if pending.ids.count == PendingRows.batch { try sendPending() }
            return (key, .waiting)
        }
        let isNew = try insertOrMerge(
            record, encoded: encoded, identity: identity, parentKey: parentKey, parentBit: parentBit,
            position: position, batch: batch, diagnostics: diagnostics)
        return (key, isNew ? .inserted : .merged)
    }

    /// The side row of the row inserted with `rowid` (by default the last one), with its
    /// parent's presence bit if it has one.
    private func insertSide(
        _ record: UnsafePointer<Record>, encoded: UnsafePointer<RowEncoder.Encoded>, parentBit: (column: Int, bit: Int64)?,
        rowid: Int64? = nil
    ) throws {
        try statements[record.pointee.entity].sideRows.add(
            row: rowid ?? RawSQLite.lastInsertedRowID(connection), encoded: encoded,
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
            NewRow.bind(
                record.pointee.fields, encoded.pointee.foreignKeys, parentKey: parentKey, position: position,
                positionColumns: layout.positionColumns.count, &$0)
        }) == 1 {
            try insertSide(record, encoded: encoded, parentBit: parentBit)
            return true
        }

        try merge(record, identity: identity, batch: batch, diagnostics: diagnostics)
        return false
    }

    // MARK: Merges and pending rows

    /// Merges a record into the row of its identity, seen before, by docs/mapping.md's rules;
    /// reports its conflicts.
    private func merge(
        _ record: UnsafePointer<Record>, identity: IdentityKey, batch: UnsafeBufferPointer<Record>, diagnostics: DiagnosticSink
    ) throws {
        // Occurrences that wait came before this one, and so do their messages.
        try send(before: .merge)
        let layout = layouts[record.pointee.entity]
        tally.counts[record.pointee.entity].occurrencesMerged += 1
        guard case (var row, let rowid)? = try storedRecord(layout, key: identity.values, identity: identity) else { return }
        var incoming =
            layout.hasAnySelector
            ? record.pointee.namingEmbeddedTargets(in: batch, selectorLinks: layout.hasSelector, entityNames: entityNames)
            : record.pointee.namingEmbeddedTargets(in: batch)
        for (index, relationship) in layout.entity.relationships.enumerated() where relationship.isToMany {
            incoming.links[index] = .absent
        }
        let index = batch.isEmpty ? 0 : record - batch.baseAddress!
        let copyLinks =
            copies.toOnes[record.pointee.entity].isEmpty
            ? [] : try compareCopies(&incoming, row: &row, identity: identity, index: index, batch: batch)
        var changed = false
        var conflicts = mergers[record.pointee.entity].merge(incoming, into: &row, changed: &changed)
        if !copyLinks.isEmpty {
            try settleCopies(copyLinks, row: row, identity: identity, index: index, batch: batch, conflicts: &conflicts)
        }
        for conflict in conflicts {
            if conflict.isResolved {
                tally.counts[record.pointee.entity].conflictsResolved += 1
            } else {
                diagnostics.report(mergers[record.pointee.entity].diagnostic(for: conflict, identity: identity))
            }
        }
        // An occurrence that repeats the row (an embedded user, again) writes nothing.
        if changed { try update(row, rowid: rowid, batch: batch) }
        if let states = statements[record.pointee.entity].pending?.states { states.remember(rowid, row.fields) }
    }

    /// Sends the occurrences waiting in a `PendingRows` (when, `WaitingOccurrences`): one insert
    /// for them all, then, in order, a side row for each new row and a merge for each of the others.
    private func sendPending() throws {
        guard let (entity, diagnostics) = waiting.takePending() else { return }
        let statements = statements[entity]
        guard let pending = statements.pending, !pending.ids.isEmpty else { return }
        defer { pending.removeAll() }
        // One statement; then the identities that had a row, usually none.
        let existed = try pending.insertAll()
        // Their rows name no other record (no relationship): no batch to name them in.
        let none = UnsafeBufferPointer<Record>(start: nil, count: 0)
        try pending.records.withUnsafeBufferPointer { records in
            try pending.rows.withUnsafeBufferPointer { rows in
                for index in records.indices {
                    let (record, row) = (records.baseAddress! + index, rows.baseAddress! + index)
                    let isNew = !existed.contains(pending.ids[index])
                    if isNew {
                        try insertSide(record, encoded: row, parentBit: nil, rowid: pending.ids[index])
                        tally.counts[entity].rowsWritten += 1
                    } else {
                        try merge(record, identity: record.pointee.identity!, batch: none, diagnostics: diagnostics)
                    }
                    if isNew, tally.counts[entity].occurrencesMerged > 0 {
                        pending.states.remember(pending.ids[index], record.pointee.fields)
                    }
                }
            }
        }
    }
}
