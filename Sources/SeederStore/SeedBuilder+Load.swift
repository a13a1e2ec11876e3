import Foundation
import GRDB
import SeederCore
import SeederFiles

/// The load: every dump read and mapped on a thread of its own, its records merged into rows
/// here, then every reference resolved, in the seed being built and its working database.
extension SeedBuilder {
    /// What the load leaves for the seed file: its rows' counts, and what it read.
    struct LoadedRows {
        /// Per entity, in mapping order: its counts, with the keys nothing maps.
        var totals: EntityTotals
        /// Each dump file read, once, in the order files were first read: what `inputs_sha256`
        /// and the report's `files` list.
        var sources: [SeedSource]
        /// The `seed_source` rows, as the mapping's `provenance:` has them.
        var sourceRows: [SourceRow] = []
        var sqliteVersion: String
        /// The dump files' bytes, as progress counts them (a file two sources read, twice).
        var totalBytes: Int
    }

    /// Opens one connection (`WritingConnection`, no journal): the seed being built as `main`,
    /// the working database as `work`, with the pages `layout` has it in
    /// (`SeedLayout.workingPageSize`).
    static func openDatabase(_ files: BuildFiles, for layout: SeedLayout) throws -> DatabaseQueue {
        let work = files.work
        let workingPageSize = layout.workingPageSize
        let configuration = WritingConnection.configuration(journal: .off, pageSize: 4096) { db in
            try db.execute(sql: "ATTACH DATABASE ? AS \"work\"", arguments: [work])
            try WritingConnection.prepare(db, schema: "work", journal: .off, pageSize: workingPageSize)
        }
        return try DatabaseQueue(path: files.seed, configuration: configuration)
    }

    /// How many parts (tables, entities, relationships checked) a step does between its progress
    /// reports.
    static let partsPerReport = 256

    /// Dump bytes -> JSON values (`JSONReader`) -> records (`Mapper`) -> rows merged in the
    /// seed's own tables (`RowStore`); then references, inverses, defaults, `required` and
    /// `unique` (`ReferenceResolver`), and the mapper's coverage warnings.
    static func load(
        _ inputs: [InputFile], with layout: SeedLayout, as publication: Publication, into seed: DatabaseQueue, files: BuildFiles,
        options: BuildOptions, diagnostics: DiagnosticSink
    ) throws -> LoadedRows {
        let mapping = layout.mapping
        let mapper = Mapper(mapping: mapping)
        var loaded = LoadedRows(
            totals: EntityTotals(), sources: [], sqliteVersion: "", totalBytes: inputs.reduce(0) { $0 + $1.size })
        let tally = EntityTally(entities: mapping.entities.count)
        try seed.inDatabase { db in
            loaded.sqliteVersion = try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? ""
            try db.execute(sql: "BEGIN")
            // Thousands of tables take seconds: each step counts what it has made, every
            // `partsPerReport` (a smaller mapping's steps are over before a line could help).
            let tables = layout.tables(for: publication).count
            try layout.createTables(db, for: publication) { made in
                guard made % partsPerReport == 0 else { return }
                options.progress?(.before(.planning, "seed tables", parts: .init(done: made, total: tables, plural: "tables")))
            }
            let entities = mapping.entities.count
            let store = try RowStore(
                db: db, mapping: mapping, layouts: layout.layouts, links: layout.links, files: inputs.map(\.path),
                spillPath: files.spill, spillBytes: options.sideRowBytesInMemory, tally: tally
            ) { step, made in
                guard made % partsPerReport == 0 else { return }
                options.progress?(.before(.planning, step, parts: .init(done: made, total: entities, plural: "entities")))
            }
            let total = loaded.totalBytes
            let read = try readDumps(inputs, totalBytes: total, mapper: mapper, into: store, options: options, diagnostics: diagnostics)
            loaded.sources = read.sources
            loaded.sourceRows = SeedSource.rows(
                mapping.provenance, inputs: inputs, files: read.sources, recordsByInput: read.recordsByInput)
            options.progress?(BuildProgress(phase: .resolving, bytesRead: total, totalBytes: total, records: read.records))
            let summary = try store.finishLoad()
            if let earlySync = publication.earlySync, !diagnostics.hasErrors { try earlySync.begin(db) }
            // References are checked through the seed's indexes where it gets them (`Publication`).
            try ReferenceResolver(
                tables: store, load: summary, tally: tally, diagnostics: diagnostics, pointers: PointerLocator(files: inputs),
                indexes: publication.checkedIndexes,
                progress: { stage, parts in
                    var progress = BuildProgress(phase: .resolving, bytesRead: total, totalBytes: total, records: read.records, step: stage)
                    progress.parts = parts
                    options.progress?(progress)
                }
            ).resolve()
            try db.execute(sql: "COMMIT")
        }
        // Keys never mapped, keys that matched nothing, entities that got no record.
        mapper.reportCoverage(to: diagnostics, rowsCreated: tally.counts.map(\.rowsCreated))
        loaded.totals = EntityTotals(
            names: mapping.entities.map(\.name), counts: tally.counts,
            unmappedKeys: mapping.entities.indices.map { mapper.unmappedKeys(of: $0) })
        return loaded
    }

