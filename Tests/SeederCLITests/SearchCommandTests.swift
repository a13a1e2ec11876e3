import Foundation
import GRDB
import SeederTestSupport
import Testing

/// `inspect` and `diff` (docs/commands.md) on seeds with a search table: the table shown once, as
/// what it indexes, and no FTS shadow table read as records.
struct SearchCommandTests {
    /// The pods example built as `v1.sqlite` and `v2.sqlite`, and `v2`'s Alamofire given another
    /// summary through the seed's triggers, which rewrites its shadow tables.
    static func podSeeds() async throws -> Workspace {
        let scratch = try await DiffCommandTests.seeds([
            ("v1", "mappings/pods.yaml", "seeds/pods", "1700000000"),
            ("v2", "mappings/pods.yaml", "seeds/pods", "1700000000"),
        ])
        return scratch
    }

    @Test func inspectShowsTheSearchTableOnceAndNoShadow() async throws {
        let scratch = try await Self.podSeeds()
        let run = try await seeder(["inspect", "v1.sqlite"], in: scratch.root)
        #expect(run.status == 0)
        #expect(
            run.stdout.hasSuffix(
                """
                tables
                  table       rows  holds
                  pod            4  Pod
                  pod_search     4  Pod search (fts5, porter unicode61, triggers)

                """), "\(run.stdout)")
        #expect(run.stdout.hasPrefix("v1.sqlite: ") && run.stdout.contains(" 2 tables\n"))
        let json = try await seeder(["inspect", "v1.sqlite", "--json"], in: scratch.root)
        #expect(
            json.stdout.contains(#"{"name":"pod_search","rows":4,"holds":"Pod search (fts5, porter unicode61, triggers)"}"#),
            "\(json.stdout)")
        #expect(!json.stdout.contains("pod_search_data"))
    }

    @Test func diffComparesTheRecordsNotTheShadowTables() async throws {
        let scratch = try await Self.podSeeds()
        let same = try await seeder(["diff", "v1.sqlite", "v2.sqlite"], in: scratch.root)
        #expect(same.status == 0)
        #expect(same.stdout.hasSuffix("the seeds hold the same records\n"), "\(same.stdout)")
        let v2 = try DatabaseQueue(path: scratch.path("v2.sqlite"))
        try await v2.write { db in try db.execute(sql: "UPDATE pod SET summary = 'Elegant HTTP in Swift' WHERE name = 'Alamofire'") }
        try v2.close()
        let changed = try await seeder(["diff", "v1.sqlite", "v2.sqlite"], in: scratch.root)
        #expect(changed.status == 1)
        #expect(
            changed.stdout == """
                entity  added  removed  changed  unchanged
                Pod         0        0        1          3

                Pod: 1 changed
                  ~ Pod Alamofire
                      summary: "Elegant HTTP Networking in Swift" -> "Elegant HTTP in Swift"

                the seeds differ: 0 added, 0 removed, 1 changed record

                """)
    }

    /// A search table defined otherwise (here FTS4 for FTS5, which an app on Android's framework
    /// SQLite depends on) is a change of the schema, though the records are the same; one added
    /// or removed is a table added or removed.
    @Test func diffReportsASearchTableDefinedOtherwise() async throws {
        let scratch = try await Self.podSeeds()
        let pods = try String(contentsOfFile: repository + "/mappings/pods.yaml", encoding: .utf8)
        for (name, replacement) in [("fts4", "engine: fts4, tokenizer: \"porter\""), ("plain", nil)] {
            let mapping: String
            if let replacement {
                mapping = pods.replacingOccurrences(of: #"tokenizer: "porter unicode61""#, with: replacement)
            } else {
                mapping = pods.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("search:") }
                    .joined(separator: "\n")
            }
            #expect(mapping != pods)
            try scratch.write("\(name).yaml", mapping)
            let built = try await seeder(
                ["build", scratch.path("\(name).yaml"), "seeds/pods", "-o", scratch.path("\(name).sqlite"), "--quiet"],
                environment: ["SOURCE_DATE_EPOCH": "1700000000"])
            #expect(built.status == 0, "\(built.stderr)")
        }
        let engine = try await seeder(["diff", "v1.sqlite", "fts4.sqlite"], in: scratch.root)
        #expect(engine.status == 1)
        #expect(engine.stdout.contains("~ search table pod_search (its module, tokenizer, columns or triggers)\n"), "\(engine.stdout)")
        let removed = try await seeder(["diff", "v1.sqlite", "plain.sqlite"], in: scratch.root)
        #expect(removed.status == 1)
        #expect(removed.stdout.contains("- table pod_search\n"), "\(removed.stdout)")
        #expect(!removed.stdout.contains("pod_search_"))
    }
}
