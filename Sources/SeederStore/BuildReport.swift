import SeederCore
import SeederFiles

/// What a build or validation did: per-entity counts, every diagnostic, and the outcome.
public struct BuildReport: Sendable {
    /// How a run ended (`RunOutcome`).
    public typealias Outcome = RunOutcome

    /// One entity's line of the summary.
    public struct EntitySummary: Sendable, Hashable {
        public var name: String
        public var counts: EntityCounts
        /// JSON keys of the entity's records that nothing reads.
        public var unmappedKeys: [String]
    }

    /// One dump file read (docs/commands.md, The `--report` and `--json` documents): what a
    /// `seed_source` row per file holds, whichever `provenance:` the seed has.
    public struct FileSummary: Sendable, Hashable {
        /// The path relative to the dumps directory.
        public var path: String
        /// The SHA-256 of its bytes as stored, in hex.
        public var sha256: String
        public var bytes: Int
        /// Records read from it, by every source that reads it.
        public var records: Int
    }

    public var outcome: Outcome
    /// The output file, when one was written.
    public var output: String?
    public var entities: [EntitySummary]
    /// Every diagnostic kept, with lines and columns resolved.
    public var diagnostics: [Diagnostic]
    /// Errors past `--max-errors`, counted but not kept.
    public var suppressedErrors: Int
    /// Dump files read, in order.
    public var inputs: [String]
    /// Each dump file read to its end, once, in the order first read.
    public var files: [FileSummary] = []
    /// Whether the command may write its `--report` file: it passed the checks of
    /// `OutputGuard` (it is not the mapping, a dump file, the output, nor anything but a
    /// regular file).
    public var reportMayBeWritten = false
}
