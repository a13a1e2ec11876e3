import Foundation
import GRDB
import SeederCore

/// What `seeder build` and `seeder validate` are asked to do.
public struct BuildOptions: Sendable {
    /// The mapping file.
    public var mapping: String
    /// The dumps directory.
    public var dumps: String
    /// The output file; `nil` takes the mapping's `output:`, else `<mapping stem>.sqlite`.
    public var output: String?
    /// `--force`: replace an existing output that is not a seed.
    public var force = false
    /// The report file the command writes after the build (`--report`), checked with the output
    /// before any work (`OutputGuard`); the build itself does not write it.
    public var report: String?
    /// `--on-conflict`: overrides every entity's `onConflict`.
    public var onConflict: ConflictPolicy?
    /// `--max-errors`.
    public var maxErrors: Int = 100
    /// `--strict`: warnings are errors.
    public var strict = false
    /// `validate`: every check, no output.
    public var writesOutput = true
    /// The value of `SOURCE_DATE_EPOCH`, for `built_at`.
    public var sourceDateEpoch: String?
    /// Called as the build goes (after each block read, and at each phase).
    public var progress: (@Sendable (BuildProgress) -> Void)?
    /// Called with the temporary files' paths just before the build makes them, so that a
    /// command can remove them if it is interrupted.
    public var willCreateTemporaries: (@Sendable ([String]) -> Void)?
    /// Bytes of side rows each entity keeps in memory before they go to the spill file
    /// (`SideRowLog`); tests set 1 to send every row through the file.
    var sideRowBytesInMemory = SideRowLog.defaultSpillBytes
    /// How much the reading thread hands over at a time (`DumpReader.ChunkLimits`); tests set
    /// one event to cut the dumps at every record.
    var readChunk = DumpReader.ChunkLimits()

    public init(mapping: String, dumps: String) {
        self.mapping = mapping
        self.dumps = dumps
    }
}

/// How far a build is (docs/commands.md, Progress).
public struct BuildProgress: Sendable {
    /// What the build is doing.
    public enum Phase: String, Sendable {
        case reading, resolving, writing
    }

    public var phase: Phase
    public var bytesRead: Int
    public var totalBytes: Int
    public var records: Int
}

/// Builds a seed (docs/seed.md) from a mapping and a dumps directory, stage by stage:
///
/// 1. YAML -> `Mapping` (`MappingLoader`), every problem reported before any dump is read;
/// 2. sources -> `InputFile`s (`InputPlanner`), in source and path order;
/// 3. dump bytes -> `JSONDocument` per record (`JSONReader`), hashed as they stream;
/// 4. value -> `Record`s (`Mapper`);
/// 5. records -> rows merged in the seed's own tables (`RowStore`, SQLite as the identity map);
/// 6. references, inverses, defaults, `required`, `unique` (`ReferenceResolver`);
/// 7. join rows, metadata, constraints, indexes, checks; the seed file renamed into place
///    (`SeedAssembler`).
///
///     var options = BuildOptions(mapping: "mappings/tasklist.yaml", dumps: "seeds/tasklist")
///     let report = SeedBuilder.build(options)
///     print(report.outcome, report.output ?? "-")
public enum SeedBuilder {
    /// The version written to `seed_metadata.seeder_version`.
    public static let version = "0.1.0"

    /// Runs a build (or a validation) and reports what happened; never throws.
    public static func build(_ options: BuildOptions) -> BuildReport {
        let diagnostics = DiagnosticSink(maxErrors: options.maxErrors)
        var report = BuildReport(outcome: .success, output: nil, entities: [], diagnostics: [], suppressedErrors: 0, inputs: [])
        var inputFiles: [InputFile] = []
        var temporaries: [String] = []
        var lock: OutputLock?
        var reportChecked: Bool?
        report.outcome = run(options, diagnostics: diagnostics, report: &report, inputFiles: &inputFiles, temporaries: &temporaries, lock: &lock,
                             reportChecked: &reportChecked)
        for path in temporaries { unlink(path) }
        lock?.release()
        if let path = options.report {
            report.reportMayBeWritten = reportChecked ?? checkReportOfFailedRun(path, options: options, diagnostics: diagnostics)
            // A report that may not be written is a file the command cannot write.
            if !report.reportMayBeWritten { report.outcome = .failed }
        }
        diagnostics.resolveOffsets { name in
            inputFiles.first { $0.path == name }.flatMap { try? FileByteSource(path: $0.absolutePath) }
        }
        report.diagnostics = diagnostics.diagnostics
        report.suppressedErrors = diagnostics.suppressedErrorCount
        return report
    }

