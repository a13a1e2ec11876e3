import Foundation
import SeederCore
import SeederFiles

/// What the reading thread hands the writing thread at a time: events in dump order, and the
/// records they name, all in one array (an array per record was two allocations, and two
/// frees).
struct ReadChunk: Sendable {
    var events: [ReadEvent] = []
    /// The batches of the chunk's `records` events, one after the other.
    var records: [Record] = []
    /// The rows of `records` in the same order when the reading thread encoded them
    /// (`DumpReader.encodesHere`, decided per chunk), else empty.
    var encoded: [RowEncoder.Encoded] = []
    /// The fields and links of `records`, which a chunk's memory grows with.
    var values = 0
}

/// What the reading thread hands the writing thread, in dump order.
enum ReadEvent: Sendable {
    /// One JSON record mapped: its batch (the record and those embedded in it), at this range
    /// of the chunk's `records`, from the dump file of index `file` (`RowEncoder.fileIndex`),
    /// and the diagnostics its mapping reported, to be reported before the batch is merged.
    case records(Range<Int>, file: Int, diagnostics: [Diagnostic])
    /// Diagnostics of the dump itself (not a record, key path not found, a syntax error).
    case diagnostics([Diagnostic])
    /// A `null` skipped where a record was expected, for this entity.
    case skippedNull(entity: Int)
    /// Elements of a file that lack its source's key path, skipped, for this entity (sent once
    /// the file is read: when the key path reached nothing there, it is an error instead).
    case skippedElements(entity: Int, count: Int)
    /// A file read to its end: its index in the plan, digest (final once the reading thread
    /// exited) and records.
    case fileDone(index: Int, digest: DigestPipeline.Digest, records: Int)
}

/// The reading half of a build's load, on a thread of its own: dump bytes -> JSON values -> `Record`s, handed
/// over in chunks through a `Handoff`, while the calling thread merges them into SQLite
/// (both cores; bench/README.md). The writing side sees exactly the sequence of events, diagnostics
/// included, that reading and merging on one thread would make, so a build's output and its
/// messages do not depend on thread timing.
final class DumpReader: @unchecked Sendable {
    private let files: [InputFile]
    private let mapper: Mapper
    private let encoder: RowEncoder
    private let entityNames: [String]
    private let progress: (@Sendable (Int, Int) -> Void)?
    let handoff = Handoff<ReadChunk>(capacity: 8)
    /// The reading thread, once started.
    private var reading: BackgroundWork<Void>?
    /// How much a chunk holds before it goes: events, and records (`ChunkLimits`).
    private let limits: ChunkLimits

    /// A chunk goes once it holds `events` events or `records` records: enough to make the
    /// lock rare, few enough to keep memory flat. Records count too because one event may
    /// carry many (a graph project embeds its tasks; bench/README.md).
    struct ChunkLimits: Sendable {
        var events = 256
        var records = 1024
        /// Fields and links: a chunk of wide records (a big mapping's, fifty columns and
        /// relationships each) holds fewer of them (bench/README.md, Big mappings).
        var values = 16384
    }

    /// `progress` gets the bytes and records read so far, over all files.
    init(
        files: [InputFile], mapper: Mapper, encoder: RowEncoder, limits: ChunkLimits = ChunkLimits(),
        progress: (@Sendable (Int, Int) -> Void)?
    ) {
        self.files = files
        self.mapper = mapper
        self.encoder = encoder
        self.limits = limits
        self.entityNames = mapper.mapping.entities.map(\.name)
        self.progress = progress
    }

    /// Starts reading on a new thread.
    func start() {
        reading = BackgroundWork(name: "seeder-read", stackSize: 8 << 20) { [self] in
            do {
                try readAll()
                handoff.finish(error: nil)
            } catch {
                handoff.finish(error: error)
            }
        }
    }

    /// Stops the reading thread (the writer failed) and waits for it to exit.
    func stop() {
        handoff.cancel()
        join()
    }

    /// Waits for the reading thread to exit; call after the last event was taken.
    func join() {
        _ = reading?.result
    }

    // The reading thread's own: no run-time exclusivity checks on every record.
    @exclusivity(unchecked) private var chunk = ReadChunk()
    /// Whether this thread encodes the rows of the next chunk's records, or leaves it to the
    /// writing thread: whichever has time to spare. A queue at least half full means the
    /// writer is behind, so the reader encodes; an emptier one, that the writer waits for
    /// records, so the writer encodes (a flat dump's reader was the slower by a fifth). The
    /// rows are the same either way.
    @exclusivity(unchecked) private var encodesHere = true

