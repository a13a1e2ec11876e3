/// How far a build is (docs/commands.md, Progress).
public struct BuildProgress: Sendable {
    /// What the build is doing.
    public enum Phase: String, Sendable {
        case reading, resolving, writing
    }

    public var phase: Phase
    public var bytesRead: Int
    public var totalBytes: Int
    public var records: Int

    public init(phase: Phase, bytesRead: Int, totalBytes: Int, records: Int) {
        self.phase = phase
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.records = records
    }
}
