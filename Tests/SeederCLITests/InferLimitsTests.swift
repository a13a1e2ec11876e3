import Foundation
import GRDB
import SeederTestSupport
import Testing

/// `seeder infer` at the edges of what dumps hold (docs/commands.md, `seeder infer`): records
/// with no key and values that are no records are said plainly (status 1); keys that name
/// SQLite's or seeder's tables, and records wider than a table, draft a mapping that builds with
/// every value.
struct InferLimitsTests {
    /// `seeder infer dumps -o draft.yaml`, then, when it drafted, `build --strict` of the draft.
    func inferAndBuild(_ files: [String: String]) async throws -> (scratch: Workspace, infer: Run, build: Run?) {
        let scratch = try Workspace(directories: ["dumps"])
        for (name, text) in files { try scratch.write("dumps/" + name, text) }
        let inferred = try await seeder(["infer", "dumps", "-o", "draft.yaml"], in: scratch.root)
        guard inferred.status == 0 else { return (scratch, inferred, nil) }
        return (scratch, inferred, try await seeder(["build", "draft.yaml", "dumps", "-o", "seed.sqlite", "--strict"], in: scratch.root))
    }

    @Test func recordsWithNoKeyAreSaidPlainlyWithStatusOne() async throws {
        let (scratch, inferred, _) = try await inferAndBuild(["things.json": "[{}, {}]"])
        #expect(inferred.status == 1)
        #expect(
            inferred.stderr == "dumps: error: the 2 records in the 1 dump file under dumps hold no key: nothing to draft a mapping from\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("draft.yaml")))
    }

    @Test func valuesThatAreNoObjectsAreSaidPlainlyEachAtItsLineAndColumn() async throws {
        let (_, inferred, _) = try await inferAndBuild(["numbers.json": "[1,\n 2, \"three\"]"])
        #expect(inferred.status == 1)
        #expect(
            inferred.stderr == """
                dumps/numbers.json:1:2: warning: a number where a record (an object) was expected: infer reads objects only
                dumps/numbers.json:2:2: warning: a number where a record (an object) was expected: infer reads objects only
                dumps/numbers.json:2:5: warning: a string where a record (an object) was expected: infer reads objects only
                dumps: error: the 3 values in the 1 dump file under dumps are not objects, and infer drafts records from objects: nothing to draft a mapping from

                """)
    }

    @Test func keysNamedLikeSQLitesAndSeedersTablesDraftTablesOfTheirOwn() async throws {
        let (scratch, inferred, built) = try await inferAndBuild([
            "seed_metadata.json": #"[{"id": 1, "sqlite_stat1": {"id": 3, "tbl": "t"}, "seed_source": [{"id": 5, "path": "p"}]}]"#
        ])
        #expect(inferred.status == 0, "\(inferred.stderr)")
        let build = try #require(built)
        #expect(build.status == 0, "\(build.stderr)")
        let tables = try await DatabaseQueue(path: scratch.path("seed.sqlite")).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'dump%' ORDER BY name")
        }
        #expect(tables == ["dump_seed_metadata", "dump_seed_metadata_field_seed_source", "dump_seed_source", "dump_sqlite_stat1"])
        let stat = try await DatabaseQueue(path: scratch.path("seed.sqlite")).read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM dump_sqlite_stat1").map(\.description)
        }
        #expect(stat == [#"[id:3 tbl:"t"]"#])
    }

    @Test func aRecordWiderThanATableKeepsEveryValue() async throws {
        let keys = (0..<2100).map { "k\($0)" }
        let record = "[{" + keys.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + ", \"id\": 7}]"
        let (scratch, inferred, built) = try await inferAndBuild(["wide.json": record])
        #expect(inferred.status == 0, "\(inferred.stderr)")
        let build = try #require(built)
        #expect(build.status == 0, "\(build.stderr)")
        let draft = try String(contentsOfFile: scratch.path("draft.yaml"), encoding: .utf8)
        #expect(draft.contains("rest: { type: json, from: '@rest' }"))
        // Every value, in a column or in the gathered object, once.
        let (columns, rest) = try await DatabaseQueue(path: scratch.path("seed.sqlite")).read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM wide"))
            return (
                Dictionary(uniqueKeysWithValues: row.columnNames.filter { $0 != "rest" }.map { ($0, row[$0] as Int64) }),
                try #require(row["rest"] as String?)
            )
        }
        let gathered = try #require(try JSONSerialization.jsonObject(with: Data(rest.utf8)) as? [String: Int])
        #expect(columns["id"] == 7)
        #expect(columns.count + gathered.count == 2101)
        for (index, key) in keys.enumerated() {
            #expect((columns[key].map(Int.init) ?? gathered[key]) == index, "\(key)")
        }
    }
}
