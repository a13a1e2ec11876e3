import Foundation
import GRDB
import SeederTestSupport
import Testing

/// A typo in a mapping's key does not pass silently (docs/mapping.md, Unmapped keys and keys
/// that match nothing): the real binary warns, and `--strict` fails the build and keeps the
/// previous seed.
struct KeyTypoCommandTests {
    static let mapping = """
        seeder: 1
        output: github.sqlite
        entities:
          Repository:
            ignore: [node_id, watchers_count]
            attributes:
              id: integer
              name: string
              stars: { type: integer, from: stargazer_count }
        sources:
          - path: repos.json
            entity: Repository

        """

    /// Twelve repositories as an API dump has them, with keys nobody wants.
    static func scratch() throws -> Workspace {
        let scratch = try Workspace()
        try FileManager.default.createDirectory(atPath: scratch.root + "/dumps", withIntermediateDirectories: true)
        try mapping.write(toFile: scratch.root + "/github.yaml", atomically: true, encoding: .utf8)
        let repositories = (1...12).map {
            #"{"id": \#($0), "node_id": "R_\#($0)", "name": "repo\#($0)", "stargazers_count": \#($0 * 10), "watchers_count": \#($0)}"#
        }
        try ("[" + repositories.joined(separator: ",\n") + "]").write(
            toFile: scratch.root + "/dumps/repos.json", atomically: true, encoding: .utf8)
        return scratch
    }

    static let warnings = """
        github.yaml:4:3: warning: 1 key is never mapped: Repository.stargazers_count
          Repository:
          ^
        github.yaml:9:7: warning: Repository.stars: 'stargazer_count' matched no key in 12 records (did you mean 'stargazers_count'?)
              stars: { type: integer, from: stargazer_count }
              ^

        """

