import Foundation
import SeederFiles
import SeederStore
import SeederTestSupport
import Testing

/// The command's contract (docs/commands.md): diagnostics, exit statuses, reports, atomic output.
struct CommandTests {
    /// A scratch copy of the tasklist example, with files to change.
    static func tasklist() throws -> Workspace {
        let scratch = try Workspace()
        try FileManager.default.copyItem(atPath: repository + "/seeds/tasklist", toPath: scratch.root + "/dumps")
        try FileManager.default.copyItem(atPath: repository + "/mappings/tasklist.yaml", toPath: scratch.root + "/tasklist.yaml")
        return scratch
    }

    @Test func printsItsVersionAndRejectsBadUsage() async throws {
        let version = try await seeder(["--version"])
        #expect(version.status == 0 && version.stdout == "0.1.0\n")
        let usage = try await seeder(["build", "only-one-argument"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("Missing expected argument '<dumps>'"))
        #expect(try await seeder(["build", "m.yaml", "d", "--on-conflict", "sometimes"]).status == 64)
        let negative = try await seeder(["validate", "m.yaml", "d", "--max-errors=-1"])
        #expect(negative.status == 64 && negative.stderr.contains("--max-errors must be 0 or more, not -1"), "\(negative.stderr)")
        // A negative count after a space is the value, refused with its reason (not "Missing value").
        for (arguments, reason) in [
            (["validate", "m.yaml", "d", "--max-errors", "-1"], "--max-errors must be 0 or more, not -1"),
            (["diff", "a.sqlite", "b.sqlite", "--limit", "-1"], "--limit must be 0 or more, not -1."),
            (["diff", "a.sqlite", "b.sqlite", "--format", "markdown", "--max-bytes", "-1"], "--max-bytes must be at least"),
        ] {
            let run = try await seeder(arguments)
            #expect(run.status == 64 && run.stderr.contains(reason), "\(arguments): \(run.stderr)")
        }
    }

    /// `validate`'s last line counts dump files, each once however many sources read it (a page
    /// whose `users` and `posts` are two sources is one file).
    @Test func validateCountsEachDumpFileOnce() async throws {
        let scratch = try Workspace()
        try scratch.write(
            "m.yaml",
            """
            seeder: 1
            entities:
              User: { attributes: { id: integer } }
              Post: { attributes: { id: integer } }
            sources:
              - { path: page.json, entity: User, keyPath: users }
              - { path: page.json, entity: Post, keyPath: posts }
              - { path: more.json, entity: Post }

            """)
        try scratch.write("dumps/page.json", #"{"users": [{"id": 1}], "posts": [{"id": 2}]}"#)
        try scratch.write("dumps/more.json", #"[{"id": 3}]"#)
        let run = try await seeder(["validate", "m.yaml", "dumps"], in: scratch.root)
        #expect(run.status == 0 && run.stdout.hasSuffix("valid: 2 dump files, nothing written\n"), "\(run.stdout)\(run.stderr)")
    }

    @Test func pointsAtMappingErrorsWithTheSourceLineAndACaret() async throws {
        let scratch = try Self.tasklist()
        let yaml = try String(contentsOfFile: scratch.root + "/tasklist.yaml", encoding: .utf8)
            .replacingOccurrences(of: "assignedUser: { to: User,", with: "assignedUser: { to: Usr,")
        try yaml.write(toFile: scratch.root + "/tasklist.yaml", atomically: true, encoding: .utf8)
        let run = try await seeder(["build", "tasklist.yaml", "dumps"], in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stderr == """
                tasklist.yaml:32:27: error: unknown entity 'Usr' in 'to' (did you mean 'User'?)
                      assignedUser: { to: Usr, from: assigned_user_id }
                                          ^
                build failed: 1 error, 0 warnings; nothing was written

                """)
        #expect(run.stdout == "")
        #expect(!FileManager.default.fileExists(atPath: scratch.root + "/tasklist.sqlite"))
    }

    @Test func reportsDataErrorsAndKeepsThePreviousSeed() async throws {
        let scratch = try Self.tasklist()
        #expect(try await seeder(["build", "tasklist.yaml", "dumps", "--quiet"], in: scratch.root).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.root + "/tasklist.sqlite"))
        // A bad identity, a conflict with an embedded copy, and three tasks whose assignee is gone.
        try #"[{"id": 1, "name": "Blake"}, {"id": "two", "name": "Jeff"}, {"id": 3}]"#
            .write(toFile: scratch.root + "/dumps/users.json", atomically: true, encoding: .utf8)
        let tasks = try String(contentsOfFile: scratch.root + "/dumps/task_list.json", encoding: .utf8)
            .replacingOccurrences(of: #""assigned_user_id": 2"#, with: #""assigned_user_id": 22"#)
        try tasks.write(toFile: scratch.root + "/dumps/task_list.json", atomically: true, encoding: .utf8)
        let run = try await seeder(["build", "tasklist.yaml", "dumps"], in: scratch.root)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(
            run.stderr == """
                dumps/users.json:1:37: error: User: 'id' is "two", expected integer  [/1/id]
                dumps/task_list.json:3:31: error: User 1: 'name' conflicts: "Blake Watters" here, "Blake" at dumps/users.json:1:20
                dumps/task_list.json:6:63: error: Task 5 references User 22 (assignedUser), which no record provides  [/0/project/tasks/1/assigned_user_id]
                dumps/task_list.json:13:82: error: Task 8 references User 22 (assignedUser), which no record provides  [/1/project/tasks/0/assigned_user_id]
                dumps/task_list.json:14:62: error: Task 9 references User 22 (assignedUser), which no record provides  [/1/project/tasks/1/assigned_user_id]
                build failed: 5 errors, 0 warnings; nothing was written

                """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.root + "/tasklist.sqlite")) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.root).sorted() == ["dumps", "tasklist.sqlite", "tasklist.yaml"])

        let limited = try await seeder(["validate", "tasklist.yaml", "dumps", "--max-errors", "2"], in: scratch.root)
        #expect(limited.status == 1)
        #expect(limited.stderr.hasSuffix("\n3 more errors not shown (--max-errors)\nvalidation failed: 5 errors, 0 warnings\n"))
    }

    @Test func failsWithStatusTwoOnUnreadableInputs() async throws {
        let scratch = try Self.tasklist()
        let noMapping = try await seeder(["build", "missing.yaml", "dumps"], in: scratch.root)
        #expect(noMapping.status == 2)
        #expect(
            noMapping.stderr
                == "missing.yaml: error: cannot read the mapping file: No such file or directory\nbuild failed: 1 error, 0 warnings; nothing was written\n"
        )
        let noDumps = try await seeder(["validate", "tasklist.yaml", "nowhere"], in: scratch.root)
        #expect(noDumps.status == 2)
        #expect(
            noDumps.stderr
                == "nowhere: error: cannot read the dumps directory: No such file or directory\nvalidation failed: 1 error, 0 warnings\n")
        let intoInput = try await seeder(["build", "tasklist.yaml", "dumps", "-o", "dumps/users.json"], in: scratch.root)
        #expect(intoInput.status == 2)
        #expect(
            intoInput.stderr
                == "error: the output dumps/users.json is a dump file this build reads\nbuild failed: 1 error, 0 warnings; nothing was written\n"
        )
    }

    @Test func treatsWarningsAsErrorsWhenStrict() async throws {
        let scratch = try Self.tasklist()
        try "[]".write(toFile: scratch.root + "/dumps/extra.json", atomically: true, encoding: .utf8)
        let relaxed = try await seeder(["build", "tasklist.yaml", "dumps", "--quiet"], in: scratch.root)
        #expect(relaxed.status == 0)
        #expect(relaxed.stderr == "dumps/extra.json: warning: no source reads this dump file\n")
        let strict = try await seeder(["validate", "tasklist.yaml", "dumps", "--strict"], in: scratch.root)
        #expect(strict.status == 1)
        #expect(
            strict.stderr
                == "dumps/extra.json: error: no source reads this dump file\nvalidation failed: 1 error, 0 warnings\n"
        )
    }

    @Test func writesAJSONReportAndValidatesToJSON() async throws {
        let scratch = try Self.tasklist()
        let run = try await seeder(
            ["build", "tasklist.yaml", "dumps", "--report", "report.json", "--quiet", "-o", "out.sqlite"], in: scratch.root)
        #expect(run.status == 0 && run.stdout == "")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.root + "/report.json"))) as? [String: Any])
        #expect(report["outcome"] as? String == "success")
        #expect(report["output"] as? String == "out.sqlite")
        let entities = try #require(report["entities"] as? [[String: Any]])
        #expect(entities.map { $0["name"] as? String } == ["User", "Project", "Task"])
        #expect(entities.map { $0["rowsWritten"] as? Int } == [3, 3, 7])

        let validation = try await seeder(["validate", "tasklist.yaml", "dumps", "--json"], in: scratch.root)
        #expect(validation.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(validation.stdout.utf8)) as? [String: Any])
        #expect(document["command"] as? String == "validate")
        #expect((document["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(
            validation.stdout.hasPrefix(
                #"{"seeder":"\#(SeedBuilder.version)","format":1,"command":"validate","outcome":"success","exitStatus":0,"output":null,"#))
        // The rows the seed would hold, which validate writes into its temporary seed, as build's.
        let validated = try #require(document["entities"] as? [[String: Any]])
        #expect(validated.map { $0["rowsWritten"] as? Int } == [3, 3, 7])
        let summary = try await seeder(["validate", "tasklist.yaml", "dumps"], in: scratch.root)
        #expect(summary.stdout.contains("User           6     3       3"), "\(summary.stdout)")
    }

    @Test func namesTheOutputAfterTheMappingAndCleansUpAKilledBuild() async throws {
        let scratch = try Self.tasklist()
        var yaml = try String(contentsOfFile: scratch.root + "/tasklist.yaml", encoding: .utf8)
        yaml = yaml.replacingOccurrences(of: "output: tasklist.sqlite\n", with: "")
        try yaml.write(toFile: scratch.root + "/tasks.yaml", atomically: true, encoding: .utf8)
        // What a killed build leaves behind.
        try "partial".write(toFile: scratch.root + "/.tasks.sqlite.seeder-tmp", atomically: true, encoding: .utf8)
        try "partial".write(toFile: scratch.root + "/.tasks.sqlite.seeder-work", atomically: true, encoding: .utf8)
        let run = try await seeder(["build", "tasks.yaml", "dumps"], in: scratch.root)
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("wrote tasks.sqlite\n"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.root).sorted() == [
                "dumps", "tasklist.yaml", "tasks.sqlite", "tasks.yaml",
            ])
    }

    @Test func leavesNoTemporaryFileWhenInterrupted() async throws {
        let scratch = try Workspace()
        try FileManager.default.createDirectory(atPath: scratch.root + "/dumps", withIntermediateDirectories: true)
        try "seeder: 1\nentities:\n  Pod:\n    attributes: { id: integer, name: string }\n"
            .write(toFile: scratch.root + "/pods.yaml", atomically: true, encoding: .utf8)
        // Large enough that the build is still reading when the signal comes.
        var text = "["
        for id in 1...400_000 { text += "{\"id\":\(id),\"name\":\"pod \(id)\"}," }
        text += "{\"id\":0}]"
        try text.write(toFile: scratch.root + "/dumps/pods.json", atomically: true, encoding: .utf8)
        // Not a seed, so replacing it takes --force; even so, an interrupted build leaves it.
        try "previous".write(toFile: scratch.root + "/pods.sqlite", atomically: true, encoding: .utf8)
        let build = try RunningProgram(
            try seederBinary(), ["build", "pods.yaml", "dumps", "--quiet", "--force"], in: scratch.root, environment: programEnvironment())
        // Wait until the build has made its working file, then interrupt it.
        let work = scratch.root + "/.pods.sqlite.seeder-work"
        let deadline = Date().addingTimeInterval(20)
        // Polled on this thread: the file must be seen within milliseconds, which an await that
        // resumes on a busy pool would miss.
        while !FileManager.default.fileExists(atPath: work), Date() < deadline { usleep(5_000) }
        #expect(FileManager.default.fileExists(atPath: work))
        build.send(SIGINT)
        #expect(await build.finished().status == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root).sorted() == ["dumps", "pods.sqlite", "pods.yaml"])
        #expect(try String(contentsOfFile: scratch.root + "/pods.sqlite", encoding: .utf8) == "previous")
    }

    @Test func showsAProgressLineWhenAsked() async throws {
        let scratch = try Self.tasklist()
        let run = try await seeder(["build", "tasklist.yaml", "dumps", "--progress", "always", "--quiet"], in: scratch.root)
        #expect(run.status == 0)
        #expect(run.stderr.contains("resolving: 1 kB of 1 kB (100%)"))
        #expect(run.stderr.contains("writing: 1 kB of 1 kB (100%)"))
        #expect(try await seeder(["build", "tasklist.yaml", "dumps", "--quiet"], in: scratch.root).stderr == "")
    }

    /// Standard error folds a message repeated over records; the report keeps every one.
    @Test func foldsRepeatedMessagesButReportsEveryOne() async throws {
        let scratch = try CommandTests.tasklist()
        try BadInputCatalog.writeLines((1...40).map { #"{"id": \#($0), "name": "U\#($0)", "age": "\#($0) years"}"# }, in: scratch.root)
        let run = try await seeder(["validate", "lines.yaml", "lines", "--report", "report.json"], in: scratch.root)
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 5, "three errors, the count, the summary: \(run.stderr)")
        #expect(run.stderr.contains("\n... and 37 more like this\n"))
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.root + "/report.json"))) as? [String: Any])
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        #expect(
            diagnostics.compactMap { $0["message"] as? String } == (1...40).map { "User \($0): 'age' is \"\($0) years\", expected integer" }
        )
    }
}
