import ArgumentParser
import Foundation
import SeederCore
import SeederFiles
import SeederStore

/// The options `build` and `validate` share, and how their runs end: the report, the document or
/// the summary, the exit status.
struct CheckOptions: ParsableArguments {
    @Argument(help: "The mapping file (YAML).")
    var mapping: String

    @Argument(help: "The directory holding the JSON dump files.")
    var dumps: String

    @Option(
        help: ArgumentHelp(
            "Also write the findings and the summary as JSON to this file ('-': standard output, as --json does).", valueName: "file"))
    var report: String?

    @Flag(help: "Print one JSON document (findings and summary) on standard output and nothing else there.")
    var json = false

    // `.unconditional`: `--max-errors -1` is a value to refuse with its reason, not a missing one.
    @Option(parsing: .unconditional, help: "Report at most this many errors, then a count of the rest.")
    var maxErrors = 100

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @OptionGroup var reporting: ReportingOptions

    func validate() throws {
        guard maxErrors >= 0 else { throw ValidationError("--max-errors must be 0 or more, not \(maxErrors)") }
    }

    /// The report file, if one is asked for: `-` is standard output, never a file of that name.
    var reportFile: String? { report == "-" ? nil : report }

    /// Whether the document goes to standard output (`--json`, `--report -`), which then holds
    /// nothing else: the summary table, which the document holds, is not printed.
    var printsDocument: Bool { json || report == "-" }

    func buildOptions() -> BuildOptions {
        var options = BuildOptions(mapping: mapping, dumps: dumps)
        options.maxErrors = maxErrors
        options.strict = strict
        options.report = reportFile
        return options
    }

    /// Ends a run whose diagnostics are printed: writes the report file, then the document or (when
    /// `summary`) the summary, and exits with the run's status. A report file that could not be
    /// written is status 2, and the document says so too; the summary tells what the run did.
    func finish(_ report: BuildReport, command: JSONDocumentKind, console: Console, summary: Bool) throws {
        let reportFailure = ReportWriter.write(report, command: command, toFile: reportFile)
        // A build's failure to write standard output says that the seed was written all the same.
        let written = command == .build ? report.output.map { "; the seed was written to \($0)" } ?? "" : ""
        do {
            if printsDocument {
                var document = report
                if let reportFailure {
                    document.diagnostics.append(.error(reportFailure.code, reportFailure.message))
                    document.outcome = .failed
                }
                // The failure line goes to standard error: standard output holds the document only.
                if report.outcome != .success { try console.printSummary(report, command: command.rawValue) }
                try StandardOutput.write(ReportWriter.json(document, command: command) + "\n")
            } else if summary || report.outcome != .success {
                try console.printSummary(report, command: command.rawValue)
            }
        } catch {
            throw OutputError(error.code, error.message + written)
        }
        if reportFailure != nil { throw ExitCode(2) }
        try report.outcome.end()
    }
}
