import ArgumentParser
import Foundation
import SeederStore

/// `seeder validate`: every check `build` makes, writing nothing.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a mapping and its dumps as build does, without writing a seed."
    )

    @OptionGroup var check: CheckOptions

    @Flag(help: "Print one JSON document (findings and summary) on standard output and nothing else there.")
    var json = false

    func run() throws {
        var options = check.buildOptions()
        options.writesOutput = false
        options.report = check.report
        options.willCreateTemporaries = Interruption.removeOnInterrupt
        let console = Console()
        // A JSON document owns standard output: progress stays on standard error, as always.
        options.progress = console.progressReporter(check.progress)
        let report = SeedBuilder.build(options)
        console.finishProgress()
        if !json { console.print(report.diagnostics, suppressed: report.suppressedErrors, mapping: check.mapping) }
        try console.annotate(report.diagnostics, check.diagnostics, toStandardError: json)
        GitHubActions.appendStepSummary(GitHubActions.summary(report, command: "validate"))
        let reportFailure = ReportWriter.write(report, command: "validate", toFile: check.report)
        if json {
            try StandardOutput.write(ReportWriter.json(report, command: "validate") + "\n")
        } else {
            try console.printSummary(report, command: "validate")
        }
        if reportFailure != nil { throw ExitCode(2) }
        if report.outcome != .success { throw ExitCode(Int32(report.outcome.rawValue)) }
    }
}