    /// What reading the dumps found besides rows.
    struct DumpsRead {
        /// The files read, a file read by several sources once, with all its records.
        var sources: [SeedSource] = []
        /// The records of each input of the plan, by its index.
        var recordsByInput: [Int] = []
        /// Records the dump files held.
        var records = 0
    }

    /// Reads every dump on a thread of its own (`DumpReader`) and adds its records to `store`
    /// here, reporting the reader's diagnostics in the order they were found.
    private static func readDumps(
        _ inputs: [InputFile], totalBytes total: Int, mapper: Mapper, into store: RowStore, options: BuildOptions,
        diagnostics: DiagnosticSink
    ) throws -> DumpsRead {
        let reader = DumpReader(
            files: inputs, mapper: mapper, encoder: store.encoder, limits: options.readChunk,
            progress: options.progress.map { report in
                { @Sendable (bytes: Int, records: Int) in
                    report(BuildProgress(phase: .reading, bytesRead: bytes, totalBytes: total, records: records))
                }
            })
        // The phase begins with nothing read: a plain progress line says so even for small dumps.
        options.progress?(BuildProgress(phase: .reading, bytesRead: 0, totalBytes: total, records: 0))
        reader.start()
        var read = DumpsRead(recordsByInput: Array(repeating: 0, count: inputs.count))
        // Each path's row in `read.sources`: a search through them cost pages, 2,000 files, a
        // quarter of a billion instructions (bench/README.md).
        var sourceRows: [String: Int] = [:]
        do {
            // The rows of a batch the reading thread left to encode, in an array kept.
            var rows: [RowEncoder.Encoded] = []
            while let chunk = try reader.handoff.take() {
                for event in chunk.events {
                    switch event {
                    case let .records(range, file, reported):
                        try store.report(reported, to: diagnostics)
                        try add(range, file: file, of: chunk, to: store, rows: &rows, diagnostics: diagnostics)
                    case let .diagnostics(reported):
                        try store.report(reported, to: diagnostics)
                    case let .skippedNull(entity):
                        store.tally.counts[entity].nullsSkipped += 1
                    case let .skippedElements(entity, count):
                        store.tally.counts[entity].elementsSkipped += count
                    case let .fileDone(index, digest, records):
                        let file = inputs[index]
                        read.records += records
                        read.recordsByInput[index] = records
                        if let existing = sourceRows[file.relativePath] {
                            read.sources[existing].records += records
                        } else {
                            sourceRows[file.relativePath] = read.sources.count
                            read.sources.append(SeedSource(path: file.relativePath, digest: digest, bytes: file.size, records: records))
                        }
                    }
                }
                reader.handoff.recycle(chunk)
            }
        } catch {
            reader.stop()
            throw error
        }
        reader.join()
        return read
    }

    /// Adds the batch at `range` of a chunk's records, from the dump file of index `file`, to
    /// `store`: with the rows the reading thread encoded, else with rows encoded here into
    /// `rows`, an array kept from batch to batch.
    private static func add(
        _ range: Range<Int>, file: Int, of chunk: ReadChunk, to store: RowStore, rows: inout [RowEncoder.Encoded],
        diagnostics: DiagnosticSink
    ) throws {
        try chunk.records.withUnsafeBufferPointer { records in
            let batch = UnsafeBufferPointer(rebasing: records[range])
            guard chunk.encoded.isEmpty else {
                return try chunk.encoded.withUnsafeBufferPointer {
                    try store.add(batch, encoded: UnsafeBufferPointer(rebasing: $0[range]), diagnostics: diagnostics)
                }
            }
            rows.removeAll(keepingCapacity: true)
            store.encoder.encode(batch: batch, file: file, appendingTo: &rows)
            try rows.withUnsafeBufferPointer { try store.add(batch, encoded: $0, diagnostics: diagnostics) }
        }
    }
}
