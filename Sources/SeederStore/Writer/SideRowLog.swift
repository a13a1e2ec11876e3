import Foundation
import GRDB
import SeederCore
import SeederFiles

/// An entity's side rows (`RowLayout`) as the load makes them, kept out of their table until
/// something reads it: `flush` puts every row logged in. The log enforces that order itself: the
/// store's statements on a side table are made by the log (`statement(db:_:)`) and flush it before
/// they run (a merge's `select` and `updateSide`, `InsertIfNew`'s question), and after the load the
/// resolver names a side table only through `RowStore.sideTable(of:)`, which flushes it. A side
/// row is read to merge into its row, for a message, or by a check that some row may fail
/// (`required`, a default, `unique`, a claim), so most never are, and a build that never reads an
/// entity's side table writes none of its side rows at all (a graph's tasks; bench/README.md).
/// What a query of the table returns is the same either way.
///
/// A logged row is a few bytes in memory (`add`); past `spillBytes` they go to the build's
/// spill file (`SpillFile`), so the log holds at most that much however large the build.
final class SideRowLog {
    /// How many bytes of rows a log holds in memory before it writes them to the spill file,
    /// unless the build says otherwise (`BuildOptions.sideRowBytesInMemory`, for tests).
    static var defaultSpillBytes: Int { 1 << 20 }

    /// The side table, named to the statements the log makes (`statement(db:_:)`).
    private let table: String
    private let maskCount: Int
    private let spillBytes: Int
    private let spill: SpillFile
    // The writing thread's only: no run-time exclusivity checks.
    /// Rows logged since the last spill, `count` bytes of `capacity`: each its row, masks,
    /// origins blob (a length, then the bytes), file and offset, as varints (`add`). Written
    /// through a pointer: appending to an array checks its uniqueness and capacity per byte.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var count = 0
    /// Where earlier rows went in the spill file, in order: (offset, length), whole rows each.
    @exclusivity(unchecked) private var spilled: [(offset: Int, count: Int)] = []
    /// A part of the spill file read back.
    @exclusivity(unchecked) private var chunk: [UInt8] = []
    /// The rows being put in their table: `storage`'s, or `chunk`'s.
    @exclusivity(unchecked) private var current = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var inserts: RowStore.BatchedInsert<Int>!
    /// Per presence column, the bits every row logged has (`someRowMayLack`).
    @exclusivity(unchecked) private var everyMask: [Int64]
    /// Whether a row went in its table: after that, merges and the resolver change rows there.
    @exclusivity(unchecked) private var wentIn = false

    init(layout: RowLayout, spill: SpillFile, spillBytes: Int, pool: StatementPool) {
        table = layout.sideTable
        maskCount = layout.maskColumns.count
        self.spillBytes = spillBytes
        everyMask = Array(repeating: ~0, count: maskCount)
        self.spill = spill
        // Room is made by the first row: most entities of a big mapping log none.
        capacity = 0
        storage = .allocate(capacity: 0)
        inserts = RowStore.BatchedInsert(table: layout.sideTable, columns: ["_row"] + layout.sideColumns, pool: pool) {
            [unowned self] start, binder in
            bind(rowAt: start, &binder)
        }
    }

    deinit {
        storage.deallocate()
    }

    /// Logs the side row of `row`: its masks and origins as `encoded` has them, with `parentBit`
    /// set, and its record's `offset`.
    func add(row: Int64, encoded: UnsafePointer<RowEncoder.Encoded>, parentBit: (column: Int, bit: Int64)?, offset: Int) throws {
        try encoded.pointee.fields.withUnsafeBytes { fields in
            // A varint takes at most 10 bytes.
            reserve(10 * (5 + maskCount) + fields.count)
            var out = Writer(base: storage, count: count)
            RowLayout.appendVarint(RowLayout.zigzag(row), to: &out)
            for column in 0..<maskCount {
                var mask = encoded.pointee.mask(column)
                if let parentBit, parentBit.column == column { mask |= parentBit.bit }
                RowLayout.appendVarint(RowLayout.zigzag(mask), to: &out)
                everyMask[column] &= mask
            }
            RowLayout.appendVarint(UInt64(fields.count), to: &out)
            if !fields.isEmpty {
                (storage + out.count).update(from: fields.baseAddress!, count: fields.count)
                out.count += fields.count
            }
            RowLayout.appendVarint(UInt64(encoded.pointee.file), to: &out)
            RowLayout.appendVarint(UInt64(offset), to: &out)
            count = out.count
            if count >= spillBytes {
                spilled.append((try spill.append(UnsafeRawBufferPointer(start: storage, count: count)), count))
                count = 0
            }
        }
    }