    private func send(_ event: ReadEvent) throws {
        chunk.events.append(event)
        if chunk.events.count >= limits.events || chunk.records.count >= limits.records || chunk.values >= limits.values {
            try flush()
        }
    }

    private func flush() throws {
        guard !chunk.events.isEmpty else { return }
        let records = chunk.records.count
        guard let queued = handoff.put(chunk)?.queued else { throw CancellationError() }
        encodesHere = queued * 2 >= handoff.capacity
        chunk = ReadChunk()
        chunk.events.reserveCapacity(limits.events)
        chunk.records.reserveCapacity(records)
        if encodesHere { chunk.encoded.reserveCapacity(records) }
    }

    private func readAll() throws {
        let local = DiagnosticSink()
        var bytesBefore = 0
        var recordsBefore = 0
        // Every file's digest is final when this returns, before the thread exits (`join`).
        let digests = DigestPipeline()
        defer { digests.close() }
        for (index, file) in files.enumerated() {
            // The digest is of the file as stored, compressed or not (docs/seed.md).
            var stored: HashingByteSource!
            let source = try file.openBytes {
                stored = HashingByteSource($0, pipeline: digests)
                return stored
            }
            let reader = JSONReader(source: source, format: file.format, keyPath: file.keyPath, keyed: file.keyedBy != nil)
            mapper.beginFile(path: file.glob, stars: file.stars)
            var records = 0
            let fileIndex = encoder.fileIndex(file.path)
            var tally = KeyPathTally()
            do {
                try reader.forEachItem { item in
                    switch item {
                    case let .record(value):
                        records += 1
                        if let progress, records % 8192 == 0 { progress(bytesBefore + stored.count, recordsBefore + records) }
                        let start = chunk.records.count
                        if let entity = entity(of: value, in: file, diagnostics: local) {
                            mapper.records(from: value, entity: entity, file: file.path, diagnostics: local, appendingTo: &chunk.records)
                        }
                        try sendRecords(from: start, file: fileIndex, diagnostics: local)
                    default:
                        let mapped = try other(item, of: file, fileIndex: fileIndex, tally: &tally, diagnostics: local)
                        records += mapped
                        if mapped > 0, let progress, records % 8192 == 0 { progress(bytesBefore + stored.count, recordsBefore + records) }
                    }
                }
            } catch let error as JSONSyntaxError {
                tally.syntaxError = true
                // In a compressed dump, bad data most often decodes to text that is not JSON: the
                // rest is decompressed, so that the corruption is named, before the symptom.
                if file.compression != .none, let corruption = Self.corruption(after: source) {
                    local.error(.compression, corruption.message, at: SourceLocation(file: file.path))
                }
                local.error(.syntax, error.message, at: SourceLocation(file: file.path, offset: error.offset))
                try send(.diagnostics(local.takeAll()))
            } catch let error as DecompressionError {
                // An error at the file, as malformed JSON is, and the next file is read
                // (docs/mapping.md, Compressed dumps).
                tally.syntaxError = true
                local.error(.compression, error.message, at: SourceLocation(file: file.path))
                try send(.diagnostics(local.takeAll()))
            }
            if let firstMiss = tally.firstMiss {
                if records > 0 || tally.reached {
                    try send(.skippedElements(entity: file.entity, count: tally.missed))
                } else if !tally.syntaxError {
                    let place = firstMiss.pointer.description.isEmpty ? "/" : firstMiss.pointer.description
                    let missed = tally.missed
                    let lack =
                        missed == 1
                        ? "no '\(firstMiss.key)' at \(place)" : "\(missed) places lack '\(firstMiss.key)', the first at \(place)"
                    let keyPath = file.keyPath.joined(separator: ".")
                    // At the first place that lacks the key, as other errors about a file's
                    // content are located (docs/mapping.md, Sources).
                    local.error(
                        .shape, "keyPath '\(keyPath)' reaches nothing in this file: \(lack)",
                        at: SourceLocation(file: file.path, offset: firstMiss.fileOffset))
                    try send(.diagnostics(local.takeAll()))
                }
            }
            // Hash what the reader left unread (after a syntax error), so the digest is the file's:
            // the stored bytes, never decompressed.
            let rest = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
            defer { rest.deallocate() }
            while try stored.read(into: rest) > 0 {}
            try send(.fileDone(index: index, digest: stored.finish(), records: records))
            bytesBefore += file.size
            recordsBefore += records
        }
        try flush()
    }

    /// The error the rest of a compressed dump's stream holds, if any, reading it to its end.
    private static func corruption(after source: ByteSource) -> DecompressionError? {
        let rest = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { rest.deallocate() }
        do {
            while try source.read(into: rest) > 0 {}
            return nil
        } catch {
            return error as? DecompressionError
        }
    }

