import CSQLite
import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// `SeedChangeset`: applied to a copy of the old file it gives the new file's rows, and what it
/// refuses (docs/commands.md, diff --changeset).
struct SeedChangesetTests {
    /// Applies the changeset at `changeset` to the database at `path` with the C API, aborting
    /// on any conflict; returns the number of conflicts met.
    static func apply(_ changeset: String, to path: String) throws -> Int {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: changeset)))
        let queue = try DatabaseQueue(path: path)
        var conflicts = 0
        try queue.inDatabase { db in
            let code = bytes.withUnsafeBytes { buffer in
                withUnsafeMutablePointer(to: &conflicts) { counter in
                    sqlite3changeset_apply(
                        db.sqliteConnection, Int32(buffer.count), UnsafeMutableRawPointer(mutating: buffer.baseAddress), nil,
                        { context, _, _ in
                            context!.assumingMemoryBound(to: Int.self).pointee += 1
                            return SQLITE_CHANGESET_ABORT
                        }, counter)
                }
            }
            if code != SQLITE_OK { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        }
        try queue.close()
        return conflicts
    }

    /// Every row of `table`, all columns with their storage classes, each with its count.
    static func rows(_ table: String, _ path: String) throws -> [[String]: Int] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        // GRDB's `==` takes 1 for 1.0; the storage class is part of a value here.
        func exact(_ value: DatabaseValue) -> String {
            switch value.storage {
            case .null: return "null"
            case let .int64(integer): return "integer \(integer)"
            case let .double(double): return "real \(double)"
            case let .string(string): return "text \(string)"
            case let .blob(data): return "blob " + data.map { String($0, radix: 16) }.joined(separator: " ")
            }
        }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM \(SQLText.quote(table))").reduce(into: [:]) { counts, row in
                counts[row.databaseValues.map(exact), default: 0] += 1
            }
        }
    }

    /// Tables whose keys and values mix every storage class: the session diff pairs and compares
    /// them as exactly as `seeder diff` does, so that applying gives the new rows.
    @Test(arguments: 0..<12)
    func givesTheNewRowsOnMixedKeysAndValues(_ round: Int) throws {
        let workspace = try Workspace.withDumps()
        _ = try SeedDifferTests.randomPair(in: workspace, seed: SplitMix64.caseSeed(base: 0xC4A9_5E75, index: round))
        let changeset = try SeedChangeset.write(old: workspace.path("old.db"), new: workspace.path("new.db"), to: workspace.path("c"))
        try FileManager.default.copyItem(atPath: workspace.path("old.db"), toPath: workspace.path("copy.db"))
        #expect(try Self.apply(workspace.path("c"), to: workspace.path("copy.db")) == 0)
        #expect(try Self.rows("t", workspace.path("copy.db")) == Self.rows("t", workspace.path("new.db")))

        let diff = try SeedDiffer(old: workspace.path("old.db"), new: workspace.path("new.db")).diff { _, _ in }
        let counts = try #require(diff.tables.first).counts
        let table = changeset.tables.first ?? SeedChangeset.TableChanges(table: "t")
        #expect([table.inserts, table.deletes, table.updates] as [Int] == [counts.added, counts.removed, counts.changed])
    }

    /// A value that changes only its storage class is a change: text to blob goes into the
    /// changeset; integer 1 to real 1.0, which SQL's `IS NOT` takes for one value and only a
    /// column without a type can hold, is refused.
    @Test func takesAChangedStorageClassForAChangeOrRefusesIt() throws {
        let prepare =
            "CREATE TABLE t(k PRIMARY KEY, v, w TEXT, x REAL); INSERT INTO t VALUES (1, 1, 'a', 1), (2, 'x', 'b', 2), ('3', 3, 'c', 3)"
        let workspace = try pair(prepare, change: "UPDATE t SET v = x'78' WHERE k = 2; UPDATE t SET w = x'62', x = 2.5 WHERE k = 2")
        _ = try SeedChangeset.write(old: workspace.path("old.db"), new: workspace.path("new.db"), to: workspace.path("c"))
        try FileManager.default.copyItem(atPath: workspace.path("old.db"), toPath: workspace.path("copy.db"))
        #expect(try Self.apply(workspace.path("c"), to: workspace.path("copy.db")) == 0)
        #expect(try Self.rows("t", workspace.path("copy.db")) == Self.rows("t", workspace.path("new.db")))

        for change in ["UPDATE t SET v = 1.0 WHERE k = 1", "UPDATE t SET k = 1.0 WHERE k = 1"] {
            #expect(
                try refusal(pair(prepare, change: change)).map { "\($0)" }
                    == "cannot write a changeset: in table 't', 1 row changes a value's storage class only (integer 1 to real 1.0, say), "
                    + "which SQLite's session diff does not see")
        }
    }

    /// Writes two files whose tables `prepare` makes; `change` then alters the new one.
    func pair(_ prepare: String, change: String) throws -> Workspace {
        let workspace = try Workspace.withDumps()
        for name in ["old.db", "new.db"] {
            let queue = try DatabaseQueue(path: workspace.path(name))
            try queue.write { db in
                try db.execute(sql: prepare)
                if name == "new.db" { try db.execute(sql: change) }
            }
            try queue.close()
        }
        return workspace
    }

    func refusal(_ workspace: Workspace) throws -> SeedChangesetError? {
        defer { #expect(!FileManager.default.fileExists(atPath: workspace.path("c"))) }
        do {
            _ = try SeedChangeset.write(old: workspace.path("old.db"), new: workspace.path("new.db"), to: workspace.path("c"))
            return nil
        } catch let error as SeedChangesetError {
            return error
        }
    }

    @Test func refusesASchemaChange() throws {
        let workspace = try pair("CREATE TABLE t(k INTEGER PRIMARY KEY, v)", change: "ALTER TABLE t ADD COLUMN w TEXT")
        let error = try #require(try refusal(workspace))
        #expect(
            "\(error)"
                == "cannot write a changeset: the schema changed (+ column t.w TEXT), and a changeset holds rows only; ship the new seed whole"
        )
    }

    @Test func refusesDifferentRowsWithoutAPrimaryKeyButTakesTheSameRows() throws {
        let differing = try pair("CREATE TABLE m(locale TEXT); INSERT INTO m VALUES ('en')", change: "UPDATE m SET locale = 'fr'")
        #expect(
            try refusal(differing).map { "\($0)" }
                == "cannot write a changeset: table 'm' has no primary key and its rows differ, so they cannot be paired")
        // One row more of the same: a multiset differs where a set does not.
        let doubled = try pair("CREATE TABLE m(locale TEXT); INSERT INTO m VALUES ('en')", change: "INSERT INTO m VALUES ('en')")
        #expect(try refusal(doubled) != nil)
        let same = try pair(
            "CREATE TABLE m(locale TEXT); INSERT INTO m VALUES ('en'); CREATE TABLE t(k INTEGER PRIMARY KEY, v)",
            change: "INSERT INTO t VALUES (1, 'a')")
        let changeset = try SeedChangeset.write(old: same.path("old.db"), new: same.path("new.db"), to: same.path("c"))
        #expect(changeset.tables == [SeedChangeset.TableChanges(table: "t", inserts: 1)])
    }

    @Test func refusesASearchTableThatHoldsItsOwnTextButRebuildsOneWithExternalContent() throws {
        let own = try pair("CREATE VIRTUAL TABLE s USING fts5(body)", change: "INSERT INTO s VALUES ('hello')")
        #expect(try refusal(own).map { "\($0)" }?.hasPrefix("cannot write a changeset: search table 's' holds its own text") == true)

        let external = try pair(
            """
            CREATE TABLE doc(id INTEGER PRIMARY KEY, body TEXT);
            CREATE TABLE other(id INTEGER PRIMARY KEY);
            CREATE VIRTUAL TABLE doc_search USING fts5(body, content='doc', content_rowid='id');
            CREATE VIRTUAL TABLE other_search USING fts4(id, content="other");
            INSERT INTO doc VALUES (1, 'old text'); INSERT INTO doc_search(doc_search) VALUES ('rebuild');
            """,
            change: "UPDATE doc SET body = 'new text'; INSERT INTO doc_search(doc_search) VALUES ('rebuild')")
        let changeset = try SeedChangeset.write(old: external.path("old.db"), new: external.path("new.db"), to: external.path("c"))
        #expect(changeset.tables == [SeedChangeset.TableChanges(table: "doc", updates: 1)])
        #expect(changeset.searchTablesToRebuild == ["doc_search"])
    }

    @Test func writesOnlyToAFileThatIsNeitherSeedNorADatabase() throws {
        let workspace = try pair("CREATE TABLE t(k INTEGER PRIMARY KEY)", change: "INSERT INTO t VALUES (1)")
        func refusal(_ path: String) -> String? {
            do {
                _ = try SeedChangeset.write(old: workspace.path("old.db"), new: workspace.path("new.db"), to: path)
                return nil
            } catch {
                return "\(error)"
            }
        }
        try FileManager.default.copyItem(atPath: workspace.path("old.db"), toPath: workspace.path("another.db"))
        let before = try Data(contentsOf: URL(fileURLWithPath: workspace.path("another.db")))
        #expect(refusal(workspace.path("another.db"))?.contains("it is an SQLite database") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.path("another.db"))) == before)
        #expect(refusal(workspace.path("new.db"))?.contains("is the new seed") == true)
        #expect(refusal(workspace.root)?.contains("may not be written") == true)
        // Another file is kept: a mapping named by mistake, text that starts with a T.
        for (name, text) in [("mapping.yaml", "seeder: 1\n"), ("notes.txt", "TODO: ship the seed")] {
            try workspace.write(name, text)
            #expect(
                refusal(workspace.path(name))
                    == "the changeset \(workspace.path(name)) may not be written: the file exists and is not a changeset; remove it or name another file"
            )
            #expect(try String(contentsOfFile: workspace.path(name), encoding: .utf8) == text)
        }
        // An earlier changeset, or an empty file, is replaced, atomically.
        try workspace.write("c", "")
        #expect(refusal(workspace.path("c")) == nil)
        #expect(refusal(workspace.path("c")) == nil)
        #expect(try SeedChangeset.changes(in: Array(Data(contentsOf: URL(fileURLWithPath: workspace.path("c"))))).count == 1)
    }
}
