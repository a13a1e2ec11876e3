import Foundation
import SeederFiles

/// What `seeder inspect` found (docs/commands.md, inspect): the seed's catalog, or why there is
/// none to show, so that the command only prints it and maps its outcome to the exit status.
package struct InspectReport: Sendable {
    /// `success`, or `failed`: the file is missing, not SQLite, or not a seed.
    package var outcome: BuildReport.Outcome
    /// The seed's catalog with row counts, when the file is a seed.
    package var catalog: SeedCatalog?
    /// Why there is no catalog: the whole line for standard error, without its newline.
    package var failure: String?

    /// Reads the catalog of the seed at `path`, counting each table's rows.
    package init(seed path: String) {
        let catalog: SeedCatalog
        do {
            catalog = try SeedCatalog.read(path, countingRows: true)
        } catch {
            outcome = .failed
            failure = "\(error)"
            return
        }
        guard catalog.isSeed else {
            // Said as it is: no seed_metadata alone (an application_id of 'SEED' without it), or an
            // application_id of another program too.
            let reason =
                catalog.applicationID == SeedCatalog.seedApplicationID
                ? "not a seed (there is no seed_metadata)"
                : String(
                    format: "not a seed (application_id is 0x%08x, not 0x%08x 'SEED'%@)", catalog.applicationID,
                    SeedCatalog.seedApplicationID, catalog.metadata.isEmpty ? ", and there is no seed_metadata" : "")
            outcome = .failed
            failure = "\(path): error: \(reason)"
            return
        }
        outcome = .success
        self.catalog = catalog
    }
}
