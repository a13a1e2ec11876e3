import ArgumentParser
import Foundation
import SeederStore

/// `seeder inspect`: what a seed holds and where it came from.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a seed's metadata, sources with digests and record counts, and tables with row counts.",
        discussion: "Exit status: 0 success, 2 the file is missing, not SQLite, or not a seed."
    )

    @Argument(help: "The seed file.")
    var seed: String

    @Flag(help: "Print one JSON document on standard output and nothing else there.")
    var json = false

    func run() throws {
        let catalog: SeedCatalog
        do {
            catalog = try SeedCatalog.read(seed, countingRows: true)
        } catch {
            StandardError.write("\(error)\n")
            throw ExitCode(2)
        }
        guard catalog.isSeed else {
            let reason = String(
                format: "not a seed (application_id is 0x%08x, not 0x%08x 'SEED'%@)", catalog.applicationID,
                SeedCatalog.seedApplicationID, catalog.metadata.isEmpty ? ", and there is no seed_metadata" : "")
            StandardError.write("\(seed): error: \(reason)\n")
            throw ExitCode(2)
        }
        try StandardOutput.write(json ? catalog.json + "\n" : catalog.text)
    }
}
