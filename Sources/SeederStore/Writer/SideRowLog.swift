import Foundation
import GRDB
import SeederCore

/// An entity's side rows (`RowLayout`) as the load makes them, kept out of their table until
/// something reads it: `flush` puts every row logged in, and whatever reads a side table
/// flushes its log first (a merge's `storedRecord`, `InsertIfNew`'s question, the resolver's
/// queries through `RowStore.sideTable(of:)`). A side row is read to merge into its row, for a
/// message, or by a check that some row may fail (`required`, a default, `unique`, a claim), so
/// most never are, and a build that never reads an entity's side table writes none of its side
/// rows at all: a graph's million tasks, whose side rows were a third of the writing thread's
/// inserts (issue 5). What a query of the table returns is the same either way.
///
/// A logged row is a few bytes in memory (`add`); past `spillBytes` they go to the build's
/// spill file (`SpillFile`), so the log holds at most that much at N = 10,000,000 too.
final class SideRowLog {
    /// How many bytes of rows a log holds in memory before it writes them to the spill file,
    /// unless the build says otherwise (`BuildOptions.sideRowBytesInMemory`, for tests).
    static var defaultSpillBytes: Int { 1 << 20 }

    private let maskCount: Int
    private let spillBytes: Int
    private let spill: SpillFile
    // The writing thread's only: no run-time exclusivity checks.
    /// Rows logged since the last spill: each a varint of its length, then its row, masks,
    /// origins blob, file and offset (`add`).
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    /// Where earlier rows went in the spill file, in order: (offset, length), whole rows each.
    @exclusivity(unchecked) private var spilled: [(offset: Int, count: Int)] = []
    /// The rows being put in their table: `buffer`'s, or a part of the spill file read back.
    @exclusivity(unchecked) private var chunk: [UInt8] = []
    /// The row `add` is writing.
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    private var inserts: RowStore.BatchedInsert<Int>!
    /// Per presence column, the bits every row logged has (`someRowMayLack`).
    @exclusivity(unchecked) private var everyMask: [Int64]
    /// Whether a row went in its table: after that, merges and the resolver change rows there.
    @exclusivity(unchecked) private var wentIn = false

    init(layout: RowLayout, spill: SpillFile, spillBytes: Int, db: Database) throws {
        maskCount = layout.maskColumns.count
        self.spillBytes = spillBytes
        everyMask = Array(repeating: ~0, count: maskCount)
        self.spill = spill
        inserts = try RowStore.BatchedInsert(table: layout.sideTable, columns: ["_row"] + layout.sideColumns, db: db) { [unowned self] start, binder in
            bind(rowAt: start, &binder)
        }
    }

    /// Logs the side row of `row`: its masks and origins as `encoded` has them, with `parentBit`
    /// set, and its record's `offset`.
    func add(row: Int64, encoded: UnsafePointer<RowEncoder.Encoded>, parentBit: (column: Int, bit: Int64)?, offset: Int) throws {
        scratch.removeAll(keepingCapacity: true)
        Self.appendSigned(row, to: &scratch)
        var column = 0
        RowEncoder.forEachMask(encoded.pointee) { mask in
            let mask = parentBit.map { $0.column == column ? mask | $0.bit : mask } ?? mask
            Self.appendSigned(mask, to: &scratch)
            everyMask[column] &= mask
            column += 1
        }
        encoded.pointee.fields.withUnsafeBytes { fields in
            RowLayout.appendVarint(UInt64(fields.count), to: &scratch)
            scratch.append(contentsOf: fields)
        }
        RowLayout.appendVarint(UInt64(encoded.pointee.file), to: &scratch)
        RowLayout.appendVarint(UInt64(offset), to: &scratch)
        RowLayout.appendVarint(UInt64(scratch.count), to: &buffer)
        buffer.append(contentsOf: scratch)
        try spillIfFull()
    }

