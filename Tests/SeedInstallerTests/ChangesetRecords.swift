import CSQLite
import Foundation
import GRDB

/// A changeset file read into records and written back in SQLite's changeset format (the session
/// extension's "changeset format" notes), to make changesets `seeder diff` would not: one without
/// the no-op updates that name the seed it starts from, one with them, one cut short.
struct ChangesetRecords {
    enum Value: Equatable {
        case integer(Int64), real(Double), text(String), blob([UInt8]), null
    }

    struct Record {
        var table: String
        var primaryKey: [Bool]
        var operation: Int32
        /// `nil` where the change does not carry the column.
        var old: [Value?]
        var new: [Value?]

        /// An identity-naming update: `seed_metadata`'s `key` stays `value`.
        static func pin(_ key: String, _ value: String) -> Record {
            Record(
                table: "seed_metadata", primaryKey: [true, false], operation: SQLITE_UPDATE, old: [.text(key), .text(value)],
                new: [nil, .text(value)])
        }

        var isPin: Bool { table == "seed_metadata" && operation == SQLITE_UPDATE && old[1] != nil && old[1] == new[1] }
        var metadataKey: String? {
            guard table == "seed_metadata", case let .text(key)? = operation == SQLITE_INSERT ? new[0] : old[0] else { return nil }
            return key
        }
    }

    var records: [Record] = []

    init(records: [Record]) { self.records = records }

    init(reading path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { buffer in
            var iterator: OpaquePointer?
            guard sqlite3changeset_start(&iterator, Int32(buffer.count), UnsafeMutableRawPointer(mutating: buffer.baseAddress)) == SQLITE_OK
            else { throw DatabaseError(message: "not a changeset") }
            defer { sqlite3changeset_finalize(iterator) }
            while sqlite3changeset_next(iterator) == SQLITE_ROW {
                var name: UnsafePointer<CChar>?
                var columns: Int32 = 0, operation: Int32 = 0, indirect: Int32 = 0
                sqlite3changeset_op(iterator, &name, &columns, &operation, &indirect)
                var flags: UnsafeMutablePointer<UInt8>?
                var count: Int32 = 0
                sqlite3changeset_pk(iterator, &flags, &count)
                let values = { (read: (Int32, UnsafeMutablePointer<OpaquePointer?>) -> Int32) -> [Value?] in
                    (0..<columns).map { column in
                        var value: OpaquePointer?
                        guard read(column, &value) == SQLITE_OK, let value else { return nil }
                        return Self.value(value)
                    }
                }
                records.append(
                    Record(
                        table: String(cString: name!), primaryKey: (0..<Int(count)).map { flags![$0] != 0 }, operation: operation,
                        old: operation == SQLITE_INSERT ? [] : values { sqlite3changeset_old(iterator, $0, $1) },
                        new: operation == SQLITE_DELETE ? [] : values { sqlite3changeset_new(iterator, $0, $1) }))
            }
        }
    }

    /// The records with the `seed_metadata` no-op updates left out: what `sqldiff --changeset`,
    /// or a seeder that wrote only the keys that changed, makes.
    var unpinned: ChangesetRecords { ChangesetRecords(records: records.filter { !$0.isPin }) }

    /// The records with a no-op update for each identity key the seed at `old` has and the
    /// changeset does not name: what `seeder diff --changeset` makes.
    func pinned(from old: String) throws -> ChangesetRecords {
        let queue = try DatabaseQueue(path: old)
        defer { try? queue.close() }
        let metadata = try queue.read {
            try [String: String](uniqueKeysWithValues: Row.fetchAll($0, sql: "SELECT key, value FROM seed_metadata").map { ($0[0], $0[1]) })
        }
        let named = Set(records.compactMap(\.metadataKey))
        let pins = ["inputs_sha256", "mapping_sha256", "seeder_version"].filter { !named.contains($0) }.map {
            Record.pin($0, metadata[$0]!)
        }
        return ChangesetRecords(records: pins + records)
    }

    func write(to path: String) throws {
        var bytes: [UInt8] = []
        var table: String?
        for record in records {
            if record.table != table {
                bytes += [UInt8(ascii: "T")] + Self.varint(record.primaryKey.count) + record.primaryKey.map { $0 ? 1 : 0 }
                bytes += Array(record.table.utf8) + [0]
                table = record.table
            }
            bytes += [UInt8(record.operation), 0]
            if record.operation != SQLITE_INSERT { bytes += record.old.flatMap(Self.encode) }
            if record.operation != SQLITE_DELETE { bytes += record.new.flatMap(Self.encode) }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private static func value(_ value: OpaquePointer) -> Value {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_value_text(value)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            return .blob(count == 0 ? [] : Array(UnsafeRawBufferPointer(start: sqlite3_value_blob(value), count: count)))
        default: return .null
        }
    }

    private static func encode(_ value: Value?) -> [UInt8] {
        switch value {
        case nil: return [0]
        case let .integer(number)?: return [1] + bigEndian(UInt64(bitPattern: number))
        case let .real(number)?: return [2] + bigEndian(number.bitPattern)
        case let .text(text)?: return [3] + varint(text.utf8.count) + Array(text.utf8)
        case let .blob(bytes)?: return [4] + varint(bytes.count) + bytes
        case .null?: return [5]
        }
    }

    private static func bigEndian(_ number: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: number >> ($0 * 8)) } }

    /// SQLite's varint, for the lengths here (under 2^56).
    private static func varint(_ number: Int) -> [UInt8] {
        var groups = [UInt8(number & 0x7f)]
        var rest = number >> 7
        while rest > 0 {
            groups.append(UInt8(rest & 0x7f) | 0x80)
            rest >>= 7
        }
        return groups.reversed()
    }
}