    /// The stages; returns the outcome and fills `report`. Temporary files it makes are listed
    /// in `temporaries`, for `build` to remove whatever happens, and then to release `lock`.
    /// `reportChecked` tells whether `options.report` passed its checks, once they ran.
    private static func run(
        _ options: BuildOptions, diagnostics: DiagnosticSink, report: inout BuildReport,
        inputFiles: inout [InputFile], temporaries: inout [String], lock: inout OutputLock?, reportChecked: inout Bool?
    ) -> BuildReport.Outcome {
        // 1. The mapping.
        let mappingData: [UInt8]
        do {
            mappingData = try FileByteSource(path: options.mapping).readAll()
        } catch {
            diagnostics.error("cannot read the mapping file: \((error as? InputError)?.reason ?? "\(error)")", at: SourceLocation(file: options.mapping))
            return .failed
        }
        guard var mapping = MappingLoader().load(bytes: mappingData, file: options.mapping, diagnostics: diagnostics) else { return .invalid }
        if let policy = options.onConflict {
            for index in mapping.entities.indices { mapping.entities[index].onConflict = policy }
        }

        // 2. The inputs.
        var unreadable = false
        inputFiles = InputPlanner(mapping: mapping, dumps: options.dumps).plan(diagnostics: diagnostics, unreadable: &unreadable)
        report.inputs = inputFiles.map(\.path)
        if unreadable { return .failed }

        // The files the run will write, checked and the output locked before any work.
        let output = defaultOutput(for: options, mapping: mapping)
        let outputPath = URL(fileURLWithPath: output).standardizedFileURL.path
        let paths = temporaryPaths(output: output, writesOutput: options.writesOutput)
        let outputGuard = OutputGuard(mapping: options.mapping, inputs: inputFiles)
        do {
            if let path = options.report {
                reportChecked = false
                try outputGuard.checkReport(path, output: options.writesOutput ? output : nil)
                reportChecked = true
            }
            if options.writesOutput {
                try outputGuard.checkOutput(output, force: options.force)
                let lockFile = lockPath(output: output)
                lock = try OutputLock(path: lockFile, shownPath: displayPath(lockFile, output: output), output: output)
            }
        } catch {
            diagnostics.error(error.message)
            return .failed
        }
        let (seedPath, workPath, vacuumPath, spillPath) = (paths[0], paths[1], paths[2], paths[3])
        // A killed build's leftovers go first; ours go at the end, whatever happens. The lock
        // file goes last, once nothing of this build is left for another to find.
        options.willCreateTemporaries?(paths + (lock.map { [$0.path] } ?? []))
        temporaries = paths
        for path in temporaries { unlink(path) }
        var seedQueue: DatabaseQueue?

        do {
            // One connection: the seed being built as `main`, the working database as `work`,
            // 16 MiB of cache each (32 MiB each put a graph build at 1,000,000 records past
            // the 150 MB memory target; 16 MiB builds it as fast in 100 MB).
            var configuration = Configuration()
            configuration.foreignKeysEnabled = false
            configuration.journalMode = .default
            // A failed build leaves its transaction open: with the journal off there is nothing to
            // roll back to, and its files go.
            configuration.allowsUnsafeTransactions = true
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA page_size = 4096")
                try db.execute(sql: "PRAGMA journal_mode = OFF")
                try db.execute(sql: "PRAGMA synchronous = OFF")
                try db.execute(sql: "PRAGMA cache_size = -16384")
                try db.execute(sql: "ATTACH DATABASE ? AS \"work\"", arguments: [workPath])
                // Big pages: side and link tables are appended to and read back in order, and
                // 64 KiB pages take a sixth fewer CPU seconds than 4 KiB ones (bench/README.md).
                try db.execute(sql: "PRAGMA \"work\".page_size = 65536")
                try db.execute(sql: "PRAGMA \"work\".journal_mode = OFF")
                try db.execute(sql: "PRAGMA \"work\".synchronous = OFF")
                try db.execute(sql: "PRAGMA \"work\".cache_size = -16384")
            }
            let seed = try DatabaseQueue(path: seedPath, configuration: configuration)
            seedQueue = seed
            let mapper = Mapper(mapping: mapping)
            let schema = SeedSchema(mapping: mapping)
            let (layouts, links) = (RowLayout.all(for: mapping), LinkLayout.all(for: mapping))
            let assembler = SeedAssembler(mapping: mapping, schema: schema, layouts: layouts, links: links)
            var sources: [(String, DigestPipeline.Digest, Int, Int)] = []
            var sqliteVersion = ""
            let (counts, rowsInserted): ([EntityCounts], [Int]) = try seed.inDatabase { db in
                sqliteVersion = try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? ""
                try db.execute(sql: "BEGIN")
                try assembler.createTables(db)
                let store = try RowStore(db: db, mapping: mapping, layouts: layouts, links: links, files: inputFiles.map(\.path), spillPath: spillPath,
                                         spillBytes: options.sideRowBytesInMemory)
                // 3-5. Every dump, record by record: read and mapped on a thread of its own,
                // merged here.
                let total = inputFiles.reduce(0) { $0 + $1.size }
                let reader = DumpReader(files: inputFiles, mapper: mapper, encoder: store.encoder, limits: options.readChunk, progress: options.progress.map { report in
                    { @Sendable (bytes: Int, records: Int) in
                        report(BuildProgress(phase: .reading, bytesRead: bytes, totalBytes: total, records: records))
                    }
                })
                reader.start()
                var recordCount = 0
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
                                store.counts[entity].nullsSkipped += 1
                            case let .fileDone(index, digest, records):
                                let file = inputFiles[index]
                                recordCount += records
                                if let existing = sources.firstIndex(where: { $0.0 == file.relativePath }) {
                                    sources[existing].3 += records
                                } else {
                                    sources.append((file.relativePath, digest, file.size, records))
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
                let load = try store.finishLoad()
                // 6. References, inverses, finished rows.
                options.progress?(BuildProgress(phase: .resolving, bytesRead: total, totalBytes: total, records: recordCount))
                // A build checks references through the seed's own indexes; a validation, which
                // writes no seed, without them.
                try ReferenceResolver(store: store, load: load, diagnostics: diagnostics, pointers: PointerLocator(files: inputFiles),
                                      indexes: options.writesOutput ? schema.indexes : []).resolve()
                try db.execute(sql: "COMMIT")
                return (store.counts, store.rowsInserted)
            }
            // Keys never mapped, keys that matched nothing, entities that got no record.
            mapper.reportCoverage(to: diagnostics)
            for (index, entity) in mapping.entities.enumerated() {
                report.entities.append(BuildReport.EntitySummary(name: entity.name, counts: counts[index], unmappedKeys: mapper.unmappedKeys(of: index)))
            }
            if options.strict, diagnostics.warningCount > 0 {
                diagnostics.error("--strict: \(diagnostics.warningCount) \(diagnostics.warningCount == 1 ? "warning counts" : "warnings count") as errors")
            }
            guard !diagnostics.hasErrors, options.writesOutput else {
                try seed.close()
                return diagnostics.hasErrors ? .invalid : .success
            }

            // 7. The seed file.
            let total = inputFiles.reduce(0) { $0 + $1.size }
            options.progress?(BuildProgress(phase: .writing, bytesRead: total, totalBytes: total, records: report.entities.reduce(0) { $0 + $1.counts.recordsRead }))
            // The digests are final: the reading thread closed its pipeline before it exited.
            let sourceRows = sources.map { ($0.0, $0.1.hex, $0.2, $0.3) }
            let metadata = metadata(mapping: mapping, mappingData: mappingData, sources: sourceRows, sqliteVersion: sqliteVersion, options: options)
            let vacuumed = try seed.inDatabase { db in
                try assembler.finish(db, metadata: metadata, sources: sourceRows, vacuumPath: vacuumPath)
            }
            try seed.close()
            // The seed itself was synced as it was checked; a vacuumed copy was not.
            try SeedAssembler.publish(vacuumed ? vacuumPath : seedPath, as: outputPath, shown: output, synced: !vacuumed)
            // Rows are never deleted: those inserted are those written (no COUNT(*) of each table,
            // 0.04 s at a million flat records).
            for index in rowsInserted.indices { report.entities[index].counts.rowsWritten = rowsInserted[index] }
            report.output = output
            return .success
        } catch let error as JSONSyntaxError {
            diagnostics.error(error.message)
            return .invalid
        } catch let error as InputError {
            diagnostics.error("cannot read this dump file: \(error.reason)", at: SourceLocation(file: error.path))
            return .failed
        } catch let error as OutputError {
            // Temporary files named as the user named the output's directory, as SQLite's are.
            var message = error.message
            if options.writesOutput {
                for path in paths { message = message.replacingOccurrences(of: path, with: displayPath(path, output: output)) }
            }
            diagnostics.error(message)
            return .failed
        } catch let error as DatabaseError {
            let files = [("main", seedPath), ("work", workPath), ("", vacuumPath)].map {
                (schema: $0.0, path: $0.1, shown: options.writesOutput ? displayPath($0.1, output: output) : $0.1)
            }
            diagnostics.error(StorageFailure(error, files: files).message(seedQueue))
            return .failed
        } catch let error as AssemblyError {
            diagnostics.error(error.message)
            return .failed
        } catch {
            diagnostics.error("\(error)")
            return .failed
        }
    }