    /// Whether a side row may lack presence `bit` of mask `column`, as a query of the table would
    /// find once the log is in: `false` while every row is still in the log and has it, which
    /// a check of `required` or a default asks before it reads the table (pages' required
    /// names, a million side rows, 0.3 s).
    func someRowMayLack(column: Int, bit: Int64) -> Bool {
        wentIn || everyMask[column] & bit == 0
    }

    /// Puts every logged row in the side table.
    func flush() throws {
        guard !buffer.isEmpty || !spilled.isEmpty else { return }
        for part in spilled {
            try spill.read(at: part.offset, count: part.count, into: &chunk)
            try insertChunk()
        }
        spilled.removeAll()
        swap(&chunk, &buffer)
        try insertChunk()
        buffer.removeAll(keepingCapacity: true)
    }

    private func insertChunk() throws {
        if !chunk.isEmpty { wentIn = true }
        var position = 0
        while position < chunk.count {
            let start = position
            let length = Int(RowLayout.readVarint(chunk, at: &position))
            try inserts.add(start)
            position += length
        }
        // The rows waiting name places in this chunk.
        try inserts.flush()
    }

    private func spillIfFull() throws {
        guard buffer.count >= spillBytes else { return }
        spilled.append((try spill.append(buffer), buffer.count))
        buffer.removeAll(keepingCapacity: true)
    }

    private func bind(rowAt start: Int, _ binder: inout RawStatement.Binder) {
        chunk.withUnsafeBufferPointer { bytes in
            var position = start
            _ = RowLayout.readVarint(bytes, at: &position)
            binder.bind(Self.readSigned(bytes, at: &position))
            for _ in 0..<maskCount { binder.bind(Self.readSigned(bytes, at: &position)) }
            let count = Int(RowLayout.readVarint(bytes, at: &position))
            binder.bind(blob: UnsafeBufferPointer(rebasing: bytes[position..<(position + count)]))
            position += count
            binder.bind(Int64(RowLayout.readVarint(bytes, at: &position)))
            binder.bind(Int64(RowLayout.readVarint(bytes, at: &position)))
        }
    }

    private static func appendSigned(_ value: Int64, to bytes: inout some OriginByteSink) {
        RowLayout.appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
    }

    private static func readSigned(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) -> Int64 {
        let zigzag = RowLayout.readVarint(bytes, at: &position)
        return Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
    }
}

/// The file side row logs write to past their `spillBytes`: one per build, appended to
/// and read back in parts (a part read back is not reused; the file goes with the build), created at `path` when first written and unlinked at once, so that
/// it goes with the process whatever happens (a temporary path of `SeedBuilder`, swept like
/// the others should a build be killed in between).
final class SpillFile {
    let path: String
    // The writing thread's only: no run-time exclusivity checks.
    @exclusivity(unchecked) private var descriptor: Int32 = -1
    @exclusivity(unchecked) private var size = 0

    init(path: String) {
        self.path = path
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Writes `bytes` at the end; returns their offset.
    func append(_ bytes: [UInt8]) throws -> Int {
        if descriptor < 0 {
            descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw failure() }
            unlink(path)
        }
        let offset = size
        try bytes.withUnsafeBytes { raw in
            var written = 0
            while written < raw.count {
                let result = pwrite(descriptor, raw.baseAddress! + written, raw.count - written, off_t(offset + written))
                guard result > 0 else { throw failure() }
                written += result
            }
        }
        size += bytes.count
        return offset
    }

    /// Reads `count` bytes at `offset` into `bytes`, which it resizes.
    func read(at offset: Int, count: Int, into bytes: inout [UInt8]) throws {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: repeatElement(0, count: count))
        try bytes.withUnsafeMutableBytes { raw in
            var done = 0
            while done < count {
                let result = pread(descriptor, raw.baseAddress! + done, count - done, off_t(offset + done))
                guard result > 0 else { throw failure() }
                done += result
            }
        }
    }

    private func failure() -> InputError {
        InputError(path: path, reason: String(cString: strerror(errno)))
    }
}
