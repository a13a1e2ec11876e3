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
        // A seed's tables holding another type, then a path twice.
        #expect(transcript.blocks.map(\.count) == [9])
        let scratch = try transcriptWorkspace()
        try await transcript.expectEveryStepPrintsWhatThePageShows(in: scratch.root)
    }
}
