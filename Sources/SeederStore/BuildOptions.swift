import Foundation
import SeederCore
import SeederFiles

/// What `seeder build` and `seeder validate` are asked to do.
package struct BuildOptions: Sendable {
    /// The mapping file.
    package var mapping: String
    /// The dumps directory.
    package var dumps: String
    /// The output file; `nil` takes the mapping's `output:`, else `<mapping stem>.sqlite`.
    package var output: String?
    /// `--force`: replace an existing output that is not a seed.
    package var force = false
    /// The report file the command writes after the build (`--report`), checked with the output
    /// before any work (`OutputGuard`); the build itself does not write it.
    package var report: String?
    /// `--on-conflict`: overrides every entity's `onConflict`.
    package var onConflict: ConflictPolicy?
    /// `--max-errors`.
    package var maxErrors: Int = 100
    /// `--strict`: warnings are errors.
    package var strict = false
    /// `validate`: every check, no output.
    package var writesOutput = true
    /// The value of `SOURCE_DATE_EPOCH`, for `built_at`.
    package var sourceDateEpoch: String?
    /// Called as the build goes (after each block read, and at each phase).
    package var progress: (@Sendable (BuildProgress) -> Void)?
    /// Called with the temporary files' paths just before the build makes them, so that a
    /// command can remove them if it is interrupted.
    package var willCreateTemporaries: (@Sendable ([String]) -> Void)?
    /// Bytes of side rows each entity keeps in memory before they go to the spill file
    /// (`SideRowLog`); tests set 1 to send every row through the file.
    var sideRowBytesInMemory = SideRowLog.defaultSpillBytes
    /// How much the reading thread hands over at a time (`DumpReader.ChunkLimits`); tests set
    /// one event to cut the dumps at every record.
    var readChunk = DumpReader.ChunkLimits()

    package init(mapping: String, dumps: String) {
        self.mapping = mapping
        self.dumps = dumps
    }
}