    /// Adds the batch at `range` of a chunk's records, from the dump file of index `file`, to
    /// `store`: with the rows the reading thread encoded, else with rows encoded here into
    /// `rows`, an array kept from batch to batch.
    private static func add(
        _ range: Range<Int>, file: Int, of chunk: ReadChunk, to store: RowStore, rows: inout [RowEncoder.Encoded], diagnostics: DiagnosticSink
    ) throws {
        try chunk.records.withUnsafeBufferPointer { records in
            let batch = UnsafeBufferPointer(rebasing: records[range])
            guard chunk.encoded.isEmpty else {
                return try chunk.encoded.withUnsafeBufferPointer { try store.add(batch, encoded: UnsafeBufferPointer(rebasing: $0[range]), diagnostics: diagnostics) }
            }
            rows.removeAll(keepingCapacity: true)
            store.encoder.encode(batch: batch, file: file, appendingTo: &rows)
            try rows.withUnsafeBufferPointer { try store.add(batch, encoded: $0, diagnostics: diagnostics) }
        }
    }

    /// The working files of a build of `output`: the seed being built, the working database,
    /// and the vacuumed copy renamed over the output when the seed needs one. Beside the output
    /// for `build` (same file system, so the rename is atomic); in the temporary directory,
    /// unique to the process and to the validation, for `validate` (two validations at once in
    /// one process, as the tests run them, shared the files and failed with "database is
    /// locked").
    static func temporaryPaths(output: String, writesOutput: Bool) -> [String] {
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        let directory = writesOutput ? outputURL.deletingLastPathComponent().path : NSTemporaryDirectory()
        let stem = (directory.hasSuffix("/") ? directory : directory + "/") + "." + outputURL.lastPathComponent + ".seeder"
        let unique = writesOutput ? "" : "-\(getpid())-\(validations.next())"
        return [stem + "-assembly" + unique, stem + "-work" + unique, stem + "-tmp" + unique, stem + "-spill" + unique]
    }