    @Test func warnsAboutATypoAndFailsWithStrictKeepingThePreviousSeed() async throws {
        let scratch = try Self.scratch()
        let relaxed = try await seeder(["build", "github.yaml", "dumps", "--quiet"], in: scratch.root)
        #expect(relaxed.status == 0)
        #expect(relaxed.stderr == Self.warnings)
        let stars = try await DatabaseQueue(path: scratch.root + "/github.sqlite").read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM repository WHERE stars IS NULL")
        }
        #expect(stars == 12)
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.root + "/github.sqlite"))

        let strict = try await seeder(["build", "github.yaml", "dumps", "--strict", "--report", "report.json"], in: scratch.root)
        #expect(strict.status == 1)
        #expect(strict.stdout == "")
        // Each warning is an error, as a compiler's warnings-as-errors makes it.
        #expect(
            strict.stderr == Self.warnings.replacingOccurrences(of: ": warning: ", with: ": error: ")
                + "build failed: 2 errors, 0 warnings; nothing was written\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.root + "/github.sqlite")) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.root).sorted() == [
                "dumps", "github.sqlite", "github.yaml", "report.json",
            ])

        // The report lists each warning with its location, and the key never mapped.
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.root + "/report.json"))) as? [String: Any])
        #expect(report["outcome"] as? String == "invalid")
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["severity"] as? String } == ["error", "error"])
        #expect(diagnostics.map { $0["code"] as? String } == ["unmapped-key", "no-match"])
        #expect(
            diagnostics.map { $0["message"] as? String } == [
                "1 key is never mapped: Repository.stargazers_count",
                "Repository.stars: 'stargazer_count' matched no key in 12 records (did you mean 'stargazers_count'?)",
            ])
        let locations = diagnostics.map { $0["location"] as? [String: Any] }
        #expect(locations.map { $0?["line"] as? Int } == [4, 9])
        #expect(locations.map { $0?["column"] as? Int } == [3, 7])
        #expect(locations.map { $0?["file"] as? String } == ["github.yaml", "github.yaml"])

        // On GitHub, each is an ::error annotation on its line.
        let annotated = try await seeder(["build", "github.yaml", "dumps", "--strict", "--diagnostics", "github"], in: scratch.root)
        #expect(annotated.status == 1)
        let annotations = annotated.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(
            annotations == [
                "::error file=github.yaml,line=4,col=3,title=seeder unmapped-key::1 key is never mapped: Repository.stargazers_count",
                "::error file=github.yaml,line=9,col=7,title=seeder no-match::Repository.stars: 'stargazer_count' matched no key in 12 records (did you mean 'stargazers_count'?)",
            ], "\(annotated.stdout)\n\(annotated.stderr)")
        let entities = try #require(report["entities"] as? [[String: Any]])
        #expect(entities.map { $0["unmappedKeys"] as? [String] } == [["stargazers_count"]])

        // Fixed, the strict build is clean and fills the column.
        let fixed = Self.mapping.replacingOccurrences(of: "from: stargazer_count", with: "from: stargazers_count")
        try fixed.write(toFile: scratch.root + "/github.yaml", atomically: true, encoding: .utf8)
        let clean = try await seeder(["build", "github.yaml", "dumps", "--strict", "--quiet"], in: scratch.root)
        #expect(clean.status == 0)
        #expect(clean.stderr == "")
        let total = try await DatabaseQueue(path: scratch.root + "/github.sqlite").read { db in
            try Int.fetchOne(db, sql: "SELECT SUM(stars) FROM repository")
        }
        #expect(total == 780)
    }

    @Test func pointsAtAnIgnoreEntryThatIsNotAKey() async throws {
        let scratch = try Self.scratch()
        let yaml = Self.mapping.replacingOccurrences(of: "ignore: [node_id, watchers_count]", with: "ignore: [node_id, name]")
        try yaml.write(toFile: scratch.root + "/github.yaml", atomically: true, encoding: .utf8)
        let run = try await seeder(["validate", "github.yaml", "dumps"], in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stderr == """
                github.yaml:5:23: error: 'name' is in 'ignore' of entity 'Repository', but attribute 'name' reads it
                    ignore: [node_id, name]
                                      ^
                validation failed: 1 error, 0 warnings

                """)
    }

    /// docs/mapping.md's example of a key one release lacks, read with `default: null`: no
    /// warning, `--strict` passes, the column NULL; on a required attribute, an error at the null.
    @Test func aKeyOneReleaseLacksIsReadWithANullDefault() async throws {
        let docs = try String(contentsOfFile: repository + "/docs/mapping.md", encoding: .utf8)
        let example = try #require(docs.components(separatedBy: "is declared with `default: null`").dropFirst().first)
        let mapping = try WhereCommandTests.block("yaml", in: example)
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("mapping.yaml", mapping)
        try scratch.write("dumps/players.json", #"[{"id": 1, "name": "Ada", "stats": "9"}, {"id": 2, "name": "Bo", "stats": "7"}]"#)
        let strict = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite", "--strict", "--quiet"], in: scratch.root)
        #expect(strict.status == 0, "\(strict.stderr)")
        #expect(!strict.stderr.contains("rank"), "\(strict.stderr)")
        let ranks = try await DatabaseQueue(path: scratch.path("seed.sqlite")).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM player WHERE rank IS NULL")
        }
        #expect(ranks == 2)
        // Without the default, the typo check speaks, and `--strict` fails.
        try scratch.write("mapping.yaml", mapping.replacingOccurrences(of: "{ type: integer, default: null }", with: "integer"))
        let warned = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite", "--strict", "--quiet"], in: scratch.root)
        #expect(warned.status == 1)
        #expect(warned.stderr.contains("error: Player.rank: 'rank' matched no key in 2 records"), "\(warned.stderr)")

        try scratch.write(
            "mapping.yaml", mapping.replacingOccurrences(of: "default: null }", with: "required: true, default: null }"))
        let required = try await seeder(["validate", "mapping.yaml", "dumps"], in: scratch.root)
        #expect(required.status == 1)
        #expect(
            required.stderr.hasPrefix(
                "mapping.yaml:9:55: error: 'default' cannot be null on a required attribute: a row without the key would break it\n"),
            "\(required.stderr)")
    }

    /// docs/mapping.md's example of an `ignore:` entry no record has: one near no key the records
    /// have is a note that `--strict` keeps a note (a key of another release of the service), one
    /// near a key is a typo's warning that `--strict` makes an error.
    @Test func anIgnoredKeyNoRecordHasIsANoteUnlessItIsNearAKey() async throws {
        let docs = try String(contentsOfFile: repository + "/docs/mapping.md", encoding: .utf8)
        let example = try #require(docs.components(separatedBy: "one of which dropped `past_stats`").dropFirst().first)
        let mapping = try WhereCommandTests.block("yaml", in: example)
        // The block after the mapping's: past its closing fence.
        let rest = try #require(example.components(separatedBy: mapping).last)
        let printed = try WhereCommandTests.block("", in: String(rest[try #require(rest.range(of: "\n```\n")).upperBound...]))
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("mapping.yaml", mapping)
        try scratch.write("dumps/players.json", #"[{"id": 1, "name": "Ada", "stats": "9"}, {"id": 2, "name": "Bo", "stats": "7"}]"#)
        func locatedLines(_ text: String) -> String {
            text.split(separator: "\n").filter { $0.hasPrefix("mapping.yaml:") }.joined(separator: "\n")
        }

        let relaxed = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite", "--quiet"], in: scratch.root)
        #expect(relaxed.status == 0)
        #expect(locatedLines(relaxed.stderr) == printed)
        let strict = try await seeder(["build", "mapping.yaml", "dumps", "-o", "strict.sqlite", "--strict"], in: scratch.root)
        #expect(strict.status == 1)
        #expect(locatedLines(strict.stderr) == printed.replacingOccurrences(of: ": warning: ", with: ": error: "))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("strict.sqlite")))

        // The typo fixed, `--strict` passes with the note still said, on GitHub as a notice.
        try scratch.write("mapping.yaml", mapping.replacingOccurrences(of: "[past_stats, stat]", with: "[past_stats]"))
        let fixed = try await seeder(["build", "mapping.yaml", "dumps", "-o", "strict.sqlite", "--strict", "--quiet"], in: scratch.root)
        #expect(fixed.status == 0)
        #expect(locatedLines(fixed.stderr) == "mapping.yaml:4:14: note: Player: ignored key 'past_stats' occurs in no record")
        let annotated = try await seeder(
            ["validate", "mapping.yaml", "dumps", "--strict", "--diagnostics", "github"], in: scratch.root)
        #expect(annotated.status == 0)
        #expect(annotated.stdout.contains("::notice file=mapping.yaml,line=4,col=14"))
    }
}
