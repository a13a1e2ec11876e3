import Foundation
import GRDB
import SeederTestSupport
import Testing

/// `seeder-bench install` killed with SIGKILL at several moments of a patch and of a replace: the
/// working copy then opens, passes `integrity_check`, and holds exactly the old seed's rows or
/// exactly the new seed's (docs/guides/updating-an-installed-seed.md).
@Suite struct InterruptedInstallTests {
    /// Items 1 to `count`; the second edition changes every note and size, drops every tenth item
    /// and adds a tenth more: a changeset of about `1.2 count` changes, a patch of some hundreds
    /// of milliseconds at 120,000.
    static func items(edition: Int, count: Int) -> String {
        var rows: [String] = []
        for id in 1...count where edition == 1 || id % 10 != 0 {
            rows.append(#"{"id": \#(id), "name": "item \#(id)", "note": "edition \#(edition) of \#(id)", "size": \#(id * edition)}"#)
        }
        if edition == 2 {
            for id in (count + 1)...(count + count / 10) {
                rows.append(#"{"id": \#(id), "name": "new \#(id)", "note": "added", "size": 1}"#)
            }
        }
        return "[" + rows.joined(separator: ",\n") + "]"
    }

    /// Every ordinary table's rows, as text, sorted.
    static func rows(_ path: String) throws -> [String: [String]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"], "\(path)")
            var result: [String: [String]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'") {
                result[table] = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map(\.description).sorted()
            }
            return result
        }
    }

    @Test(arguments: [true, false])
    func aKilledInstallLeavesTheOldSeedOrTheNew(patch: Bool) async throws {
        let workspace = try Workspace()
        try workspace.write(
            "m.yaml", "seeder: 1\nentities:\n  Item:\n    attributes: { id: integer, name: string, note: string, size: integer }\n")
        for edition in [1, 2] {
            try workspace.write("d\(edition)/item.json", Self.items(edition: edition, count: 120_000))
            let built = try await seeder([
                "build", workspace.path("m.yaml"), workspace.path("d\(edition)"), "-o", workspace.path("\(edition).sqlite"), "-q",
            ])
            #expect(built.status == 0, "\(built.stderr)")
        }
        let (old, new, changeset) = (workspace.path("1.sqlite"), workspace.path("2.sqlite"), workspace.path("c.changeset"))
        #expect(try await seeder(["diff", old, new, "--changeset", changeset]).status == 1)
        let expected = [try Self.rows(old), try Self.rows(new)]
        let bench = try seederBenchBinary()
        let copy = workspace.path("copy.sqlite")
        let arguments = ["install", new, copy] + (patch ? ["--changeset", changeset] : [])

        var outcomes: [String] = []
        // From before the installer starts its work to after it is done (a patch takes some
        // hundreds of milliseconds here, a copy some). The first kill is at once: on a busy
        // machine a sleep of 2 ms can last past a whole copy.
        let delays = patch ? [0, 0.01, 0.05, 0.1, 0.15, 0.2, 0.3, 0.45, 0.7, 1.0] : [0, 0.002, 0.005, 0.008, 0.012, 0.02, 0.04]
        for delay in delays {
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: old, toPath: copy)
            let install = try RunningProgram(bench, arguments, standardOutput: .discarded)
            if delay > 0 { try await Task.sleep(for: .seconds(delay)) }
            install.send(SIGKILL)
            let killed = await install.finished().signalled
            let rows = try Self.rows(copy)
            let state = rows == expected[0] ? "old" : rows == expected[1] ? "new" : "mixed"
            #expect(state != "mixed", "killed after \(delay) s")
            outcomes.append("\(delay): \(killed ? "killed" : "finished"), \(state)")
            // The next launch finishes the job and leaves no temporary file.
            let rerun = try await program(bench, arguments)
            #expect(rerun.status == 0, "\(rerun.stdout)")
            #expect(try Self.rows(copy) == expected[1])
            #expect(!FileManager.default.fileExists(atPath: workspace.path(".copy.sqlite.seed-install")))
        }
        // The early kills interrupted the work: the copy was left as it was.
        #expect(outcomes.contains { $0.hasSuffix("killed, old") }, "\(outcomes)")
        print((patch ? "patch: " : "replace: ") + outcomes.joined(separator: "; "))
    }
}
