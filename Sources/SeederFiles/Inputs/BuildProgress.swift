/// How far a build is (docs/commands.md, Progress).
public struct BuildProgress: Sendable {
    /// What the build is doing, in the order a build does it. Each is reported as it begins, so
    /// that a long one is named while it lasts.
    public enum Phase: String, Sendable {
        /// The mapping read and checked (YAML -> `Mapping`).
        case loading
        /// The mapper's plans, the dump files, the output claimed, the tables laid out.
        case planning
        case reading, resolving
        /// The seed's indexes made, then its constraints.
        case indexing
        /// Join rows and metadata.
        case writing
        /// The file compacted and checked, search or the app's schema filled, the rename.
        case finishing
    }

    public var phase: Phase
    public var bytesRead: Int
    public var totalBytes: Int
    public var records: Int
    /// What the phase is at, where it has parts (a resolving stage: `inverse links`), or what it
    /// works on before any dump is read (`mapping.yaml, 5724 kB`).
    public var step: String?
    /// Before any dump is read, how far a step that makes many things is: `tables, 2,000 of
    /// 5,000 entities`. A big mapping makes thousands (bench/README.md, Big mappings).
    public var parts: Parts?

    public struct Parts: Sendable {
        public var done: Int
        public var total: Int
        /// What is counted, in the plural: `entities`.
        public var plural: String

        public init(done: Int, total: Int, plural: String) {
            self.done = done
            self.total = total
            self.plural = plural
        }
    }

    public init(phase: Phase, bytesRead: Int, totalBytes: Int, records: Int, step: String? = nil) {
        self.phase = phase
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.records = records
        self.step = step
    }

    /// A phase before any dump is read, which has no bytes or records to count: `step` says
    /// what it works on.
    public static func before(_ phase: Phase, _ step: String, parts: Parts? = nil) -> BuildProgress {
        var progress = BuildProgress(phase: phase, bytesRead: 0, totalBytes: 0, records: 0, step: step)
        progress.parts = parts
        return progress
    }
}
