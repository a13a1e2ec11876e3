import ArgumentParser
import Foundation
import SeederFiles
import SeederStore

/// How `inspect` prints a seed.
enum InspectFormat: String, CaseIterable, ExpressibleByArgument {
    /// For people at a terminal.
    case text
    /// One JSON document, for tools.
    case json
    /// The tables, columns and references as a Mermaid `erDiagram` (`SeedDiagram`).
    case mermaid
}

/// `seeder inspect`: what a seed holds and where it came from.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a seed's metadata, sources with digests and record counts, and tables with row counts.",
        discussion: "Exit status: 0 success, 2 the file is missing, not SQLite, or not a seed."
    )

    @Argument(help: "The seed file.")
    var seed: String

    @Option(help: "How to print the seed: text (the default), json, or mermaid (its tables and references as an erDiagram).")
    var format: InspectFormat?

    @Flag(help: "Print one JSON document on standard output and nothing else there (--format json).")
    var json = false

    func validate() throws {
        if json, let format, format != .json { throw ValidationError("--json prints JSON; it cannot go with --format \(format).") }
    }

    func run() throws {
        let report = InspectReport(seed: seed)
        if let failure = report.failure { StandardError.write(line: failure) }
        if let catalog = report.catalog {
            switch json ? .json : format ?? .text {
            case .text: try StandardOutput.write(catalog.text)
            case .json: try StandardOutput.write(catalog.json + "\n")
            case .mermaid: try StandardOutput.write(SeedDiagram.mermaid(catalog))
            }
        }
        try report.outcome.end()
    }
}
