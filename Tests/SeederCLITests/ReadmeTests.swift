import Foundation
import GRDB
import SeederTestSupport
import Testing

/// README.md's first screen and its tour, run as a newcomer would: the build it shows prints
/// what it shows, the tour's mapping builds the example's dumps, and the problems it shows are
/// what the binary says of the mistakes it names.
struct ReadmeTests {
    static let readme = "README.md"

    /// The README's text, and its `yaml` block under "A tour of a mapping".
    static func tour() throws -> String {
        let text = try String(contentsOfFile: repository + "/" + readme, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## A tour of a mapping").dropFirst().first)
        return try #require(section.components(separatedBy: "```yaml\n").dropFirst().first?.components(separatedBy: "```\n").first)
    }

    /// A workspace with the example's mapping and dumps where the README's commands expect
    /// them, and the tour's mapping beside them.
    static func workspace() throws -> Workspace {
        let scratch = try Workspace(directories: ["mappings", "seeds"])
        try FileManager.default.copyItem(atPath: repository + "/mappings/tasklist.yaml", toPath: scratch.path("mappings/tasklist.yaml"))
        try FileManager.default.copyItem(atPath: repository + "/seeds/tasklist", toPath: scratch.path("seeds/tasklist"))
        try FileManager.default.copyItem(atPath: repository + "/seeds/tasklist", toPath: scratch.path("dumps"))
        try scratch.write("mapping.yaml", try tour())
        return scratch
    }

    @Test func theFirstScreenBuildPrintsWhatItShows() async throws {
        let transcript = try ConsoleTranscript(page: Self.readme, repository: repository)
        #expect(transcript.blocks.map(\.count) == [1, 2])
        let scratch = try Self.workspace()
        let step = try #require(transcript.blocks.first?.first)
        #expect(step.words == ["seeder", "build", "mappings/tasklist.yaml", "seeds/tasklist"])
        let run = try await seeder(Array(step.words.dropFirst()), in: scratch.root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(run.stdout == step.output, "printed:\n\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("tasklist.sqlite")))
    }

    /// The tour's mapping builds the example's dumps with no warning, into the rows the
    /// example's own mapping makes.
    @Test func theTourBuildsTheExamplesDumps() async throws {
        let scratch = try Self.workspace()
        let tour = try await seeder(["build", "mapping.yaml", "dumps", "--strict", "-o", "tour.sqlite"], in: scratch.root)
        #expect(tour.status == 0 && tour.stderr == "", "\(tour.stderr)")
        let example = try await seeder(["build", "mappings/tasklist.yaml", "seeds/tasklist", "-o", "example.sqlite"], in: scratch.root)
        #expect(example.status == 0, "\(example.stderr)")
        func rows(_ file: String) throws -> [String: [[String]]] {
            try DatabaseQueue(path: scratch.path(file)).read { db in
                try [
                    "user": "SELECT id, name, email FROM user ORDER BY id",
                    "project": "SELECT id, name, description, task_count, user_id FROM project ORDER BY id",
                    "task": "SELECT id, name, due_at, completed, project_id, assigned_user_id FROM task ORDER BY id",
                ].mapValues { sql in
                    try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map(\.description) }
                }
            }
        }
        let built = try rows("tour.sqlite")
        #expect(built.values.map(\.count).reduce(0, +) == 13)
        #expect(built == (try rows("example.sqlite")))
    }

    /// The problems the README shows are what the binary prints for the mistakes each command's
    /// comment (which `ConsoleTranscript` leaves out of its words) names, made here to the tour's
    /// mapping and the example's dumps.
    @Test func theProblemsShownAreWhatTheBuildSays() async throws {
        let transcript = try ConsoleTranscript(page: Self.readme, repository: repository)
        let steps = try #require(transcript.blocks.dropFirst().first)
        try #require(steps.count == 2)
        let mistakes: [(Workspace) throws -> Void] = [
            { scratch in
                let lines = try Self.tour().components(separatedBy: "\n")
                // The comment says the line; the mistake is made there, and only there.
                #expect(lines[16].contains("user: { to: User }"), "\(lines[16])")
                var changed = lines
                changed[16] = lines[16].replacingOccurrences(of: "to: User", with: "to: Usr")
                try scratch.write("mapping.yaml", changed.joined(separator: "\n"))
            },
            { scratch in
                let tasks = try String(contentsOfFile: scratch.path("dumps/task_list.json"), encoding: .utf8)
                try scratch.write(
                    "dumps/task_list.json", tasks.replacingOccurrences(of: #""completed": "no""#, with: #""completed": "maybe""#))
                let users = try String(contentsOfFile: scratch.path("dumps/users.json"), encoding: .utf8)
                try scratch.write("dumps/users.json", users.replacingOccurrences(of: "\"Blake Watters\"", with: "\"Blake W.\""))
            },
        ]
        for (step, mistake) in zip(steps, mistakes) {
            let scratch = try Self.workspace()
            try mistake(scratch)
            let run = try await seeder(Array(step.words.dropFirst()), in: scratch.root)
            #expect(run.status == 1, "\(step.words)")
            #expect(run.stdout + run.stderr == step.output, "\(step.words) printed:\n\(run.stdout + run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: scratch.path("tasklist.sqlite")))
        }
    }
}
