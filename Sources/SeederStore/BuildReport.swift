import SeederCore

/// What a build or validation did: per-entity counts, every diagnostic, and the outcome.
public struct BuildReport: Sendable {
    /// How a run ended (docs/commands.md, Exit status).
    public enum Outcome: Int, Sendable {
        /// The seed was written (or, for `validate`, would be).
        case success = 0
        /// The data or the mapping failed validation.
        case invalid = 1
        /// An input could not be read, or the output could not be written.
        case failed = 2
    }

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
