import ArgumentParser
import Foundation
import SeederCore
import SeederFiles
import SeederStore

extension ConflictPolicy: ExpressibleByArgument {}

/// `seeder build`: map every source, validate, write the seed atomically.
struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build a seed database from a mapping and a directory of JSON dumps.",
        discussion: """
            The seed is written to a temporary file beside the output and renamed over it only when \
            every check passed; a failed build leaves the previous output as it was. The output must \
            be a regular file or absent, and an existing one a seed unless --force is given; a second \
            build of the same output at once fails at once.
            """
    )

    @OptionGroup var check: CheckOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The seed file; default: the mapping's 'output:', else <mapping stem>.sqlite.", valueName: "file"))
    var output: String?

    @Flag(help: "Replace an existing output that is not a seed (no seed_metadata table).")
    var force = false

    @Option(help: "Override every entity's onConflict: error, first or last.")
    var onConflict: ConflictPolicy?

    @Flag(name: .shortAndLong, help: "Print no summary.")
    var quiet = false

    func run() throws {
        var options = check.buildOptions()
        options.output = output
        options.force = force
        options.onConflict = onConflict
        options.sourceDateEpoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"]
        let console = Console()
        options.progress = console.progressReporter(check.reporting.progress)
        options.willCreateTemporaries = Interruption.removeOnInterrupt
        let report = SeedBuilder.build(options)
        console.finishProgress()
        console.print(report.diagnostics, suppressed: report.suppressedErrors, mapping: check.mapping)
        // A JSON document owns standard output: the workflow commands then go to standard error.
        try console.annotate(report.diagnostics, check.reporting.diagnosticsFormat, toStandardError: check.printsDocument)
        GitHubActions.appendStepSummary(GitHubActions.summary(report, command: "build"))
        try check.finish(report, command: .build, console: console, summary: !quiet)
    }
}
