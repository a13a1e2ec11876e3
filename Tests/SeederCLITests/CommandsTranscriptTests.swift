import Foundation
import SeederTestSupport
import Testing

/// docs/commands.md's ```` ```console ```` blocks, run in page order in one directory that holds
/// the repository's `mappings/` and `seeds/`, as a reader would run them: each command prints
/// what the page shows. A command may set variables before it (`SOURCE_DATE_EPOCH=1 seeder ...`),
/// send its standard output to `/dev/null` (the page then shows standard error), or keep its
/// last lines (`| tail -1`).
struct CommandsTranscriptTests {
    /// A step's command as a shell would take it.
    struct Command {
        var environment: [String: String] = [:]
        var arguments: [String] = []
        var discardsOutput = false
        var lastLines: Int?

        init(_ words: [String]) throws {
            var rest = words[...]
            while let word = rest.first, let equals = word.firstIndex(of: "="), word.first != "-" {
                environment[String(word[..<equals])] = String(word[word.index(after: equals)...])
                rest = rest.dropFirst()
            }
            try #require(rest.first == "seeder", "\(words)")
            rest = rest.dropFirst()
            while let word = rest.first, word != ">", word != "|" {
                arguments.append(word)
                rest = rest.dropFirst()
            }
            let redirection = Array(rest)
            if redirection == [">", "/dev/null"] {
                discardsOutput = true
            } else if redirection.count == 3, redirection[0] == "|", redirection[1] == "tail", redirection[2].hasPrefix("-") {
                lastLines = Int(redirection[2].dropFirst())
            } else if !redirection.isEmpty {
                Issue.record("a command the transcript cannot run: \(words)")
            }
        }

        /// What the terminal shows of `run`.
        func shown(_ run: ProgramRun) -> String {
            var output = discardsOutput ? "" : run.stdout
            if let lastLines {
                output = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().suffix(lastLines)
                    .map { $0 + "\n" }.joined()
            }
            return output + run.stderr
        }
    }

    @Test func everyConsoleBlockPrintsWhatThePageShows() async throws {
        let transcript = try ConsoleTranscript(page: "docs/commands.md", repository: repository)
        // The blocks of `diff`, its changeset and `patch`: a block made plain text again would
        // leave this test without a word, so their number is checked.
        #expect(transcript.blocks.map(\.count) == [2, 1, 1, 1, 3])
        let scratch = try Workspace()
        for folder in ["mappings", "seeds"] {
            try FileManager.default.createSymbolicLink(atPath: scratch.path(folder), withDestinationPath: repository + "/" + folder)
        }
        for step in transcript.blocks.joined() {
            let command = try Command(step.words)
            let run = try await seeder(command.arguments, in: scratch.root, environment: command.environment)
            #expect(run.status < 64, "\(step.words): \(run.stderr)")
            #expect(command.shown(run) == step.output, "\(step.words.joined(separator: " ")) printed:\n\(command.shown(run))")
        }
    }
}
