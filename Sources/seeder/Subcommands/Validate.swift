import ArgumentParser
import Foundation
import SeederFiles
import SeederStore

/// `seeder validate`: every check `build` makes, writing nothing.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a mapping and its dumps as build does, without writing a seed."
    )

    @OptionGroup var check: CheckOptions

    func run() throws {
        var options = check.buildOptions()
        options.writesOutput = false
        options.willCreateTemporaries = Interruption.removeOnInterrupt
        let console = Console()
        options.progress = console.progressReporter(check.reporting.progress)
        let report = SeedBuilder.build(options)
        console.finishProgress()
        console.print(report.diagnostics, suppressed: report.suppressedErrors, mapping: check.mapping)
        try console.annotate(report.diagnostics, check.reporting.diagnosticsFormat, toStandardError: check.printsDocument)
        GitHubActions.appendStepSummary(GitHubActions.summary(report, command: "validate"))
        try check.finish(report, command: .validate, console: console, summary: true)
    }
}
