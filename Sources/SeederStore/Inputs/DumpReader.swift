import Foundation
import SeederCore

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
    /// A file read to its end: its index in the plan, digest (final once the reading thread
    /// exited) and records.
    case fileDone(index: Int, digest: DigestPipeline.Digest, records: Int)
}

/// Stage 3-4 of a build on a thread of its own: dump bytes -> JSON values -> `Record`s, handed
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
    private let exited = DispatchSemaphore(value: 0)
    /// How much a chunk holds before it goes: events, and records (`ChunkLimits`).
    private let limits: ChunkLimits

    /// A chunk goes once it holds `events` events or `records` records: enough to make the
    /// lock rare, few enough to keep memory flat. Records count too because one event may
    /// carry many (a graph project embeds its tasks; bench/README.md).
    struct ChunkLimits: Sendable {
        var events = 256
        var records = 1024
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
        let thread = Thread { [self] in
            do {
                try readAll()
                handoff.finish(error: nil)
            } catch {
                handoff.finish(error: error)
            }
            exited.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Stops the reading thread (the writer failed) and waits for it to exit.
    func stop() {
        handoff.cancel()
        exited.wait()
    }

    /// Waits for the reading thread to exit; call after the last event was taken.
    func join() {
        exited.wait()
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
        if chunk.events.count >= limits.events || chunk.records.count >= limits.records { try flush() }
    }

    private func flush() throws {
        guard !chunk.events.isEmpty else { return }
        let records = chunk.records.count
        guard let queued = handoff.put(chunk) else { throw CancellationError() }
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
            let source = HashingByteSource(try file.openBytes(), pipeline: digests)
            let reader = JSONReader(source: source, format: file.format, keyPath: file.keyPath)
            var records = 0
            let keyPath = file.keyPath.joined(separator: ".")
            let fileIndex = encoder.fileIndex(file.path)
            do {
                try reader.forEachItem { item in
                    switch item {
                    case let .record(value):
                        records += 1
                        if let progress, records % 8192 == 0 { progress(bytesBefore + source.count, recordsBefore + records) }
                        let start = chunk.records.count
                        mapper.records(from: value, entity: file.entity, file: file.path, diagnostics: local, appendingTo: &chunk.records)
                        let batch = start..<chunk.records.count
                        if encodesHere {
                            chunk.records.withUnsafeBufferPointer { records in
                                encoder.encode(
                                    batch: UnsafeBufferPointer(rebasing: records[batch]), file: fileIndex, appendingTo: &chunk.encoded)
                            }
                        }
                        try send(.records(batch, file: fileIndex, diagnostics: local.takeAll()))
                    case .skippedNull:
                        try send(.skippedNull(entity: file.entity))
                    case let .notARecord(value):
                        local.error(
                            "expected a record (an object) for \(entityNames[file.entity]), found \(describeKind(value.kind))",
                            at: SourceLocation(file: file.path, offset: value.fileOffset), jsonPath: value.pointer.description)
                        try send(.diagnostics(local.takeAll()))
                    case let .lineSyntaxError(error):
                        local.error(error.message, at: SourceLocation(file: file.path, offset: error.offset))
                        try send(.diagnostics(local.takeAll()))
                    case let .keyPathNotFound(offset, pointer, key):
                        local.error(
                            "no '\(key)' here for keyPath '\(keyPath)'", at: SourceLocation(file: file.path, offset: offset),
                            jsonPath: pointer.description)
                        try send(.diagnostics(local.takeAll()))
                    }
                }
            } catch let error as JSONSyntaxError {
                local.error(error.message, at: SourceLocation(file: file.path, offset: error.offset))
                try send(.diagnostics(local.takeAll()))
            }
            // Hash what the reader left unread (after a syntax error), so the digest is the file's.
            let rest = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
            defer { rest.deallocate() }
            while try source.read(into: rest) > 0 {}
            try send(.fileDone(index: index, digest: source.finish(), records: records))
            bytesBefore += file.size
            recordsBefore += records
        }
        try flush()
    }
}

/// A bounded queue of chunks from one producing thread to one consuming thread.
final class Handoff<Chunk: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [Chunk?] = []
    private var head = 0
    /// The chunks the queue holds at most.
    let capacity: Int
    private var finished = false
    private var cancelled = false
    private var failure: Error?

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Chunks the consumer is done with, to be freed by the producer.
    private var spent: [Chunk] = []

    /// Adds a chunk, waiting while the queue is full; returns the chunks then queued, `nil` once
    /// the consumer cancelled.
    func put(_ chunk: Chunk) -> Int? {
        var freed: [Chunk] = []
        defer { freed.removeAll() }  // outside the lock, on this thread
        condition.lock()
        defer { condition.unlock() }
        while chunks.count - head >= capacity, !cancelled { condition.wait() }
        guard !cancelled else { return nil }
        chunks.append(chunk)
        swap(&freed, &spent)
        condition.broadcast()
        return chunks.count - head
    }

    /// Hands a chunk the consumer is done with back to the producer, whose thread allocated its
    /// elements: freed there, memory goes back to that thread's arena without contention.
    func recycle(_ chunk: consuming Chunk) {
        condition.lock()
        spent.append(chunk)
        condition.unlock()
    }

    /// The next chunk, waiting for one; `nil` at the end. Rethrows the producer's error.
    func take() throws -> Chunk? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count == head, !finished { condition.wait() }
        if chunks.count == head {
            if let failure { throw failure }
            return nil
        }
        let chunk = chunks[head]
        chunks[head] = nil
        head += 1
        if head >= 64 {
            chunks.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return chunk
    }

    /// The producer is done (with an error if it failed).
    func finish(error: Error?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The consumer gives up: `put` returns `false` from now on.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
