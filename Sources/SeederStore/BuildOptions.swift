import Foundation
import SeederCore
import SeederFiles

/// What `seeder build` and `seeder validate` are asked to do.
public struct BuildOptions: Sendable {
    /// The mapping file.
    public var mapping: String
    /// The dumps directory.
    public var dumps: String
    /// The output file; `nil` takes the mapping's `output:`, else `<mapping stem>.sqlite`.
    public var output: String?
    /// `--force`: replace an existing output that is not a seed.
    public var force = false
    /// The report file the command writes after the build (`--report`), checked with the output
    /// before any work (`OutputGuard`); the build itself does not write it.
    public var report: String?
    /// `--on-conflict`: overrides every entity's `onConflict`.
    public var onConflict: ConflictPolicy?
    /// `--max-errors`.
    public var maxErrors: Int = 100
    /// `--strict`: warnings are errors.
    public var strict = false
    /// `validate`: every check, no output.
    public var writesOutput = true
    /// The value of `SOURCE_DATE_EPOCH`, for `built_at`.
    public var sourceDateEpoch: String?
    /// Called as the build goes (after each block read, and at each phase).
    public var progress: (@Sendable (BuildProgress) -> Void)?
    /// Called with the temporary files' paths just before the build makes them, so that a
    /// command can remove them if it is interrupted.
    public var willCreateTemporaries: (@Sendable ([String]) -> Void)?
    /// Bytes of side rows each entity keeps in memory before they go to the spill file
    /// (`SideRowLog`); tests set 1 to send every row through the file.
    var sideRowBytesInMemory = SideRowLog.defaultSpillBytes
    /// How much the reading thread hands over at a time (`DumpReader.ChunkLimits`); tests set
    /// one event to cut the dumps at every record.
    var readChunk = DumpReader.ChunkLimits()

    public init(mapping: String, dumps: String) {
        self.mapping = mapping
        self.dumps = dumps
    }
}