    /// A statement on the side table, made from its SQL given the table's name; every run of it
    /// flushes the log first.
    func statement(pool: StatementPool, _ sql: @escaping (_ table: String) -> String) -> Statement {
        let table = table
        return Statement(log: self, raw: pool.statement { sql(table) })
    }

    /// A statement that reads or changes a side table: it runs only once every row of the log
    /// is in the table.
    struct Statement {
        fileprivate let log: SideRowLog
        fileprivate let raw: PreparedOnUse

        @discardableResult
        func execute(_ bind: (inout RawStatement.Binder) -> Void) throws -> Int {
            try log.flush()
            return try raw.execute(bind)
        }

        func forEachRow(_ bind: (inout RawStatement.Binder) -> Void, _ body: (RawStatement.RawRow) throws -> Void) throws {
            try log.flush()
            try raw.forEachRow(bind, body)
        }
    }

    /// Bytes written at `base + count` on, into room `reserve` made.
    private struct Writer: OriginByteSink {
        let base: UnsafeMutablePointer<UInt8>
        var count: Int

        mutating func append(_ byte: UInt8) {
            base[count] = byte
            count += 1
        }
    }

    /// Whether a side row may lack presence `bit` of mask `column`, as a query of the table would
    /// find once the log is in: `false` while every row is still in the log and has it, which
    /// a check of `required` or a default asks before it reads the table: a `required` attribute
    /// that every row has then puts no side row in its table.
    func someRowMayLack(column: Int, bit: Int64) -> Bool {
        wentIn || everyMask[column] & bit == 0
    }

    /// Notes that rows went in the side table without the log (`RowStore.noteSideRowsWentIn`): a
    /// query may then find a row lacking any bit.
    func noteRowsWentIn() {
        wentIn = true
    }

    /// Puts every logged row in the side table.
    func flush() throws {
        guard count > 0 || !spilled.isEmpty else { return }
        for part in spilled {
            try spill.read(at: part.offset, count: part.count, into: &chunk)
            try chunk.withUnsafeBufferPointer { try insert($0) }
        }
        spilled.removeAll()
        try insert(UnsafeBufferPointer(start: storage, count: count))
        count = 0
    }

    /// Inserts the rows in `bytes`.
    private func insert(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard !bytes.isEmpty else { return }
        wentIn = true
        current = bytes
        defer { current = UnsafeBufferPointer(start: nil, count: 0) }
        var position = 0
        while position < bytes.count {
            try inserts.add(position)
            skipRow(at: &position)
        }
        // The rows waiting name places in these bytes.
        try inserts.flush()
    }

    private func skipRow(at position: inout Int) {
        for _ in 0..<(1 + maskCount) { _ = RowLayout.readVarint(current, at: &position) }
        position += Int(RowLayout.readVarint(current, at: &position))
        _ = RowLayout.readVarint(current, at: &position)
        _ = RowLayout.readVarint(current, at: &position)
    }

    private func bind(rowAt start: Int, _ binder: inout RawStatement.Binder) {
        var position = start
        binder.bind(RowLayout.unzigzag(RowLayout.readVarint(current, at: &position)))
        for _ in 0..<maskCount { binder.bind(RowLayout.unzigzag(RowLayout.readVarint(current, at: &position))) }
        let length = Int(RowLayout.readVarint(current, at: &position))
        binder.bind(blob: UnsafeBufferPointer(rebasing: current[position..<(position + length)]))
        position += length
        binder.bind(Int64(RowLayout.readVarint(current, at: &position)))
        binder.bind(Int64(RowLayout.readVarint(current, at: &position)))
    }

    /// Room for `bytes` more: doubling, from a start small enough for a log a thousand entities
    /// of a big mapping each keep (bench/README.md, Big mappings).
    private func reserve(_ bytes: Int) {
        guard count + bytes > capacity else { return }
        let grown = max(capacity * 2, count + bytes, 256)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        new.update(from: storage, count: count)
        storage.deallocate()
        (storage, capacity) = (new, grown)
    }
}

/// The file side row logs write to past their `spillBytes`: one per build, appended to and read
/// back in parts (a part read back is not reused; the file goes with the build). Created at
/// `path` when first written and unlinked at once, so that it goes with the process whatever
/// happens (a temporary path of `SeedBuilder`, swept like the others should a build be killed
/// in between).
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
    func append(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        if descriptor < 0 {
            descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw OutputError.cannot("create", path, error: errno) }
            unlink(path)
        }
        let offset = size
        var written = 0
        while written < bytes.count {
            let result = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset + written))
            guard result > 0 else { throw OutputError.cannot("write", path, error: result < 0 ? errno : ENOSPC) }
            written += result
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
                guard result > 0 else { throw OutputError.cannot("read", path, error: result < 0 ? errno : EIO) }
                done += result
            }
        }
    }
}
