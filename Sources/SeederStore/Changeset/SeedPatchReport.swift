import SeedInstaller
import SeederCore
import SeederFiles

/// What a `seeder patch` came to (docs/commands.md, patch): the patch applied, or why not.
/// `SeedPatchRun` makes it, so that the command only prints it and maps its outcome to the exit
/// status.
package struct SeedPatchReport: Sendable {
    /// How a patch ended (`RunOutcome`, in patch's words: `patched`, `notApplied`).
    package typealias Outcome = RunOutcome

    package var outcome: Outcome
    /// What the changeset did, when it was applied.
    package var patch: SeedInstallation.PatchReport?
    /// Why it stopped short: the whole line for standard error, without its newline.
    package var message: String?

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

extension RunOutcome {
    /// `patch`: the output was written, the seed the changeset leads to (status 0).
    package static var patched: RunOutcome { .success }
    /// `patch`: the changeset does not lead from the seed, or does not apply to its rows (a
    /// conflict, rows left pointing at nothing): nothing was written (status 1).
    package static var notApplied: RunOutcome { .invalid }
}
