import Foundation
import SeederTestSupport
import Testing

@testable import seeder

/// GitHub Actions (docs/ci.md): diagnostics as workflow commands on the pull request's lines, and
/// the step summary, through the real binary.
struct GitHubActionsTests {
    /// The tasklist example with two errors: a wrong type and a conflict.
    static func broken() throws -> Workspace {
        let scratch = try CommandTests.tasklist()
        let tasks = scratch.path("dumps/task_list.json")
        try String(contentsOfFile: tasks, encoding: .utf8).replacingOccurrences(of: #""completed": true"#, with: #""completed": "maybe""#)
            .write(toFile: tasks, atomically: true, encoding: .utf8)
        let users = scratch.path("dumps/users.json")
        try String(contentsOfFile: users, encoding: .utf8).replacingOccurrences(of: "Rachit Shukla", with: "Rachit, 100%: Shukla")
            .write(toFile: users, atomically: true, encoding: .utf8)
        return scratch
    }

    static let annotations = [
        #"::error file=dumps/task_list.json,line=5,col=129,title=seeder type::Task 1: 'completed' is "maybe", expected boolean "#
            + "(true, false, yes, no, t, f, y, n, 1 or 0)  [/0/project/tasks/0/completed]",
        #"::error file=dumps/task_list.json,line=18,col=31,title=seeder conflict::User 3: 'name' conflicts: "Rachit Shukla" here, "#
            + #""Rachit, 100%25: Shukla" at dumps/users.json:4:21"#,
    ]

    /// With `GITHUB_ACTIONS=true` each diagnostic is also a workflow command on standard output,
    /// its message escaped; the compiler-style lines stay on standard error.
    @Test func annotatesByDefaultInGitHubActions() async throws {
        let scratch = try Self.broken()
        let run = try await seeder(["build", "tasklist.yaml", "dumps"], in: scratch.root, environment: ["GITHUB_ACTIONS": "true"])
        #expect(run.status == 1)
        #expect(run.stdout == Self.annotations.joined(separator: "\n") + "\n")
        #expect(run.stderr.contains("dumps/task_list.json:5:129: error: Task 1: 'completed' is \"maybe\""))
        #expect(run.stderr.hasSuffix("build failed: 2 errors, 0 warnings; nothing was written\n"))
        // Asked for text, or outside GitHub Actions: no workflow command.
        let text = try await seeder(
            ["build", "tasklist.yaml", "dumps", "--diagnostics", "text"], in: scratch.root, environment: ["GITHUB_ACTIONS": "true"])
        #expect(text.status == 1 && text.stdout == "")
        #expect(try await seeder(["validate", "tasklist.yaml", "dumps"], in: scratch.root).stdout == "")
        let asked = try await seeder(["validate", "tasklist.yaml", "dumps", "--diagnostics", "github"], in: scratch.root)
        #expect(asked.status == 1)
        #expect(asked.stdout == Self.annotations.joined(separator: "\n") + "\n")
    }

    /// Paths under `GITHUB_WORKSPACE` are the repository's; commas and colons in a path are
    /// escaped, as the runner splits properties at them.
    @Test func pathsAreTheRepositorys() async throws {
        let scratch = try Self.broken()
        try FileManager.default.moveItem(atPath: scratch.path("dumps"), toPath: scratch.path("dumps,v1:a"))
        let run = try await seeder(
            ["validate", scratch.path("tasklist.yaml"), scratch.path("dumps,v1:a"), "--diagnostics", "github"], in: "/",
            environment: ["GITHUB_WORKSPACE": scratch.root])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("::error file=dumps%2Cv1%3Aa/task_list.json,line=5,col=129,title=seeder type::") == true)
        #expect(lines.last?.hasSuffix(" at dumps,v1:a/users.json:4:21") == true)
    }

