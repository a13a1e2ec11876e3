import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// `SeedDiffer` against a naive in-memory diff, and its pairing rules.
struct SeedDifferTests {
    /// A value of any storage class, the kinds that make SQLite's key order subtle: numbers
    /// mixed with text and blobs, text sharing prefixes, non-ASCII text, empty text and blobs.
    static func randomValue(_ generator: inout SplitMix64, allowNull: Bool) -> DatabaseValue {
        switch Int.random(in: 0..<(allowNull ? 6 : 5), using: &generator) {
        case 0: return Int64.random(in: -50...50, using: &generator).databaseValue
        case 1: return (Double(Int.random(in: -50...50, using: &generator)) + 0.5).databaseValue
        case 2: return ["", "a", "ab", "b", "é", "Z", "zz", "日本", "\u{7F}", "\u{10000}"].randomElement(using: &generator)!.databaseValue
        case 3:
            return Data((0..<Int.random(in: 0...3, using: &generator)).map { _ in UInt8.random(in: 0...2, using: &generator) })
                .databaseValue
        case 4: return String(Int.random(in: 0...30, using: &generator)).databaseValue
        default: return DatabaseValue.null
        }
    }

    /// Two versions of a one-table file, `old.db` and `new.db` in `workspace`, whose keys and
    /// values mix every storage class: some records removed, changed or kept, some added.
    static func randomPair(in workspace: Workspace, seed: UInt64) throws -> (
        old: [DatabaseValue: DatabaseValue], new: [DatabaseValue: DatabaseValue]
    ) {
        var generator = SplitMix64(seed: seed)
        var old: [DatabaseValue: DatabaseValue] = [:]
        for _ in 0..<Int.random(in: 0...60, using: &generator) {
            old[randomValue(&generator, allowNull: false)] = randomValue(&generator, allowNull: true)
        }
        var new = old
        for key in old.keys where Bool.random(using: &generator) {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: new[key] = nil
            case 1: new[key] = randomValue(&generator, allowNull: true)
            default: break
            }
        }
        for _ in 0..<Int.random(in: 0...20, using: &generator) {
            new[randomValue(&generator, allowNull: false)] = randomValue(&generator, allowNull: true)
        }
        for (name, rows) in [("old", old), ("new", new)] {
            let queue = try DatabaseQueue(path: workspace.root + "/\(name).db")
            try queue.write { db in
                // No declared type: keys keep their storage class, so one column mixes all four.
                try db.execute(sql: "CREATE TABLE t(k PRIMARY KEY, v)")
                for (key, value) in rows.shuffled(using: &generator) {
                    try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [key, value])
                }
            }
        }
        return (old, new)
    }

    @Test(arguments: 0..<20)
    func agreesWithANaiveDiffOnMixedKeys(_ round: Int) throws {
        let workspace = try Workspace.withDumps()
        // Each round from a seed of its own: a failing round is replayed from its number.
        let (old, new) = try Self.randomPair(in: workspace, seed: SplitMix64.caseSeed(base: 0x5EED_D1FF, index: round))

        var seen: [RecordChange] = []
        let diff = try SeedDiffer(old: workspace.root + "/old.db", new: workspace.root + "/new.db").diff { _, change in seen.append(change)
        }

        func sqlValue(_ value: DatabaseValue) -> SQLValue {
            switch value.storage {
            case .null: return .null
            case let .int64(integer): return .integer(integer)
            case let .double(double): return .real(double)
            case let .string(string): return .text(string)
            case let .blob(data): return .blob(Array(data))
            }
        }
        /// The same value: the same storage class and value, as `isSame` defines it.
        func same(_ a: DatabaseValue?, _ b: DatabaseValue?) -> Bool {
            guard let a, let b else { return a == nil && b == nil }
            return sqlValue(a) == sqlValue(b)
        }
        let added = Set(new.keys.filter { old[$0] == nil }.map(sqlValue))
        let removed = Set(old.keys.filter { new[$0] == nil }.map(sqlValue))
        let changed = Set(old.keys.filter { new[$0] != nil && !same(old[$0], new[$0]) }.map(sqlValue))
        let table = try #require(diff.tables.first)
        #expect(table.pairing == .primaryKey)
        #expect(
            table.counts
                == DiffCounts(
                    added: added.count, removed: removed.count, changed: changed.count,
                    unchanged: old.count - removed.count - changed.count))
        #expect(Set(seen.filter { $0.kind == .added }.map { $0.key[0] }) == added)
        #expect(Set(seen.filter { $0.kind == .removed }.map { $0.key[0] }) == removed)
        #expect(Set(seen.filter { $0.kind == .changed }.map { $0.key[0] }) == changed)
        #expect(diff.holdsSameRecords == (added.isEmpty && removed.isEmpty && changed.isEmpty))
    }

    @Test func pairsRecordsWithoutIdentityAsWholeRows() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Character:
                attributes: { id: integer, name: string }
                relationships:
                  urls: { to: Link, many: true, inverse: character, ordered: true }
              Link:
                identity: none
                attributes: { type: string, url: string }
                relationships:
                  character: { to: Character }
            sources:
              - { path: characters.json, entity: Character }
            """)
        try workspace.write(
            "dumps/characters.json", #"[{"id": 1, "name": "A", "urls": [{"type": "wiki", "url": "w1"}, {"type": "detail", "url": "d1"}]}]"#)
        #expect(workspace.build(output: "old.sqlite").outcome == .success)
        // The wiki link moves: every `_pk` shifts, yet only the changed link is reported.
        try workspace.write(
            "dumps/characters.json", #"[{"id": 1, "name": "A", "urls": [{"type": "detail", "url": "d1"}, {"type": "wiki", "url": "w2"}]}]"#)
        #expect(workspace.build(output: "new.sqlite").outcome == .success)

        var seen: [String] = []
        let diff = try SeedDiffer(old: workspace.root + "/old.sqlite", new: workspace.root + "/new.sqlite").diff { table, change in
            seen.append(
                "\(table.name) \(change.kind) " + change.fields.map { "\($0.column)=\(($0.new ?? $0.old)!)" }.joined(separator: " "))
        }
        let link = try #require(diff.tables.first { $0.name == "Link" })
        #expect(link.pairing == .rows(reason: "identity: none") && link.keyColumns.isEmpty)
        #expect(!link.fieldColumns.contains("_pk"))
        // Records in key order: whole rows sorted by type, url, character_id, character_position.
        #expect(
            seen == [
                "Link added type=\"detail\" url=\"d1\" character_id=1 character_position=0",
                "Link removed type=\"detail\" url=\"d1\" character_id=1 character_position=1",
                "Link removed type=\"wiki\" url=\"w1\" character_id=1 character_position=0",
                "Link added type=\"wiki\" url=\"w2\" character_id=1 character_position=1",
            ])
        #expect(link.counts.added == 2 && link.counts.removed == 2 && link.counts.changed == 0)
        #expect(diff.tables.first { $0.name == "Character" }?.counts == DiffCounts(unchanged: 1))
    }
}
