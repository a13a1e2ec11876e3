import SeederCore
import SeederFiles

/// What a build or validation did: per-entity counts, every diagnostic, and the outcome.
package struct BuildReport: Sendable {
    /// How a run ended (`RunOutcome`).
    package typealias Outcome = RunOutcome

    /// One entity's line of the summary.
    package struct EntitySummary: Sendable, Hashable {
        package var name: String
        package var counts: EntityCounts
        /// JSON keys of the entity's records that nothing reads.
        package var unmappedKeys: [String]
    }

    /// One dump file read (docs/commands.md, The `--report` and `--json` documents): what a
    /// `seed_source` row per file holds, whichever `provenance:` the seed has.
    package struct FileSummary: Sendable, Hashable {
        /// The path relative to the dumps directory.
        package var path: String
        /// The SHA-256 of its bytes as stored, in hex.
        package var sha256: String
        package var bytes: Int
        /// Records read from it, by every source that reads it.
        package var records: Int
    }

    package var outcome: Outcome
    /// The output file, when one was written.
    package var output: String?
    package var entities: [EntitySummary]
    /// Every diagnostic kept, with lines and columns resolved.
    package var diagnostics: [Diagnostic]
    /// Errors past `--max-errors`, counted but not kept.
    package var suppressedErrors: Int
    /// Dump files read, in order.
    package var inputs: [String]
    /// Each dump file read to its end, once, in the order first read.
    package var files: [FileSummary] = []
    /// Whether the command may write its `--report` file: it passed the checks of
    /// `OutputGuard` (it is not the mapping, a dump file, the output, nor anything but a
    /// regular file).
    package var reportMayBeWritten = false
}