    /// Relative paths are the current directory's (a step's `working-directory:`), and a
    /// workspace named through a link is the same directory.
    @Test func relativePathsAreUnderTheWorkingDirectory() async throws {
        let scratch = try Self.broken()
        try FileManager.default.createDirectory(atPath: scratch.path("repo"), withIntermediateDirectories: false)
        for name in ["dumps", "tasklist.yaml"] {
            try FileManager.default.moveItem(atPath: scratch.path(name), toPath: scratch.path("repo/app-" + name))
        }
        try FileManager.default.createSymbolicLink(atPath: scratch.path("workspace"), withDestinationPath: scratch.path("repo"))
        let run = try await seeder(
            ["validate", "app-tasklist.yaml", "app-dumps", "--diagnostics", "github"], in: scratch.path("repo"),
            environment: ["GITHUB_WORKSPACE": scratch.path("workspace")])
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("::error file=app-dumps/task_list.json,line=5,col=129,title=seeder type::"))
        let inside = try await seeder(
            ["validate", "../app-tasklist.yaml", "../app-dumps", "--diagnostics", "github"], in: scratch.path("repo/app-dumps"),
            environment: ["GITHUB_WORKSPACE": scratch.path("workspace")])
        #expect(inside.stdout.hasPrefix("::error file=app-dumps/task_list.json,line=5,col=129,title=seeder type::"), "\(inside.stdout)")
    }

    /// A message repeated over many records is annotated three times, the last saying how many
    /// more there are; the report keeps every one.
    @Test func repeatedMessagesAreFolded() async throws {
        let scratch = try CommandTests.tasklist()
        try BadInputCatalog.writeLines((1...40).map { #"{"id": \#($0), "name": "U\#($0)", "age": "\#($0) years"}"# }, in: scratch.root)
        let run = try await seeder(["validate", "lines.yaml", "lines", "--diagnostics", "github"], in: scratch.root)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("::error file=lines/users.jsonl,line=") })
        #expect(lines.last?.hasSuffix("%0A... and 37 more like this") == true)
    }

    /// A JSON document on standard output keeps it to itself: the annotations go to standard error.
    @Test func aJSONDocumentKeepsStandardOutput() async throws {
        let scratch = try Self.broken()
        let run = try await seeder(["validate", "tasklist.yaml", "dumps", "--json", "--diagnostics", "github"], in: scratch.root)
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("{"))
        #expect(!run.stdout.contains("::error"))
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("::") } == Self.annotations)
    }

    /// `GITHUB_STEP_SUMMARY` gets build's and validate's summary appended, as markdown.
    @Test func buildAppendsItsSummary() async throws {
        let scratch = try CommandTests.tasklist()
        let summary = scratch.path("summary.md")
        try "earlier step\n".write(toFile: summary, atomically: true, encoding: .utf8)
        let built = try await seeder(
            ["build", "tasklist.yaml", "dumps", "-o", "seed.sqlite"], in: scratch.root, environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(built.status == 0)
        #expect(
            try String(contentsOfFile: summary, encoding: .utf8) == """
                earlier step
                ### seeder build: wrote `seed.sqlite`

                | entity | records | rows | merged | conflicts | references | dropped |
                |---|--:|--:|--:|--:|--:|--:|
                | User | 6 | 3 | 3 | 0 | 0 | 0 |
                | Project | 3 | 3 | 0 | 0 | 3 | 0 |
                | Task | 7 | 7 | 0 | 0 | 14 | 0 |


                """)
        let broken = try Self.broken()
        let failed = try await seeder(
            ["validate", "tasklist.yaml", "dumps"], in: broken.root, environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(failed.status == 1)
        let text = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(text.contains("### seeder validate failed: 2 errors, 0 warnings\n\n```\n"))
        #expect(text.contains("dumps/task_list.json:5:129: error: Task 1: 'completed' is \"maybe\""))
    }

    /// A summary path that cannot be written is told, and the build goes on.
    @Test func anUnwritableSummaryIsAWarning() async throws {
        let scratch = try CommandTests.tasklist()
        let run = try await seeder(
            ["build", "tasklist.yaml", "dumps", "-o", "seed.sqlite", "--quiet"], in: scratch.root,
            environment: ["GITHUB_STEP_SUMMARY": scratch.path("dumps")])
        #expect(run.status == 0)
        #expect(run.stderr.hasPrefix("warning: cannot write the step summary \(scratch.path("dumps")): "))
        #expect(FileManager.default.fileExists(atPath: scratch.path("seed.sqlite")))
    }

    /// A diff too long for GitHub's summary (1 MiB a step) is cut at a line's end, and says so.
    @Test func aLongDiffIsCutInTheSummary() async throws {
        let scratch = try Workspace()
        let fields = (0..<80).map { "f\($0)" }
        try
            ("seeder: 1\nentities:\n  Row:\n    attributes:\n      id: integer\n"
            + fields.map { "      \($0): string\n" }.joined() + "sources:\n  - { path: rows.jsonl, entity: Row }\n")
            .write(toFile: scratch.path("m.yaml"), atomically: true, encoding: .utf8)
        for (name, letter) in [("old", "a"), ("new", "b")] {
            try FileManager.default.createDirectory(atPath: scratch.path(name), withIntermediateDirectories: false)
            let value = String(repeating: letter, count: 400)
            let lines = (1...150).map { id in "{\"id\": \(id), " + fields.map { "\"\($0)\": \"\(value)\"" }.joined(separator: ", ") + "}" }
            try lines.joined(separator: "\n").write(toFile: scratch.path("\(name)/rows.jsonl"), atomically: true, encoding: .utf8)
            #expect(try await seeder(["build", "m.yaml", name, "-o", "\(name).sqlite", "--quiet"], in: scratch.root).status == 0)
        }
        let summary = scratch.path("summary.md")
        let run = try await seeder(["diff", "old.sqlite", "new.sqlite"], in: scratch.root, environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(run.status == 1)
        let text = try Data(contentsOf: URL(fileURLWithPath: summary))
        #expect(text.count <= 900_000 + 200)
        #expect(
            String(decoding: text, as: UTF8.self).hasSuffix(
                "\n*The diff is cut here: GitHub takes at most 1 MiB of summary a step. `seeder diff` prints it whole.*\n"))
    }

    /// A build whose records hold huge unmapped keys keeps its summary well under GitHub's 1 MiB:
    /// the warning names 20 keys and counts the rest, and the summary shows 2,000 bytes of it.
    @Test func hugeUnmappedKeysLeaveTheSummarySmall() async throws {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write(
            "m.yaml", "seeder: 1\nentities:\n  Row:\n    attributes: { id: integer }\nsources:\n  - { path: rows.json, entity: Row }\n")
        let records = (1...60).map { id in "{\"id\": \(id), \"\(id)\(String(repeating: "é", count: 60_000))\": 1}" }
        try scratch.write("dumps/rows.json", "[" + records.joined(separator: ",\n") + "]")
        let summary = scratch.path("summary.md")
        let run = try await seeder(
            ["build", "m.yaml", "dumps", "-o", "seed.sqlite"], in: scratch.root, environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(run.status == 0)
        #expect(run.stderr.contains(" and 40 more\n"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: summary))
        #expect(bytes.count < 10_000, "\(bytes.count) bytes")
        let text = try #require(String(validating: bytes, as: UTF8.self))
        #expect(text.contains("warning: 60 keys are never mapped: Row.10éé"))
        #expect(text.contains(" bytes more)\n"))
    }

    /// A summary past 900 kB is cut at a line's end, said so, within the limit to the byte.
    @Test(arguments: [899_950, 900_000, 2_000_000])
    func aLongSummaryIsCutAtALinesEnd(_ size: Int) throws {
        let scratch = try Workspace()
        let summary = scratch.path("summary.md")
        // Lines of two-byte characters, so that a cut by bytes alone would split one.
        var markdown = ""
        while markdown.utf8.count < size - 1000 { markdown += String(repeating: "é", count: 99) + "\n" }
        markdown += String(repeating: "x", count: size - markdown.utf8.count - 1) + "\n"
        #expect(markdown.utf8.count == size)
        GitHubActions.appendStepSummary(markdown, environment: ["GITHUB_STEP_SUMMARY": summary])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: summary))
        let text = try #require(String(validating: bytes, as: UTF8.self))
        if size <= 900_000 {
            #expect(text == markdown)
            return
        }
        let note = "\n*The summary is cut here: GitHub takes at most 1 MiB of summary a step. The run's log holds every diagnostic.*\n"
        #expect(bytes.count <= 900_000)
        #expect(bytes.count > 900_000 - 200)
        #expect(text.hasSuffix("é\n" + note))
        #expect(markdown.hasPrefix(String(text.dropLast(note.count))))
    }

    /// `diff` appends its markdown, whatever format it prints.
    @Test func diffAppendsItsMarkdown() async throws {
        let scratch = try CommandTests.tasklist()
        #expect(try await seeder(["build", "tasklist.yaml", "dumps", "-o", "old.sqlite", "--quiet"], in: scratch.root).status == 0)
        let users = scratch.path("dumps/users.json")
        try String(contentsOfFile: users, encoding: .utf8).replacingOccurrences(of: "jeff@restkit.org", with: "jeff@example.com")
            .write(toFile: users, atomically: true, encoding: .utf8)
        #expect(try await seeder(["build", "tasklist.yaml", "dumps", "-o", "new.sqlite", "--quiet"], in: scratch.root).status == 0)
        let summary = scratch.path("summary.md")
        let run = try await seeder(["diff", "old.sqlite", "new.sqlite"], in: scratch.root, environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(run.status == 1)
        let markdown = try await seeder(["diff", "old.sqlite", "new.sqlite", "--format", "markdown"], in: scratch.root)
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == markdown.stdout)
        #expect(markdown.stdout.contains("jeff@example.com"))
    }
}
