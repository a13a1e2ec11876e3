import ArgumentParser
import Foundation
import SeederFiles
import SeederStore

/// `seeder patch`: a changeset applied to a copy of the seed it starts from, without Swift in the
/// app that uses the result.
struct Patch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply a changeset that seeder diff wrote to a copy of the seed it starts from.",
        discussion: """
            The changeset must start from SEED (its seed_metadata names the seed it starts from) and \
            apply without a conflict; it is applied as the SeedInstaller library applies it. SEED is \
            only read: the patched copy is written beside the output and renamed over it, so a failure \
            leaves no output, or the previous one as it was. The output must be a regular file or \
            absent, and an existing one a seed unless --force is given. \
            Exit status: 0 the output was written, 1 the changeset does not start from SEED or does \
            not apply to its rows, 2 a file could not be read or written, or may not be.
            """
    )

    @Argument(help: "The seed the changeset starts from (only read).")
    var seed: String

    @Argument(help: "The changeset, as 'seeder diff OLD NEW --changeset FILE' writes it.")
    var changeset: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The patched seed to write.", valueName: "file"))
    var output: String

    @Flag(help: "Replace an existing output that is not a seed (no seed_metadata table).")
    var force = false

    func run() throws {
        let report = SeedPatchRun(seed: seed, changeset: changeset, output: output, force: force)
            .run(willCreate: Interruption.removeOnInterrupt)
        if let patch = report.patch { StandardError.write(line: "wrote \(output): \(patch)") }
        if let message = report.message { StandardError.write(line: message) }
        try report.outcome.end()
    }
}
