import Foundation
import SeederCore
import SeederFiles

/// The checks on a seed output (`-o` of `build` and `patch`): the file guards of `OutputGuard`,
/// and that an existing output is a seed, which takes SQLite to tell.
extension OutputGuard {
    /// Checks the output `output`.
    func checkOutput(_ output: String, force: Bool) throws(OutputError) {
        let status = PathStatus(output)
        try Self.checkKind(status, "the output")
        try checkNotAnInput(status, "the output")
        try Self.checkReplaceable(status, force: force)
    }

    /// Checks that the existing output at `status` may be replaced: a seed, or anything with
    /// `force`, and never a file whose `-wal` holds transactions.
    static func checkReplaceable(_ status: PathStatus, force: Bool) throws(OutputError) {
        let output = status.path
        if status.exists, !force, let reason = SeedFile.notASeedReason(output) {
            throw OutputError(.outputRefused, "the output \(output) exists and is not a seed: \(reason); --force replaces it")
        }
        if status.exists, PathStatus.walHoldsTransactions(output) {
            throw OutputError(
                .outputRefused,
                "the output \(output) may not be replaced: \(output)-wal beside it holds transactions not yet in it "
                    + "(a program has it open, or crashed with it open)")
        }
    }
}
