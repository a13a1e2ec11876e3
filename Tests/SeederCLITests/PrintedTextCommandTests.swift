import Foundation
import SeederTestSupport
import Testing

/// Data never becomes a workflow command or a terminal's control (docs/commands.md, Printed
/// text; docs/ci.md): identities, keys, file names, table and column names, through the real
/// binary, in every form the commands print.
struct PrintedTextCommandTests {
    static let forgedIdentity = "A\n::add-mask::X\n::warning file=README.md,line=1::forged"
    static let forgedKey = "k\n::error::forged"
    static let retitle = "\u{1B}]0;PWNED\u{07}\u{1B}[2J"

    static let mapping = """
        seeder: 1
        entities:
          User:
            attributes:
              id: string
              name: string
        sources:
          - { path: users.json, entity: User }
        """

    /// A dump whose string identity repeats with two names (a conflict, which names the
    /// identity), and a record with keys no attribute maps (a warning, which names them).
    static func hostile(identity: String = forgedIdentity, keys: [String] = [forgedKey, "##[add-mask]z"]) throws -> Workspace {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("mapping.yaml", mapping)
        let id = literal(identity)
        let extra = keys.map { literal($0) + ":1" }.joined(separator: ",")
        try scratch.write(
            "dumps/users.json", #"[{"id":\#(id),"name":"x"},{"id":\#(id),"name":"y"},{"id":"B"\#(keys.isEmpty ? "" : ",")\#(extra)}]"#)
        return scratch
    }

    /// `text` as a JSON string, every control character as `\u00XX`.
    static func literal(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0) }.joined() + "\""
    }

    /// The lines of `text` that GitHub's runner would read as a command: `::` at the start
    /// after white space, or `##[` anywhere.
    static func commands(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { line in
            line.drop { $0.isWhitespace }.hasPrefix("::") || line.contains("##[")
        }
    }

    static let conflictLine =
        #"dumps/users.json:1:169: error: User A\n::add-mask::X\n::warning file=README.md,line=1::forged: 'name' conflicts: "y" here, "x" at dumps/users.json:1:83"#
    static let keysLine = #"mapping.yaml:3:3: warning: 2 keys are never mapped: User.##\u005badd-mask]z, User.k\n::error::forged"#
    static let annotations = [
        #"::error file=dumps/users.json,line=1,col=169,title=seeder conflict::User A\n::add-mask::X\n::warning file=README.md,line=1::forged: 'name' conflicts: "y" here, "x" at dumps/users.json:1:83"#,
        #"::warning file=mapping.yaml,line=3,col=3,title=seeder unmapped-key::2 keys are never mapped: User.##\u005badd-mask]z, User.k\n::error::forged"#,
    ]

    /// build and validate, with `--diagnostics github` and `text`: the only commands printed
    /// are seeder's own annotations, one a diagnostic, their data escaped.
    @Test(arguments: ["build", "validate"], ["github", "text"])
    func identitiesAndKeysNeverBecomeCommands(command: String, format: String) async throws {
        let scratch = try Self.hostile()
        let run = try await seeder(
            [command, "mapping.yaml", "dumps", "--diagnostics", format] + (command == "build" ? ["-o", "seed.sqlite"] : []),
            in: scratch.root)
        #expect(run.status == 1)
        let failed = command == "build" ? "build failed: 1 error, 1 warning; nothing was written" : "validation failed: 1 error, 1 warning"
        #expect(run.stderr == [Self.conflictLine, Self.keysLine, "  User:", "  ^", failed, ""].joined(separator: "\n"))
        #expect(Self.commands(run.stderr) == [])
        #expect(run.stdout == (format == "github" ? Self.annotations.joined(separator: "\n") + "\n" : ""))
        #expect(Self.commands(run.stdout) == (format == "github" ? Self.annotations : []))
    }

    /// An identity that would retitle a terminal and clear its screen is printed escaped: no ESC
    /// or BEL reaches standard error, standard output or the JSON document.
    @Test func terminalControlsAreEscaped() async throws {
        let scratch = try Self.hostile(identity: Self.retitle, keys: [])
        for format in ["text", "github"] {
            let run = try await seeder(["validate", "mapping.yaml", "dumps", "--diagnostics", format], in: scratch.root)
            #expect(run.status == 1)
            let line = #"User \u001b]0;PWNED\u0007\u001b[2J: 'name' conflicts: "y" here, "x" at dumps/users.json:1:47"#
            #expect(run.stderr.hasPrefix("dumps/users.json:1:97: error: " + line + "\n"))
            #expect(!(run.stdout + run.stderr).unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
            #expect(format == "text" || run.stdout.contains("title=seeder conflict::" + line))
        }
        let json = try await seeder(["validate", "mapping.yaml", "dumps", "--json"], in: scratch.root)
        #expect(json.status == 1)
        #expect(!json.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
        #expect(json.stdout.contains(#""message":"User \u001b]0;PWNED\u0007\u001b[2J: 'name' conflicts: \"y\" here, \"x\"""#))
    }

    /// A JSON document on standard output holds no `##[` and no raw C1 control, yet stays valid
    /// JSON with the same strings: its escapes are JSON's.
    @Test func jsonDocumentsKeepTheirStrings() async throws {
        let scratch = try Self.hostile(identity: "A\u{9B}2J", keys: ["##[add-mask]z"])
        let run = try await seeder(["validate", "mapping.yaml", "dumps", "--json"], in: scratch.root)
        #expect(run.status == 1)
        #expect(!run.stdout.contains("##[") && !run.stdout.unicodeScalars.contains("\u{9B}"))
        #expect(run.stdout.contains(#""message":"User A\u009b2J: 'name' conflicts"#))
        #expect(run.stdout.contains(#""message":"1 key is never mapped: User.##\u005badd-mask]z""#))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let messages = (document["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages == [#"User A\#u{9B}2J: 'name' conflicts: "y" here, "x""#, "1 key is never mapped: User.##[add-mask]z"])
        // `text` is the printed line: escaped, a backslash where `message` holds the character.
        let texts = (document["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        #expect(texts.last == #"mapping.yaml:3:3: warning: 1 key is never mapped: User.##\u005badd-mask]z"#)
    }

    /// The step summary's diagnostics are fenced longer than any run of backticks in them: a key
    /// holding a fence and a heading stays inside the block.
    @Test func aKeyCannotCloseTheStepSummarysFence() async throws {
        let scratch = try Self.hostile(identity: "A", keys: ["k\n```\n## x"])
        let summary = scratch.path("summary.md")
        let run = try await seeder(["validate", "mapping.yaml", "dumps"], in: scratch.root, environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(run.status == 1)
        #expect(
            try String(contentsOfFile: summary, encoding: .utf8) == """
                ### seeder validate failed: 1 error, 1 warning

                ````
                dumps/users.json:1:41: error: User A: 'name' conflicts: "y" here, "x" at dumps/users.json:1:19
                mapping.yaml:3:3: warning: 1 key is never mapped: User.k\\n```\\n## x
                ````


                """)
    }

    /// A dump file's name is data too: escaped in infer's diagnostics on standard error, its
    /// annotations and validate's lines.
    @Test func fileNamesAreEscaped() async throws {
        let scratch = try Workspace(directories: ["dumps"])
        let name = "\u{1B}]0;PWNED\u{07}\n::error::f.json"
        try scratch.write("dumps/" + name, #"[{"id": 1,}]"#)
        let inferred = try await seeder(["infer", "dumps", "--diagnostics", "github"], in: scratch.root)
        #expect(inferred.status == 1)
        let file = #"dumps/\u001b]0;PWNED\u0007\n::error::f.json"#
        #expect(inferred.stderr.hasPrefix(file + ":1:10: error: trailing comma\n"))
        #expect(
            inferred.stderr.contains(
                "\n::error file=dumps/\\u001b]0;PWNED\\u0007\\n%3A%3Aerror%3A%3Af.json,line=1,col=10,title=seeder syntax::trailing comma\n")
        )
        #expect(Self.commands(inferred.stderr).count == 1)
        #expect(Self.commands(inferred.stdout) == [])
    }

    // MARK: diff, patch and inspect

    static let table = "t\n</details>\n::error::T"
    static let column = "c\n</details>##[add-mask]c"

    /// Two seeds whose one table and one column are named with a line feed, `</details>`, `::`
    /// and `##[` (renamed with SQL after the build), the new one with a row changed and a row added.
    static func hostileSeeds() async throws -> Workspace {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("mapping.yaml", mapping)
        try scratch.write("dumps/users.json", #"[{"id": "a", "name": "x"}, {"id": "b", "name": "y"}]"#)
        let built = try await seeder(["build", "mapping.yaml", "dumps", "-o", "old.sqlite", "--quiet"], in: scratch.root)
        #expect(built.status == 0, "\(built.stderr)")
        let (table, column) = (SeedTables.quote(Self.table), SeedTables.quote(Self.column))
        let old = try RawDatabase(scratch.path("old.sqlite"))
        try old.execute("ALTER TABLE user RENAME TO \(table)")
        try old.execute("ALTER TABLE \(table) RENAME COLUMN name TO \(column)")
        try FileManager.default.copyItem(atPath: scratch.path("old.sqlite"), toPath: scratch.path("new.sqlite"))
        let new = try RawDatabase(scratch.path("new.sqlite"))
        try new.execute("UPDATE \(table) SET \(column) = 'z' WHERE id = 'a'")
        try new.execute("INSERT INTO \(table)(id, \(column)) VALUES ('c', 'w')")
        return scratch
    }

    @Test func diffEscapesTableAndColumnNamesInText() async throws {
        let scratch = try await Self.hostileSeeds()
        let run = try await seeder(["diff", "old.sqlite", "new.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stdout == #"""
                entity                     added  removed  changed  unchanged
                t\n</details>\n::error::T      1        0        1          1

                t\n</details>\n::error::T: 1 added, 1 changed
                  ~ t\n</details>\n::error::T a
                      c\n</details>##\u005badd-mask]c: "x" -> "z"
                  + t\n</details>\n::error::T c: c\n</details>##\u005badd-mask]c "w"

                the seeds differ: 1 added, 0 removed, 1 changed records

                """#)
        #expect(Self.commands(run.stdout) == [] && run.stderr == "")
    }

    /// In markdown a name is a code span, or code in HTML (`&lt;/details&gt;`): the
    /// `<details>` block ends where seeder ends it, and every row stays on its line.
    @Test func diffEscapesTableAndColumnNamesInMarkdown() async throws {
        let scratch = try await Self.hostileSeeds()
        let run = try await seeder(["diff", "old.sqlite", "new.sqlite", "--format", "markdown"], in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stdout == #"""
                ### seeder diff: 1 added, 0 removed, 1 changed records

                `old.sqlite` → `new.sqlite`

                | entity | added | removed | changed | unchanged |
                |:--|--:|--:|--:|--:|
                | `t\n</details>\n::error::T` | 1 | 0 | 1 | 1 |

                <details><summary><code>t\n&lt;/details&gt;\n::error::T</code>: 1 added, 1 changed</summary>

                - changed `t\n</details>\n::error::T` `a`: `c\n</details>##\u005badd-mask]c` `"x"` → `"z"`
                - added `t\n</details>\n::error::T` `c`: `c\n</details>##\u005badd-mask]c` `"w"`

                </details>

                """#)
        // One `</details>` closes a block: the others are inside code spans, text.
        #expect(run.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("</details>") } == ["</details>"])
        #expect(Self.commands(run.stdout) == [])
    }

    /// diff's `--changeset` line, patch's conflict and inspect's table name them escaped.
    @Test func patchAndInspectEscapeTableNames() async throws {
        let scratch = try await Self.hostileSeeds()
        let written = try await seeder(["diff", "old.sqlite", "new.sqlite", "--changeset", "change.bin"], in: scratch.root)
        #expect(written.stderr == #"wrote change.bin (400 bytes): 2 rows of t\n</details>\n::error::T"# + "\n")
        let patched = try await seeder(["patch", "new.sqlite", "change.bin", "-o", "out.sqlite"], in: scratch.root)
        #expect(patched.status == 1)
        #expect(
            patched.stderr
                == #"error: the changeset change.bin conflicts with the working copy in t\n</details>\n::error::T, row id = 'c': "#
                + "CONFLICT (the app inserted a row with the key the seed inserts); the patch was abandoned, nothing was applied\n")
        let inspected = try await seeder(["inspect", "new.sqlite"], in: scratch.root)
        #expect(inspected.status == 0)
        #expect(inspected.stdout.hasSuffix("\ntables\n  table                      rows  holds\n  t\\n</details>\\n::error::T     3  \n"))
        #expect(Self.commands(written.stderr + patched.stderr + inspected.stdout) == [])
    }
}

extension PrintedTextCommandTests {
    /// docs/commands.md (Printed text) and docs/ci.md show what these tests see printed.
    @Test func theDocsShowWhatIsPrinted() async throws {
        let commands = try String(contentsOfFile: repository + "/docs/commands.md", encoding: .utf8)
        let ci = try String(contentsOfFile: repository + "/docs/ci.md", encoding: .utf8)
        #expect(commands.contains("\n" + Self.conflictLine + "\n"))
        #expect(ci.contains("\n  " + Self.annotations[0] + "\n"))
        let scratch = try await Self.hostileSeeds()
        let text = try await seeder(["diff", "old.sqlite", "new.sqlite"], in: scratch.root).stdout
        #expect(
            commands.contains(
                "```\n" + text.split(separator: "\n", omittingEmptySubsequences: false).prefix(6).joined(separator: "\n") + "\n```\n"))
        let markdown = try await seeder(["diff", "old.sqlite", "new.sqlite", "--format", "markdown"], in: scratch.root).stdout
        let rows = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(commands.contains("```markdown\n" + rows[6...10].joined(separator: "\n") + "\n```\n"))
    }
}
