import SeederCore
import SeederFiles

/// What a `seeder diff` came to (docs/commands.md, diff): the changeset written, the comparison,
/// and, when the run stopped short, why. `SeedDiffRun` makes it, so that the command only prints
/// it and maps its outcome to the exit status.
package struct DiffReport: Sendable {
    /// How a diff ended (`RunOutcome`, in diff's words: `sameRecords`, `differ`).
    package typealias Outcome = RunOutcome

    /// Why a run stopped short.
    package struct Failure: Sendable {
        package var outcome: Outcome
        /// The whole line for standard error, without its newline
        /// (`release.sqlite: error: not an SQLite database`).
        package var message: String
    }

    /// The `--changeset` file written, and what it holds.
    package var changeset: (path: String, SeedChangeset)?
    /// The comparison, when it ran to its end.
    package var diff: SeedDiff?
    /// Why the run stopped short, when it did: then there is no `diff`.
    package var failure: Failure?

    /// The failure's outcome, else what the comparison found; `sameRecords` until it has run.
    package var outcome: Outcome {
        if let failure { return failure.outcome }
        return diff?.holdsSameRecords == false ? .differ : .sameRecords
    }
}

extension RunOutcome {
    /// `diff`: the seeds hold the same records (status 0).
    package static var sameRecords: RunOutcome { .success }
    /// `diff`: the seeds differ (status 1).
    package static var differ: RunOutcome { .invalid }
}
