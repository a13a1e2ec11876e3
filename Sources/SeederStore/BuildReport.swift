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
    /// Whether the command may write its `--report` file: it passed the checks of
    /// `OutputGuard` (it is not the mapping, a dump file, the output, nor anything but a
    /// regular file).
    public var reportMayBeWritten = false
}
