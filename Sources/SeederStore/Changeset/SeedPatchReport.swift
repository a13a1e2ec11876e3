import SeedInstaller
import SeederFiles

/// What a `seeder patch` came to (docs/commands.md, patch): the patch applied, or why not.
/// `SeedPatchRun` makes it, so that the command only prints it and maps its outcome to the exit
/// status.
public struct SeedPatchReport: Sendable {
    /// How a patch ended; the raw value is the exit status (docs/commands.md, Exit status).
    public enum Outcome: Int, Sendable {
        /// The output was written: the seed the changeset leads to.
        case patched = 0
        /// The changeset does not lead from the seed, or does not apply to its rows (a conflict,
        /// rows left pointing at nothing): nothing was written.
        case notApplied = 1
        /// A file could not be read or written, or may not be: nothing was written.
        case failed = 2
    }

    public var outcome: Outcome
    /// What the changeset did, when it was applied.
    public var patch: SeedInstallation.PatchReport?
    /// Why it stopped short: the whole line for standard error, without its newline.
    public var message: String?

    /// A report of an applied patch.
    init(_ patch: SeedInstallation.PatchReport) {
        outcome = .patched
        self.patch = patch
    }

    /// A report of a patch that stopped short.
    init(_ outcome: Outcome, _ message: String) {
        self.outcome = outcome
        self.message = message
    }
}
