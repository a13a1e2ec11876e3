import Foundation
import SeederTestSupport
import Testing

/// `seeder diff` on records shaped as a web API's (docs/commands.md, diff): an added or removed
/// record is told by its telling fields, not by its URLs, and two long values alike in their first
/// 60 characters are shown where they differ. The JSON keeps every field.
struct DiffAPIRecordsTests {
    static let mapping = """
        seeder: 1
        entities:
          User:
            attributes:
              id: integer
              url: string
              html_url: string
              login: string
          Issue:
            attributes:
              id: integer
              url: string
              html_url: string
              number: integer
              title: string
              body: string
            relationships:
              user: { to: User }
        sources:
          - path: users.json
            entity: User
          - path: issues.json
            entity: Issue

        """

    static let long = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor"

    static func user(_ id: Int, _ login: String) -> String {
        #"{"id": \#(id), "url": "https://api.github.com/users/\#(login)", "html_url": "https://github.com/\#(login)", "login": "\#(login)"}"#
    }

    static func issue(_ id: Int, _ number: Int, _ title: String, _ body: String?, user: Int) -> String {
        let repository = "octocat/hello-world/issues/\(number)"
        return #"{"id": \#(id), "url": "https://api.github.com/repos/\#(repository)", "html_url": "https://github.com/\#(repository)", "#
            + #""number": \#(number), "title": "\#(title)", "body": \#(body.map { "\"\($0)\"" } ?? "null"), "user": \#(user)}"#
    }

