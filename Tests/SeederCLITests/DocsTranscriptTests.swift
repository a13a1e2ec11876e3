import Foundation
import SeederTestSupport
import Testing

/// The ```` ```console ```` blocks of docs/, each page's run in page order in one directory that
/// holds the repository's `mappings/`, `seeds/` and `docs/examples/`, as a reader would run them:
/// each command prints what the page shows (`ConsoleTranscript.Command` for the forms a command
/// may take). A block made plain text again would leave its commands unchecked, so each test
/// checks the number of blocks and of commands in each.
struct DocsTranscriptTests {
    @Test func commandsPagePrintsWhatItShows() async throws {
        let transcript = try ConsoleTranscript(page: "docs/commands.md", repository: repository)
        // infer; diff, its changeset and patch; inspect; the diagram; --strict; the output's rules.
        #expect(transcript.blocks.map(\.count) == [3, 2, 1, 1, 1, 3, 2, 2, 1, 2, 2])
        let scratch = try transcriptWorkspace()
        try await transcript.expectEveryStepPrintsWhatThePageShows(in: scratch.root)
        // The diagram the page draws is the one its command wrote.
        let page = try String(contentsOfFile: repository + "/docs/commands.md", encoding: .utf8)
        let diagram = try #require(page.components(separatedBy: "```mermaid\n").dropFirst().first?.components(separatedBy: "```\n").first)
        #expect(try String(contentsOfFile: scratch.path("tasklist.mmd"), encoding: .utf8) == diagram)
    }

    @Test func jsonPagePrintsWhatItShows() async throws {
        let transcript = try ConsoleTranscript(page: "docs/json.md", repository: repository)
        // validate --json; infer --json.
        #expect(transcript.blocks.map(\.count) == [1, 1])
        let scratch = try transcriptWorkspace()
        try await transcript.expectEveryStepPrintsWhatThePageShows(in: scratch.root)
    }

    @Test func seedPagePrintsWhatItShows() async throws {
        let transcript = try ConsoleTranscript(page: "docs/seed.md", repository: repository)
        // A seed's tables holding another type, then a path twice; a journal a crash left.
        #expect(transcript.blocks.map(\.count) == [9, 4])
        let scratch = try transcriptWorkspace()
        try await transcript.expectEveryStepPrintsWhatThePageShows(in: scratch.root)
    }

    /// The commands README.md and docs/ show outside a ```` ```console ```` block, which no test
    /// runs, each for a reason: what they need is not on a test's machine or not in the
    /// repository. A new example shown that way is caught here, to be made a console block.
    static let shownNotRun: [String: [String]] = [
        // A web service and its token.
        "docs/commands.md": [
            "TOKEN=... seeder fetch mapping.yaml dumps", "TOKEN=... seeder fetch mapping.yaml dumps",
            // A changeset edited by hand, to hold a value its table cannot take.
            "seeder patch v1.sqlite edited.changeset -o patched.sqlite",
        ],
        // A machine without libcurl; a release tarball.
        "docs/install.md": [
            "seeder fetch mapping.yaml dumps/", "SEEDER_LIBCURL=/opt/curl/lib/libcurl.so seeder fetch mapping.yaml dumps/",
            "cat seeder-0.1.0-linux-x86_64.tar.gz.sha256", "sha256sum --check seeder-0.1.0-linux-x86_64.tar.gz.sha256",
        ],
        "docs/seed.md": [
            // A recipe for a shell, with its command substitutions.
            #"printf 'items/1.json\n%s\nitems/2.json\n%s\n' "$(sha256sum < dumps/items/1.json | cut -c1-64)" \"#
        ],
        // A SwiftPM build of the example app, which Examples/check runs.
        "docs/guides/swiftpm-plugin.md": ["cd Examples/SeedApp && swift build && .build/debug/SeedApp"],
    ]

    @Test func everyCommandShownRunsOrIsListed() throws {
        var shown: [String: [String]] = [:]
        for page in ConsoleTranscript.pages(repository: repository) {
            var fence: Substring?
            for line in try String(contentsOfFile: repository + "/" + page, encoding: .utf8).split(separator: "\n") {
                let text = line.drop { $0 == " " }
                if text.hasPrefix("```") {
                    fence = fence == nil ? text : nil
                } else if fence != nil, fence != "```console", text.hasPrefix("$ ") {
                    shown[page, default: []].append(String(text.dropFirst(2)))
                }
            }
        }
        #expect(shown == Self.shownNotRun)
    }
}
