import Foundation
import SeederTestSupport
import Testing

extension ConsoleTranscript {
    /// A step's command as a shell would take it, for the forms the pages use: variables before
    /// it (`SOURCE_DATE_EPOCH=1 seeder ...`); the `seeder` built beside the tests, or `cat`, `cp`
    /// or `sqlite3` from the `PATH` (a page that shows a file, or changes a seed by hand); its
    /// standard output sent to a file (`> tasklist.mmd`; `> /dev/null`, the page then shows
    /// standard error), its standard error to `/dev/null` (`2> /dev/null`), or its last lines
    /// kept (`| tail -1`).
    struct Command {
        var environment: [String: String] = [:]
        var program = ""
        var arguments: [String] = []
        var outputFile: String?
        var discardsErrors = false
        var lastLines: Int?

        init(_ words: [String]) throws {
            var rest = words[...]
            while let word = rest.first, let equals = word.firstIndex(of: "="), word.first != "-" {
                environment[String(word[..<equals])] = String(word[word.index(after: equals)...])
                rest = rest.dropFirst()
            }
            program = rest.first ?? ""
            try #require(["seeder", "cat", "cp", "sqlite3"].contains(program), "a program the transcript does not run: \(words)")
            rest = rest.dropFirst()
            while let word = rest.first, !["|", ">", "2>"].contains(word) {
                arguments.append(word)
                rest = rest.dropFirst()
            }
            while let operation = rest.first {
                let operand = rest.dropFirst().first ?? ""
                rest = rest.dropFirst(2)
                switch (operation, operand) {
                case (">", _) where !operand.isEmpty: outputFile = operand
                case ("2>", "/dev/null"): discardsErrors = true
                case ("|", "tail"):
                    lastLines = try #require(rest.first.flatMap { $0.hasPrefix("-") ? Int($0.dropFirst()) : nil }, "\(words)")
                    rest = rest.dropFirst()
                default: Issue.record("a command the transcript cannot run: \(words)")
                }
            }
        }

        /// Runs the command in `directory`: its exit status, and what the terminal shows of it
        /// (standard output, then standard error).
        func run(in directory: String) async throws -> (status: Int32, shown: String) {
            let run: ProgramRun
            if program == "seeder" {
                run = try await seeder(arguments, in: directory, environment: environment)
            } else {
                run = try await SeederCLITests.program("/usr/bin/env", [program] + arguments, in: directory, environment: environment)
            }
            var output = run.stdout
            if let outputFile {
                if outputFile != "/dev/null" { try output.write(toFile: directory + "/" + outputFile, atomically: true, encoding: .utf8) }
                output = ""
            }
            if let lastLines {
                output = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().suffix(lastLines)
                    .map { $0 + "\n" }.joined()
            }
            return (run.status, output + (discardsErrors ? "" : run.stderr))
        }
    }

    /// Runs every step in page order in `directory`, and records each that did not run to its
    /// end (a crash, a usage error) or printed other than what the page shows.
    func expectEveryStepPrintsWhatThePageShows(in directory: String) async throws {
        for step in blocks.joined() {
            let (status, shown) = try await Command(step.words).run(in: directory)
            #expect(status < 64, "\(step.words): \(shown)")
            #expect(shown == step.output, "\(step.words.joined(separator: " ")) printed:\n\(shown)")
        }
    }
}

/// A directory for a page's commands, as a reader of the repository has it: `mappings/` and
/// `seeds/`, and a copy of what `docs/examples/` holds (copied, so that a command that writes
/// leaves the repository as it was).
func transcriptWorkspace() throws -> Workspace {
    let scratch = try Workspace()
    for folder in ["mappings", "seeds"] {
        try FileManager.default.createSymbolicLink(atPath: scratch.path(folder), withDestinationPath: repository + "/" + folder)
    }
    let examples = repository + "/docs/examples"
    for name in try FileManager.default.contentsOfDirectory(atPath: examples) {
        try FileManager.default.copyItem(atPath: examples + "/" + name, toPath: scratch.path(name))
    }
    return scratch
}
