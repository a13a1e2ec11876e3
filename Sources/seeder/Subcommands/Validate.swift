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
        options.willCreateTemporaries = Interruption.removeOnInterrupt
        let report = SeedBuilder.build(options)
        let console = Console()
        if let path = check.report { try ReportWriter.write(report, command: "validate", to: path) }
        if json {
            print(ReportWriter.json(report, command: "validate"))
        } else {
            console.print(report.diagnostics, suppressed: report.suppressedErrors, mapping: check.mapping)
            console.printSummary(report, command: "validate")
        }
        if report.outcome != .success { throw ExitCode(Int32(report.outcome.rawValue)) }
    }
}
