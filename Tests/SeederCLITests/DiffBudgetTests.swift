import Foundation
import SeederTestSupport
import Testing

/// How `diff --format markdown` shares its bytes among the tables that changed (docs/commands.md,
/// `seeder diff`, Markdown): each gets its heading before one table's records fill the comment,
/// and a table left out for want of room is counted.
struct DiffBudgetTests {
    /// Two releases of `entities` entities, each of `records[i]` records, every record's name
    /// changed in the second.
    static func releases(_ records: [Int]) async throws -> Workspace {
        let scratch = try Workspace(directories: ["v1", "v2"])
        var mapping = "seeder: 1\nentities:\n"
        for index in records.indices { mapping += "  E\(index):\n    attributes: { id: integer, name: string }\n" }
        try scratch.write("mapping.yaml", mapping)
        for (release, word) in [("v1", "old"), ("v2", "new")] {
            for (index, count) in records.enumerated() {
                let rows = (1...count).map { #"{"id": \#($0), "name": "\#(word) name of record \#($0)"}"# }
                try scratch.write("\(release)/e\(index).json", "[" + rows.joined(separator: ",\n") + "]")
            }
            let built = try await seeder(["build", "mapping.yaml", release, "-o", "\(release).sqlite"], in: scratch.root)
            #expect(built.status == 0, "\(built.stderr)")
        }
        return scratch
    }

    @Test func oneTableFullOfChangesLeavesTheOthersTheirSections() async throws {
        let scratch = try await Self.releases([3000, 5])
        let diff = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--format", "markdown", "--max-bytes", "20000"], in: scratch.root)
        #expect(diff.status == 1)
        #expect(diff.stdout.utf8.count <= 20000)
        #expect(diff.stdout.contains("<details><summary><code>E0</code>: 3,000 changed</summary>"))
        #expect(diff.stdout.contains("<details><summary><code>E1</code>: 5 changed</summary>"))
        #expect(diff.stdout.contains("| `E0` | 0 | 0 | 3,000 | 0 |"))
    }

    @Test func tablesLeftOutForWantOfRoomAreCounted() async throws {
        let scratch = try await Self.releases(Array(repeating: 2, count: 40))
        let diff = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--format", "markdown", "--max-bytes", "4000"], in: scratch.root)
        #expect(diff.stdout.utf8.count <= 4000)
        let sections = diff.stdout.components(separatedBy: "<details>").count - 1
        let line = try #require(diff.stdout.components(separatedBy: "\n").first { $0.contains("more tables with changes not listed") })
        #expect(line == "… \(40 - sections) more tables with changes not listed: their counts are in the table above")
        #expect(sections < 40)
        // The tables with a section are the first ones, in mapping order.
        for index in 0..<40 {
            #expect(diff.stdout.contains("<summary><code>E\(index)</code>") == (index < sections), "E\(index)")
        }
    }

    /// A table late in the mapping gets no more room than one early in it: the room is shared
    /// fairly, not in turn (a small table between them takes what it needs).
    @Test func bigTablesGetEqualRoomWhereverTheyAre() async throws {
        let scratch = try await Self.releases([400, 3, 400])
        let diff = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--format", "markdown", "--max-bytes", "20000"], in: scratch.root)
        #expect(diff.stdout.utf8.count <= 20000)
        let listed = (0..<3).map { index in diff.stdout.components(separatedBy: "\n- changed `E\(index)` ").count - 1 }
        #expect(listed[1] == 3)
        #expect(abs(listed[0] - listed[2]) <= 1, "\(listed)")
        #expect(listed[0] > 40, "\(listed)")
    }

    /// Where the count table itself was cut, the tables left out are not said to be in it.
    @Test func tablesLeftOutOfACutCountTableAreNotSaidToBeInIt() async throws {
        let scratch = try await Self.releases(Array(repeating: 2, count: 80))
        let diff = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--format", "markdown", "--max-bytes", "2000"], in: scratch.root)
        #expect(diff.stdout.utf8.count <= 2000)
        #expect(diff.stdout.contains("more tables not listed"), "\(diff.stdout)")
        let line = try #require(diff.stdout.components(separatedBy: "\n").first { $0.contains("more tables with changes not listed") })
        #expect(!line.contains("in the table above"), "\(line)")
    }
}