    /// v1 and v2 of an API's users and issues: a user and an issue replaced, an issue's long body
    /// changed past its 60th character.
    static func seeds() async throws -> Workspace {
        let scratch = try Workspace()
        try scratch.write("api.yaml", mapping)
        try scratch.write("v1/users.json", "[" + [user(1, "octocat"), user(2, "hubot")].joined(separator: ",\n") + "]\n")
        try scratch.write("v2/users.json", "[" + [user(1, "octocat"), user(3, "monalisa")].joined(separator: ",\n") + "]\n")
        try scratch.write(
            "v1/issues.json",
            "["
                + [issue(10, 1, "Found a bug", long + " labore", user: 1), issue(11, 2, "Docs are out of date", "See the README", user: 2)]
                .joined(separator: ",\n") + "]\n")
        try scratch.write(
            "v2/issues.json",
            "["
                + [issue(10, 1, "Found a bug", long + " labour", user: 1), issue(12, 3, "Add a dark theme", nil, user: 3)]
                .joined(separator: ",\n") + "]\n")
        for version in ["v1", "v2"] {
            let run = try await program(
                try seederBinary(), ["build", "api.yaml", version, "-o", version + ".sqlite", "--quiet"], in: scratch.root,
                environment: ["SOURCE_DATE_EPOCH": "1700000000"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        return scratch
    }

    /// `v1.sqlite` and `v2.sqlite`, built with `mapping` from each version's dumps (file name ->
    /// text) in a scratch directory.
    static func versions(_ mapping: String, v1: [String: String], v2: [String: String]) async throws -> Workspace {
        let scratch = try Workspace()
        try scratch.write("m.yaml", mapping)
        for (version, dumps) in [("v1", v1), ("v2", v2)] {
            for (name, text) in dumps { try scratch.write(version + "/" + name, text) }
            #expect(try await seeder(["build", "m.yaml", version, "-o", version + ".sqlite", "--quiet"], in: scratch.root).status == 0)
        }
        return scratch
    }

    @Test func textNamesRecordsByTheirTellingFields() async throws {
        let scratch = try await Self.seeds()
        let run = try await seeder(["diff", "v1.sqlite", "v2.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        // The records come after the count table, before the sources and metadata.
        let records = run.stdout.components(separatedBy: "\n\n").dropFirst().filter {
            !$0.hasPrefix("sources\n") && !$0.hasPrefix("metadata\n")
        }.joined(separator: "\n\n")
        #expect(
            records == """
                User: 1 added, 1 removed
                  - User 2: login "hubot", url "https://api.github.com/users/hubot", html_url "https://github.com/hubot"
                  + User 3: login "monalisa", url "https://api.github.com/users/monalisa", html_url "https://github.com/monalisa"

                Issue: 1 added, 1 removed, 1 changed
                  ~ Issue 10: title "Found a bug"
                      body: "… eiusmod tempor labore" -> "… eiusmod tempor labour"
                  - Issue 11: title "Docs are out of date", number 2, body "See the README", …
                  + Issue 12: title "Add a dark theme", number 3, user_id 3, …

                the seeds differ: 2 added, 2 removed, 1 changed records

                """)
    }

    @Test func markdownNamesRecordsByTheirTellingFields() async throws {
        let scratch = try await Self.seeds()
        let run = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--format", "markdown", "--entity", "Issue"], in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stdout.contains(
                """
                - changed `Issue` `10` (`title` `"Found a bug"`): `body` `"… eiusmod tempor labore"` → `"… eiusmod tempor labour"`
                - removed `Issue` `11`: `title` `"Docs are out of date"`, `number` `2`, `body` `"See the README"`, …
                - added `Issue` `12`: `title` `"Add a dark theme"`, `number` `3`, `user_id` `3`, …

                </details>

                """), "\(run.stdout)")
    }

    @Test func jsonKeepsEveryField() async throws {
        let scratch = try await Self.seeds()
        let run = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--json", "--entity", "Issue"], in: scratch.root)
        #expect(run.status == 1)
        let records = run.stdout.split(separator: "\n").filter { $0.hasPrefix(#"{"change""#) }
        #expect(
            records == [
                #"{"change":"changed","key":[10],"fields":{"body":{"old":"\#(Self.long) labore","new":"\#(Self.long) labour"}}},"#,
                #"{"change":"removed","key":[11],"fields":{"url":"https://api.github.com/repos/octocat/hello-world/issues/2","html_url":"https://github.com/octocat/hello-world/issues/2","number":2,"title":"Docs are out of date","body":"See the README","user_id":2}},"#,
                #"{"change":"added","key":[12],"fields":{"url":"https://api.github.com/repos/octocat/hello-world/issues/3","html_url":"https://github.com/octocat/hello-world/issues/3","number":3,"title":"Add a dark theme","body":null,"user_id":3}}],"notListed":0}"#,
            ])
    }

    /// A row of a table compared as whole rows (no identity) is told by its non-null fields.
    @Test func aRowWithoutIdentityIsToldByItsNonNullFields() async throws {
        let scratch = try await Self.versions(
            """
            seeder: 1
            entities:
              Image:
                identity: none
                attributes: { url: string, width: integer, height: integer }

            """,
            v1: [
                "images.json":
                    #"[{"url": "https://i.example.com/a", "width": 64, "height": null}, {"url": "https://i.example.com/b", "width": 300, "height": 300}]"#
            ],
            v2: ["images.json": #"[{"url": "https://i.example.com/b", "width": 300, "height": 300}]"#])
        let run = try await seeder(["diff", "v1.sqlite", "v2.sqlite"], in: scratch.root)
        #expect(run.stdout.contains("\n  - row: url \"https://i.example.com/a\", width 64\n"), "\(run.stdout)")
    }

    /// A build's conflict between two long values alike in their first 60 characters shows where
    /// they differ.
    @Test func buildConflictShowsWhereLongValuesDiffer() async throws {
        let scratch = try Workspace()
        try scratch.write("api.yaml", Self.mapping)
        try scratch.write("dumps/users.json", "[" + Self.user(1, "octocat") + "]\n")
        try scratch.write(
            "dumps/issues.json",
            "["
                + [
                    Self.issue(10, 1, "Found a bug", Self.long + " labore", user: 1),
                    Self.issue(10, 1, "Found a bug", Self.long + " labour", user: 1),
                ]
                .joined(separator: ",\n") + "]\n")
        let run = try await seeder(["build", "api.yaml", "dumps", "-o", "out.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix(
                #"dumps/issues.json:2:188: error: Issue 10: 'body' conflicts: "… eiusmod tempor labour" here, "… eiusmod tempor labore" at dumps/issues.json:1:189"#
                    + "\n"), "\(run.stderr)")
    }

    /// A `json` attribute's column holds JSON text: the diff shows it as it is, not quoted and
    /// escaped as a string column's text (`"{\"id\":7}"`), in text and markdown; the JSON keeps
    /// the text.
    @Test func jsonColumnsShowTheirJSON() async throws {
        let scratch = try await Self.versions(
            """
            seeder: 1
            entities:
              Issue:
                attributes: { id: integer, title: string, milestone: json, closedAt: { type: json, from: closed_at } }
            sources:
              - path: issues.json
                entity: Issue

            """,
            v1: ["issues.json": #"[{"id": 1, "title": "Crash", "milestone": null, "closed_at": null}]"#],
            v2: [
                "issues.json":
                    #"[{"id": 1, "title": "Crash", "milestone": {"id": 7, "title": "v1.0"}, "closed_at": "2021-10-05T16:03:49Z"}]"#
            ])
        let text = try await seeder(["diff", "v1.sqlite", "v2.sqlite"], in: scratch.root)
        #expect(
            text.stdout.contains(
                """
                  ~ Issue 1: title "Crash"
                      milestone: null -> {"id":7,"title":"v1.0"}
                      closed_at: null -> "2021-10-05T16:03:49Z"

                """), "\(text.stdout)")
        let markdown = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--format", "markdown"], in: scratch.root)
        #expect(
            markdown.stdout.contains(
                #"- changed `Issue` `1` (`title` `"Crash"`): `milestone` `null` → `{"id":7,"title":"v1.0"}`, "#
                    + #"`closed_at` `null` → `"2021-10-05T16:03:49Z"`"#), "\(markdown.stdout)")
        let json = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--format", "json"], in: scratch.root)
        #expect(json.stdout.contains(#""milestone":{"old":null,"new":"{\"id\":7,\"title\":\"v1.0\"}"}"#), "\(json.stdout)")
    }

    /// A post's text tells it better than its flags: `content` is a telling column, after the names.
    @Test func aRemovedPostIsToldByItsContent() async throws {
        let hello = #"{"id": "1", "created_at": "2026-08-01", "sensitive": false, "content": "<p>Hello</p>"}"#
        let scratch = try await Self.versions(
            """
            seeder: 1
            entities:
              Status: { attributes: { id: string, createdAt: { type: string, from: created_at }, sensitive: boolean, content: string } }
            sources:
              - { path: statuses.json, entity: Status }

            """,
            v1: [
                "statuses.json": "[" + hello + #", {"id": "2", "created_at": "2026-08-02", "sensitive": false, "content": "<p>Bye</p>"}]"#
            ],
            v2: ["statuses.json": "[" + hello + "]"])
        let run = try await seeder(["diff", "v1.sqlite", "v2.sqlite"], in: scratch.root)
        #expect(run.stdout.contains(#"  - Status 2: content "<p>Bye</p>", created_at "2026-08-02", sensitive 0"#), "\(run.stdout)")
    }
}
