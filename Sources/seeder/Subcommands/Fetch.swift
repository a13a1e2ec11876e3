import ArgumentParser
import Foundation
import SeederCore
import SeederFetch
import SeederFiles
import SeederStore

/// `seeder fetch`: the dump files of the mapping's `fetch:` sources, from the web service, only
/// what changed, into DUMPS all at once or not at all (docs/commands.md, fetch).
struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fetch the dump files of the mapping's 'fetch:' sources from the web service.",
        discussion: """
            Pages go to a temporary folder beside DUMPS and are moved in only when every source succeeded; \
            DUMPS/.seeder-fetch.json records what each file was fetched from, so the next fetch asks only \
            for what changed. Exit status: 0 fetched, 1 a body or the mapping is not what fetch reads, \
            2 the service could not be reached or refused, or a file could not be written.
            """
    )

    @Argument(help: "The mapping file (YAML) whose sources have 'fetch:' blocks.")
    var mapping: String

    @Argument(help: "The directory the dump files go to (made if missing).")
    var dumps: String

    @Option(help: ArgumentHelp("Fetch only this source (its 'path'); repeat for several. The others' files are kept.", valueName: "path"))
    var only: [String] = []

    @Flag(help: "Print one JSON document (the summary and findings) on standard output and nothing else there.")
    var json = false

    @OptionGroup var reporting: ReportingOptions

    func run() async throws {
        var options = FetchOptions(mapping: mapping, dumps: dumps)
        options.only = only
        let display = FetchProgressDisplay(mode: reporting.progress)
        if let display { options.progress = { @Sendable progress in display.update(progress) } }
        // A retry is said as it happens, off a terminal too: a fetch waiting out a backoff in
        // silence looks hung (docs/commands.md, fetch: Failures).
        if reporting.progress != .never {
            options.retrying = { @Sendable text in
                if let display { display.note(text) } else { StandardError.write(line: "fetch: " + text) }
            }
        }
        Interruption.removeFetchStaging()
        let report = await Fetcher.fetch(options)
        display?.finish()
        let console = Console()
        console.print(report.diagnostics, suppressed: 0, mapping: mapping)
        try console.annotate(report.diagnostics, reporting.diagnosticsFormat, toStandardError: json)
        GitHubActions.appendStepSummary(FetchSummary.markdown(report))
        if json {
            try StandardOutput.write(FetchSummary.json(report) + "\n")
            if report.outcome != .success { StandardError.write(FetchSummary.failureLine(report)) }
        } else if report.outcome == .success {
            try StandardOutput.write(FetchSummary.table(report))
        } else {
            StandardError.write(FetchSummary.failureLine(report))
        }
        try report.outcome.end()
    }
}