    /// Encodes the records of the batch that starts at `start` of the chunk's records (when this
    /// thread encodes) and hands the batch over with its diagnostics. Inlined: it runs once per
    /// record.
    @inline(__always)
    private func sendRecords(from start: Int, file: Int, diagnostics: DiagnosticSink) throws {
        let batch = start..<chunk.records.count
        chunk.values += chunk.records[batch].reduce(0) { $0 + $1.fields.count + $1.links.count }
        if encodesHere {
            chunk.records.withUnsafeBufferPointer { records in
                encoder.encode(batch: UnsafeBufferPointer(rebasing: records[batch]), file: file, appendingTo: &chunk.encoded)
            }
        }
        try send(.records(batch, file: file, diagnostics: diagnostics.takeAll()))
    }

    /// What the key path reached in one file besides objects, and where it reached nothing.
    struct KeyPathTally {
        /// `true` once it reached something that is not an object: a `null`, a value.
        var reached = false
        /// The places that lack the key path, and the first of them.
        var missed = 0
        var firstMiss: (pointer: JSONPointer, key: String, fileOffset: Int)?
        /// `true` when the file ended at a syntax error or at data that does not decompress (it
        /// says nothing of the key path).
        var syntaxError = false
    }

    /// Handles an item that is not an object at the key path (`Item.record`): a keyed record, a
    /// bare id, a `null`, a place that lacks the key path, a line that is not JSON. Returns the
    /// records it mapped (0 or 1).
    private func other(
        _ item: JSONReader.Item, of file: InputFile, fileIndex: Int, tally: inout KeyPathTally, diagnostics local: DiagnosticSink
    ) throws -> Int {
        switch item {
        case .record: preconditionFailure("a record is mapped by the caller")
        case let .keyedRecord(key, value):
            guard value.kind == .object, let attribute = file.keyedBy else {
                tally.reached = true
                try notARecord(value, of: file)
                return 0
            }
            let start = chunk.records.count
            if let entity = entity(of: value, in: file, diagnostics: local) {
                let keyed = KeyedMember(attribute: mapper.keyedAttribute(attribute, of: file.entity, on: entity), key: key)
                mapper.records(from: value, entity: entity, file: file.path, keyed: keyed, diagnostics: local, appendingTo: &chunk.records)
            }
            try sendRecords(from: start, file: fileIndex, diagnostics: local)
            return 1
        case .skippedNull:
            tally.reached = true
            try send(.skippedNull(entity: file.entity))
        case let .notARecord(value):
            tally.reached = true
            if let keyedBy = file.keyedBy {
                let attribute = mapper.mapping.entities[file.entity].attributes[keyedBy].name
                local.error(
                    .shape,
                    "expected an object whose keys are \(entityNames[file.entity]) records (keyedBy: \(attribute)), "
                        + "found \(describeKind(value.kind))",
                    at: SourceLocation(file: file.path, offset: value.fileOffset), jsonPath: value.pointer.description)
                try send(.diagnostics(local.takeAll()))
            } else if value.kind == .array {
                try notARecord(value, of: file)
            } else {
                // A bare id: the record of its identity.
                let start = chunk.records.count
                if let entity = entity(of: value, in: file, diagnostics: local) {
                    mapper.identityRecord(from: value, entity: entity, file: file.path, diagnostics: local, appendingTo: &chunk.records)
                }
                try sendRecords(from: start, file: fileIndex, diagnostics: local)
                return 1
            }
        case let .lineSyntaxError(error):
            local.error(.syntax, error.message, at: SourceLocation(file: file.path, offset: error.offset))
            try send(.diagnostics(local.takeAll()))
        case let .keyPathNotFound(fileOffset, pointer, key):
            tally.missed += 1
            if tally.firstMiss == nil { tally.firstMiss = (pointer, key, fileOffset) }
        }
        return 0
    }

    /// The entity of a record of `file`: its source's, or the one its selector picks (`nil` after
    /// an error at the record).
    @inline(__always)
    private func entity(of value: JSONValue, in file: InputFile, diagnostics: DiagnosticSink) -> Int? {
        guard let selector = file.selector else { return file.entity }
        return mapper.entity(of: value, chosenBy: selector, file: file.path, diagnostics: diagnostics)
    }

    /// Reports a value that is not a record where one was expected.
    private func notARecord(_ value: JSONValue, of file: InputFile) throws {
        let local = DiagnosticSink()
        local.error(
            .shape, "expected a record (an object) for \(entityNames[file.entity]), found \(describeKind(value.kind))",
            at: SourceLocation(file: file.path, offset: value.fileOffset), jsonPath: value.pointer.description)
        try send(.diagnostics(local.takeAll()))
    }
}
