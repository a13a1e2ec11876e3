import ArgumentParser
import Foundation
import SeederCore
import SeederFiles
import SeederStore

/// `seeder`: JSON dumps + a YAML mapping -> a validated, reproducible SQLite seed database.
@main
struct SeederCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seeder",
        abstract: "Turn JSON dumps of a web service into a validated SQLite seed database.",
        discussion: """
            Exit status: 0 success (diff: the same records), 1 the data or the mapping failed validation \
            (diff: the seeds differ; patch: the changeset does not apply to the seed), 2 a file could not be read or written, or may not be (not a \
            regular file, not SQLite, not a seed, an input given as the output), or standard output \
            could not be written, 64 bad usage.
            """,
        version: SeedBuilder.version,
        subcommands: [Build.self, Validate.self, Fetch.self, Infer.self, Diff.self, Patch.self, Inspect.self]
    )

    /// Runs the command as swift-argument-parser does, but for a file the command could not
    /// write (`OutputError`): the message, and exit status 2, the same for every command. `fetch`
    /// is async (HTTP transfers run as tasks); the others run on the main thread as they are.
    static func main() async {
        StandardOutput.reserveClosedDescriptors()
        StandardOutput.ignoreWriteSignals()
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as OutputError {
            StandardError.write(line: "error: \(error.message)")
            Foundation.exit(2)
        } catch {
            exit(withError: error)
        }
    }
}

extension RunOutcome {
    /// Ends a command with this outcome: returns on success, else exits with its status.
    func end() throws {
        if self != .success { throw ExitCode(exitStatus) }
    }
}
