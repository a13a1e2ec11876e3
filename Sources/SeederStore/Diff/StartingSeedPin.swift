import CSQLite
import GRDB

/// Pins the seed a changeset starts from (docs/commands.md, The changeset): an update of every
/// identity key of `seed_metadata` (`inputs_sha256`, `mapping_sha256`, `seeder_version`) that the
/// changeset does not change, from its value to the same value.
///
/// A session records only what differs, so a changeset between two builds of one mapping says
/// nothing of `mapping_sha256`, and an installer could not tell a copy built from the same dumps
/// under another mapping from the seed the changeset was made on: it would patch it, and leave
/// rows that neither seed holds. With the pin, every old value of the identity is in the
/// changeset, for the installer to check against the copy; applied, the updates change nothing.
enum StartingSeedPin {
    /// The `seed_metadata` keys that tell one seed from another (docs/guides/updating-an-installed-seed.md).
    static let identityKeys = ["inputs_sha256", "mapping_sha256", "seeder_version"]

    /// `changeset` with the pin merged in, its `seed_metadata` section first; an empty changeset
    /// (the seeds hold the same rows) stays empty. `db` has the new seed as `main` and the old
    /// one attached as `old`.
    static func pinned(_ changeset: [UInt8], db: Database, old: String) throws -> [UInt8] {
        guard !changeset.isEmpty else { return [] }
        func values(_ schema: String) throws -> [String: String] {
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, value FROM \(schema).seed_metadata WHERE key IN (?, ?, ?)",
                arguments: StatementArguments(identityKeys))
            return Dictionary(rows.map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
        }
        let before = try values(old), after = try values("main")
        let unchanged = identityKeys.compactMap { key in before[key].flatMap { $0 == after[key] ? (key, $0) : nil } }
        guard !unchanged.isEmpty else { return changeset }
        return try merged([section(unchanged), changeset])
    }

    /// A changeset of `seed_metadata(key TEXT PRIMARY KEY, value TEXT NOT NULL)` updating each
    /// key's value to itself, in the session extension's format (sqlite3session.h, "changeset
    /// format"): the table's header, then per change its operation, old record and new record.
    static func section(_ rows: [(key: String, value: String)]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "T")]
        appendVarint(2, to: &bytes)
        bytes += [1, 0]  // the primary key's flag per column
        bytes += Array("seed_metadata".utf8) + [0]
        for (key, value) in rows {
            bytes += [UInt8(SQLITE_UPDATE), 0]  // not indirect
            appendText(key, to: &bytes)
            appendText(value, to: &bytes)
            bytes.append(0)  // the key, unchanged: undefined in the new record
            appendText(value, to: &bytes)
        }
        return bytes
    }

    private static func appendText(_ text: String, to bytes: inout [UInt8]) {
        let utf8 = Array(text.utf8)
        bytes.append(UInt8(SQLITE_TEXT))
        appendVarint(UInt64(utf8.count), to: &bytes)
        bytes += utf8
    }

    /// SQLite's variable-length integer: big-endian groups of 7 bits, each but the last with its
    /// high bit set, and a ninth byte of 8 bits.
    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        if value >> 56 != 0 {
            var groups: [UInt8] = [UInt8(truncatingIfNeeded: value)]
            var rest = value >> 8
            for _ in 0..<8 {
                groups.append(UInt8(truncatingIfNeeded: rest & 0x7F) | 0x80)
                rest >>= 7
            }
            bytes += groups.reversed()
            return
        }
        var groups: [UInt8] = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest != 0 {
            groups.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes += groups.reversed()
    }

    /// The changesets as one, through a changegroup: tables in order of first appearance, the
    /// changes to one row combined.
    private static func merged(_ changesets: [[UInt8]]) throws -> [UInt8] {
        var group: OpaquePointer?
        var code = sqlite3changegroup_new(&group)
        guard code == SQLITE_OK, let group else { throw SeedChangesetError.sqlite(String(cString: sqlite3_errstr(code))) }
        defer { sqlite3changegroup_delete(group) }
        for changeset in changesets {
            code = changeset.withUnsafeBytes {
                sqlite3changegroup_add(group, Int32($0.count), UnsafeMutableRawPointer(mutating: $0.baseAddress))
            }
            guard code == SQLITE_OK else { throw SeedChangesetError.sqlite(String(cString: sqlite3_errstr(code))) }
        }
        var size: Int32 = 0
        var buffer: UnsafeMutableRawPointer?
        code = sqlite3changegroup_output(group, &size, &buffer)
        defer { sqlite3_free(buffer) }
        guard code == SQLITE_OK else { throw SeedChangesetError.sqlite(String(cString: sqlite3_errstr(code))) }
        guard let buffer, size > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
    }
}
