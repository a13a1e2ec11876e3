import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// The working database's pages (`SeedLayout.workingPageSize`): big for a few big side and link
/// tables, smaller once every table's root page would crowd the load's cache (bench/README.md,
/// Big mappings).
struct WorkingPageSizeTests {
    /// `count` entities `K0`, `K1`, ..., each naming the next, each fed by a file of its own;
    /// `joined`, each also names the next by a to-many (`later_ids`: a join table each, with its
    /// index) and requires its name.
    static func chain(_ count: Int, joined: Bool = false) -> String {
        var yaml = "seeder: 1\nentities:\n"
        for index in 0..<count {
            let name = joined ? "{ type: string, required: true }" : "string"
            yaml += "  K\(index):\n    attributes: { id: integer, name: \(name) }\n"
            guard index + 1 < count else { continue }
            yaml += "    relationships:\n      next: { to: K\(index + 1) }\n"
            if joined { yaml += "      later: { to: K\(index + 1), many: true, from: later_ids }\n" }
        }
        yaml += "sources:\n"
        for index in 0..<count { yaml += "  - { path: k\(index).json, entity: K\(index) }\n" }
        return yaml
    }

    /// 64 side tables of 64 KiB fill a quarter of the 16 MiB cache; one more, and the pages halve
    /// until they fit, down to 4 KiB.
    @Test(arguments: [(1, 65536), (64, 65536), (65, 32768), (300, 8192), (1000, 4096)])
    func pagesShrinkAsTheWorkingTablesGrowInNumber(entities: Int, pageSize: Int) throws {
        #expect(SeedLayout(mapping: try validMapping(Self.chain(entities))).workingPageSize == pageSize)
    }

    /// A build of hundreds of entities, its working tables in small pages, gives every row and link.
    @Test func aMappingOfHundredsOfEntitiesBuilds() throws {
        let workspace = try Workspace.withDumps()
        let count = 300
        try workspace.write("mapping.yaml", Self.chain(count))
        for index in 0..<count {
            let next = index + 1 < count ? #", "next_id": \#(index + 1)"# : ""
            try workspace.write("dumps/k\(index).json", #"[{"id": \#(index), "name": "k\#(index)"\#(next)}]"#)
        }
        let report = workspace.build()
        #expect(report.outcome == .success)
        #expect(report.messages(workspace) == [])
        #expect(try workspace.rows("SELECT * FROM k0") == [#"[id:0 name:"k0" next_id:1]"#])
        #expect(try workspace.rows("SELECT * FROM k298") == [#"[id:298 name:"k298" next_id:299]"#])
        #expect(try workspace.rows("SELECT * FROM k299") == [#"[id:299 name:"k299"]"#])
    }
}
