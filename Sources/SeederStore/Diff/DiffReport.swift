import SeederFiles

/// What a `seeder diff` came to (docs/commands.md, diff): the changeset written, the comparison,
/// and, when the run stopped short, why. `SeedDiffRun` makes it, so that the command only prints
/// it and maps its outcome to the exit status.
public struct DiffReport: Sendable {
    /// How a diff ended; the raw value is the exit status (docs/commands.md, Exit status).
    public enum Outcome: Int, Sendable {
        /// The seeds hold the same records.
        case sameRecords = 0
        /// They differ.
        case differ = 1
        /// They could not be compared: a seed could not be read, or the changeset or the output
        /// could not be written.
        case failed = 2
        /// Bad usage seen only once the seeds are open: an `--entity` that names nothing in either.
        case badUsage = 64
    }

    /// Why a run stopped short.
    public struct Failure: Sendable {
        public var outcome: Outcome
        /// The whole line for standard error, without its newline
        /// (`release.sqlite: error: not an SQLite database`).
        public var message: String
    }

    /// The `--changeset` file written, and what it holds.
    public var changeset: (path: String, SeedChangeset)?
    /// The comparison, when it ran to its end.
    public var diff: SeedDiff?
    /// Why the run stopped short, when it did: then there is no `diff`.
    public var failure: Failure?

    /// The failure's outcome, else what the comparison found; `sameRecords` until it has run.
    public var outcome: Outcome {
        if let failure { return failure.outcome }
        return diff?.holdsSameRecords == false ? .differ : .sameRecords
    }
}
