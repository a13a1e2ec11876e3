import CSQLite
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks that a file is a whole, well-formed changeset before SQLite reads it
/// (docs/guides/updating-an-installed-seed.md, What it does on each launch).
///
/// SQLite 3.40's changeset reader never returns on a table header cut short (`T` and a column
/// count with fewer bytes after it than the count says, or a table name without its closing zero
/// byte): a text file that begins with `T` or `P`, or a changeset cut in its first 18 bytes,
/// made `install()` spin forever. So the installer walks the format itself first, as the
/// session extension defines it (sqlite3session.h, "changeset format"), and hands SQLite only a
/// file it can read to the end:
///
/// - a table header: `T`, the number of columns (a varint), one byte per column (0, or for a
///   primary-key column its place in the key: 1, 2, ...), the table's name and a zero byte;
/// - then its changes: the operation (`SQLITE_INSERT`, `SQLITE_UPDATE`, `SQLITE_DELETE`), an
///   indirect flag (0 or 1), and the values: the new row of an insert, the old row of a delete,
///   the old then the new row of an update;
/// - a value: its type byte, 0 (undefined) or 5 (null) alone, 1 (integer) and 2 (real) with 8
///   bytes, 3 (text) and 4 (blob) with a varint length and that many bytes.
///
/// A patchset (`P`) is refused: it holds no old values, so it cannot tell which seed it starts
/// from. The file is read once, in blocks: memory does not grow with it.
package enum ChangesetFormat {
    /// Why a file is not a changeset, and where that shows.
    package struct Malformed: Error, CustomStringConvertible {
        package var reason: String
        package var offset: Int

        package var description: String { "\(reason) at byte \(offset)" }
    }

    /// Reads the open file `file` from its start to its end and throws at the first byte that
    /// does not fit the format. An empty file is an empty changeset, which is well formed.
    package static func check(_ file: UnsafeMutablePointer<FILE>) throws(Malformed) {
        var reader = Reader(file: file)
        var columns: Int?
        while let byte = reader.next() {
            switch byte {
            case UInt8(ascii: "T"):
                columns = try header(&reader)
            case UInt8(ascii: "P"):
                throw Malformed(reason: "a patchset, which holds no old values, not a changeset", offset: reader.offset - 1)
            case UInt8(SQLITE_INSERT), UInt8(SQLITE_UPDATE), UInt8(SQLITE_DELETE):
                guard let columns else { throw Malformed(reason: "a change before any table header", offset: reader.offset - 1) }
                let start = reader.offset - 1
                guard let indirect = reader.next(), indirect <= 1 else { throw Malformed(reason: "a change cut short", offset: start) }
                for _ in 0..<(byte == UInt8(SQLITE_UPDATE) ? 2 * columns : columns) {
                    try value(&reader, change: start)
                }
            default:
                throw Malformed(reason: "neither a table header nor a change", offset: reader.offset - 1)
            }
        }
    }

    /// A table header after its `T`; returns its number of columns.
    private static func header(_ reader: inout Reader) throws(Malformed) -> Int {
        let start = reader.offset - 1
        guard let count = reader.varint(), count > 0, count <= 32767 else {
            throw Malformed(reason: "a table header without a column count", offset: start)
        }
        var keyed = false
        for _ in 0..<count {
            guard let flag = reader.next() else { throw Malformed(reason: "a table header cut short", offset: start) }
            keyed = keyed || flag != 0
        }
        guard keyed else { throw Malformed(reason: "a table without a primary key column", offset: start) }
        var name = 0
        while true {
            guard let byte = reader.next() else { throw Malformed(reason: "a table name without its end", offset: start) }
            if byte == 0 { break }
            name += 1
        }
        guard name > 0 else { throw Malformed(reason: "a table without a name", offset: start) }
        return Int(count)
    }

    private static func value(_ reader: inout Reader, change: Int) throws(Malformed) {
        guard let type = reader.next() else { throw Malformed(reason: "a change cut short", offset: change) }
        switch Int32(type) {
        case 0, SQLITE_NULL: return
        case SQLITE_INTEGER, SQLITE_FLOAT:
            guard reader.skip(8) else { throw Malformed(reason: "a change cut short", offset: change) }
        case SQLITE_TEXT, SQLITE_BLOB:
            guard let length = reader.varint(), length <= UInt64(Int.max), reader.skip(Int(length)) else {
                throw Malformed(reason: "a change cut short", offset: change)
            }
        default:
            throw Malformed(reason: "a value of unknown type \(type)", offset: reader.offset - 1)
        }
    }

    /// The file's bytes in order, read in blocks of 64 KiB.
    private struct Reader {
        let file: UnsafeMutablePointer<FILE>
        private var block = [UInt8](repeating: 0, count: 1 << 16)
        private var position = 0
        private var count = 0
        /// Bytes consumed since the start of the file.
        private(set) var offset = 0

        init(file: UnsafeMutablePointer<FILE>) {
            self.file = file
            rewind(file)
        }

        mutating func next() -> UInt8? {
            guard position < count || fill() else { return nil }
            defer {
                position += 1
                offset += 1
            }
            return block[position]
        }

        /// Skips `bytes` bytes; `false` when the file ends first.
        mutating func skip(_ bytes: Int) -> Bool {
            var left = bytes
            while left > 0 {
                guard position < count || fill() else { return false }
                let step = min(left, count - position)
                position += step
                offset += step
                left -= step
            }
            return true
        }

        /// Reads the next block; `false` at the end of the file.
        private mutating func fill() -> Bool {
            count = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            position = 0
            return count > 0
        }

        /// SQLite's varint: up to 8 bytes of 7 bits with the high bit set on all but the last,
        /// then a ninth byte of 8 bits.
        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            for index in 0..<9 {
                guard let byte = next() else { return nil }
                if index == 8 { return (value << 8) | UInt64(byte) }
                value = (value << 7) | UInt64(byte & 0x7F)
                if byte & 0x80 == 0 { return value }
            }
            return value
        }
    }
}