    /// Numbers the validations of this process, for their temporary files' names.
    private static let validations = Counter()

    /// A number that goes up by one on each `next()`, from any thread. (A lock, not
    /// `Synchronization.Atomic`: that needs macOS 15, and the package supports macOS 13.)
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        func next() -> Int {
            lock.withLock {
                count += 1
                return count
            }
        }
    }

    /// The output a build writes when the options name none: the mapping's `output:`, else
    /// `<mapping file stem>.sqlite`, relative to the current directory.
    static func defaultOutput(for options: BuildOptions, mapping: Mapping?) -> String {
        options.output ?? mapping?.output ?? (((options.mapping as NSString).lastPathComponent as NSString).deletingPathExtension + ".sqlite")
    }

    /// docs/seed.md's metadata keys, in key order.
    private static func metadata(
        mapping: Mapping, mappingData: [UInt8], sources: [(String, String, Int, Int)], sqliteVersion: String, options: BuildOptions
    ) -> [(String, String)] {
        // inputs_sha256: one digest over every input's path and digest, in source order.
        let inputs = sources.map { "\($0.0)\n\($0.1)\n" }.joined()
        var rows: [(String, String)] = [
            ("format", "1"),
            ("inputs_sha256", sha256Hex(Array(inputs.utf8))),
            ("mapping", MappingDescription.json(mapping)),
            ("mapping_sha256", sha256Hex(mappingData)),
            ("seeder_version", version),
            ("sqlite_version", sqliteVersion),
        ]
        if let epoch = options.sourceDateEpoch, let seconds = Int64(epoch) {
            rows.append(("built_at", DateCoding.iso8601Seconds(seconds)))
        }
        return rows.sorted { $0.0 < $1.0 }
    }
}

