import Foundation
import SeederTestSupport
import Testing

/// `seeder infer` end to end, with the real binary: the draft of every example's dumps and of
/// the bench's workloads builds as it is, with every record in the seed (docs/commands.md).
@Suite struct InferCommandTests {
    @Test(arguments: ["accounts", "catalog", "marvel", "pods", "social", "tasklist"])
    func exampleDraftBuilds(_ example: String) async throws {
        let workspace = try Workspace()
        let draft = workspace.path("m.yaml")
        let inferred = try await seeder(["infer", "seeds/" + example, "-o", draft])
        #expect(inferred.status == 0, "\(inferred.stderr)")
        let built = try await seeder(["build", draft, "seeds/" + example, "-o", workspace.path("seed.sqlite"), "--progress", "never"])
        #expect(built.status == 0, "\(built.stderr)\n\(built.stdout)")
    }

    @Test(arguments: [("flat", "Flat", 300), ("graph", "Task", 300), ("pages", "Character", 300)])
    func benchWorkloadDraftBuilds(_ workload: String, _ entity: String, _ rows: Int) async throws {
        let workspace = try Workspace()
        let generated = try await program(
            try seederBenchBinary(), ["generate", workload, "\(rows)", workspace.path("dumps")], standardOutput: .discarded)
        #expect(generated.status == 0, "\(generated.stderr)")
        let inferred = try await seeder(["infer", workspace.path("dumps"), "-o", workspace.path("m.yaml")])
        #expect(inferred.status == 0, "\(inferred.stderr)")
        let built = try await seeder([
            "build", workspace.path("m.yaml"), workspace.path("dumps"), "-o", workspace.path("seed.sqlite"), "--progress", "never",
        ])
        #expect(built.status == 0, "\(built.stderr)")
        let line = built.stdout.split(separator: "\n").first { $0.hasPrefix(entity + " ") } ?? ""
        #expect(line.split(separator: " ").dropFirst(2).first.map(String.init) == "\(rows)", "\(built.stdout)")
    }

    /// Keys holding characters YAML may not hold (C1, U+FFFE) or reads as line breaks (U+0085,
    /// U+2028): the draft escapes them, loads, and builds with the values under those keys.
    @Test func keysYAMLCannotHoldAreEscapedInTheDraft() async throws {
        let workspace = try Workspace(directories: ["dumps"])
        let keys = ["a\u{9B}31m", "b\u{85}", "c\u{2028}d", "e\u{FFFE}"]
        let record = { (id: Int) in "{\"id\": \(id), " + keys.map { "\"\($0)\": \"v\(id)\"" }.joined(separator: ", ") + "}" }
        try workspace.write("dumps/items.json", "[" + record(1) + ", " + record(2) + "]")
        let inferred = try await seeder(["infer", workspace.path("dumps"), "-o", workspace.path("m.yaml")])
        #expect(inferred.status == 0, "\(inferred.stderr)")
        let built = try await seeder([
            "build", workspace.path("m.yaml"), workspace.path("dumps"), "-o", workspace.path("seed.sqlite"), "--quiet",
        ])
        #expect(built.status == 0, "\(built.stderr)")
        let columns = try RawDatabase(workspace.path("seed.sqlite")).rows("SELECT name FROM pragma_table_info('item') ORDER BY cid")
        #expect(columns.count == 5, "\(columns)")
    }

    @Test func draftGoesToStandardOutputWithoutOutput() async throws {
        let run = try await seeder(["infer", "seeds/catalog"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("seeder: 1"))
        // `-o -` is standard output too, never a file named `-`.
        let scratch = try Workspace()
        let dash = try await seeder(["infer", repository + "/seeds/catalog", "-o", "-"], in: scratch.root)
        #expect(
            dash.status == 0 && dash.stdout == run.stdout.replacingOccurrences(of: "seeds/catalog", with: repository + "/seeds/catalog"))
        #expect(scratch.files == [])
    }

    @Test func existingOutputNeedsForce() async throws {
        let workspace = try Workspace()
        try workspace.write("m.yaml", "mine\n")
        let refused = try await seeder(["infer", "seeds/catalog", "-o", workspace.path("m.yaml")])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("exists; --force replaces it"))
        #expect(try String(contentsOfFile: workspace.path("m.yaml"), encoding: .utf8) == "mine\n")
        let forced = try await seeder(["infer", "seeds/catalog", "-o", workspace.path("m.yaml"), "--force"])
        #expect(forced.status == 0)
    }

    @Test func outputThatIsADirectoryIsRefused() async throws {
        let workspace = try Workspace(directories: ["out"])
        let run = try await seeder(["infer", "seeds/catalog", "-o", workspace.path("out"), "--force"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("not a regular file"))
    }

    @Test func invalidJSONExitsOne() async throws {
        let workspace = try Workspace()
        try workspace.write("dumps/users.json", "[{\"id\": 1},]")
        let run = try await seeder(["infer", workspace.path("dumps")])
        #expect(run.status == 1)
        #expect(run.stderr.contains("users.json:1:"))
    }

    /// A folder with no dump file in it, empty or holding other files only: nothing to draft
    /// from, said as such (status 2), not as a draft that does not load.
    @Test(arguments: [[], ["notes.txt", "data/readme.md"]])
    func aFolderWithoutDumpFiles(_ files: [String]) async throws {
        let workspace = try Workspace(directories: ["dumps"])
        for file in files { try workspace.write("dumps/" + file, "not a dump\n") }
        let run = try await seeder(["infer", "dumps"], in: workspace.root)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(
            run.stderr
                == "dumps: error: found no dump files under dumps (infer reads .json, .jsonl and .ndjson files, each also .gz or .zst)\n")
        let drafted = try await seeder(["infer", "dumps", "-o", "draft.yaml"], in: workspace.root)
        #expect(drafted.status == 2)
        #expect(!FileManager.default.fileExists(atPath: workspace.path("draft.yaml")))
    }

    /// Dump files that hold no record (an empty array, an empty object, nothing): said as such,
    /// status 2, not as a draft that does not load.
    @Test func dumpFilesWithoutRecords() async throws {
        let workspace = try Workspace()
        try workspace.write("dumps/users.json", "[]")
        try workspace.write("dumps/meta.json", "{}")
        let run = try await seeder(["infer", "dumps"], in: workspace.root)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "dumps: error: found no records in the 2 dump files under dumps: nothing to draft a mapping from\n")
    }
}
