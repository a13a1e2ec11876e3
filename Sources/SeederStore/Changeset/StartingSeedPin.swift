import CSQLite
import GRDB
import SeederFiles

/// Pins the seeds a changeset leads from and to, and marks its end (docs/commands.md, The
/// changeset): a last `seed_metadata` section that updates every identity key (`inputs_sha256`,
/// `mapping_sha256`, `seeder_version`) from its value in the new seed to the same value.
///
/// A session records only what differs, so a changeset between two builds of one mapping says
/// nothing of `mapping_sha256`, and an installer could not tell a copy built from the same dumps
/// under another mapping from the seed the changeset was made on: it would patch it, and leave
/// rows that neither seed holds. With the pin, every identity key is named with the value it has
/// before the changeset's last section: a key the changeset does not change, with the old seed's
/// value; one it changes, with the new value its earlier update gave it. Applied, the updates
/// change nothing. And since they come last, a changeset cut short, even between two changes,
/// lacks them: the installer refuses it rather than patch a copy with part of the rows.
enum StartingSeedPin {
    /// The `seed_metadata` keys that tell one seed from another (docs/guides/updating-an-installed-seed.md).
    static let identityKeys = ["inputs_sha256", "mapping_sha256", "seeder_version"]

    /// `changeset` with the pin after it; an empty changeset (the seeds hold the same rows) stays
    /// empty. `db` has the new seed as `main`.
    static func pinned(_ changeset: [UInt8], db: Database) throws -> [UInt8] {
        guard !changeset.isEmpty else { return [] }
        let rows = try Row.fetchAll(
            db, sql: "SELECT key, value FROM main.seed_metadata WHERE key IN (?, ?, ?)", arguments: StatementArguments(identityKeys))
        // Text only, as read, never converted: a value of another type pins nothing.
        let pairs = rows.compactMap { row -> (String, String)? in
            guard case let .string(key) = (row[0] as DatabaseValue).storage, case let .string(value) = (row[1] as DatabaseValue).storage
            else { return nil }
            return (key, value)
        }
        let values = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        let pin = identityKeys.compactMap { key in values[key].map { (key: key, value: $0) } }
        return pin.isEmpty ? changeset : changeset + section(pin)
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
}
