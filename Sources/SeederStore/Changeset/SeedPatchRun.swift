import Foundation
import GRDB
import SeedInstaller
import SeederCore
import SeederFiles

/// One `seeder patch` (docs/commands.md, patch): the changeset `seeder diff --changeset` made,
/// applied by `SeedInstaller` to a copy of the seed, and the copy published as the output.
///
/// The seed is only read. The copy is a temporary file beside the output (`AtomicFile`'s name),
/// renamed over it once the patch committed: a failure removes it, leaving no output, or the
/// output that was there, as it was. The changeset's checks, its conflicts and what it did are
/// `SeedInstaller.apply(changeset:to:)`'s, under the `.abort` policy: the seed holds no app's
/// rows, so any conflict means the changeset was not made from it.
///
/// ```swift
/// let report = SeedPatchRun(seed: "release.sqlite", changeset: "release.changeset", output: "next.sqlite").run()
/// exit(report.outcome.exitStatus)
/// ```
package struct SeedPatchRun: Sendable {
    package var seed: String
    package var changeset: String
    package var output: String
    /// `--force`: replace an existing output that is not a seed.
    package var force = false

    package init(seed: String, changeset: String, output: String, force: Bool = false) {
        self.seed = seed
        self.changeset = changeset
        self.output = output
        self.force = force
    }

    /// Checks the files, copies the seed, applies the changeset and publishes the copy;
    /// `willCreate` is called with the temporary file's path before it is made.
    package func run(willCreate: ([String]) -> Void = { _ in }) -> SeedPatchReport {
        do {
            try checkSeed()
            try checkChangeset()
            try OutputGuard.checkPatched(output, seed: seed, changeset: changeset, force: force)
        } catch let error as SeedFileError {
            return SeedPatchReport(.failed, "\(error)")
        } catch {
            return SeedPatchReport(.failed, "error: \(error)")
        }
        let temporary = AtomicFile.temporaryPath(for: output)
        willCreate([temporary])
        let report = patch(copy: temporary)
        if report.outcome != .patched { unlink(temporary) }
        return report
    }

    /// The seed must be a regular file SQLite reads, with a `seed_metadata` table, and whole:
    /// a `-wal` beside it holding transactions would not be in its copy.
    private func checkSeed() throws {
        try SeedFile.open(seed).close()
        if let reason = SeedFile.notASeedReason(seed) { throw SeedFileError(path: seed, reason: "not a seed: \(reason)") }
        if PathStatus.walHoldsTransactions(seed) {
            throw SeedFileError(
                path: seed,
                reason: "\(seed)-wal beside it holds transactions not yet in it (a program has it open, or crashed with it open)")
        }
    }

    /// The changeset, when it exists, must be a regular file, as every input of a command
    /// (docs/commands.md, Files a command touches): opening a FIFO would wait for a writer that
    /// may never come. One that does not exist is the installer's to report.
    private func checkChangeset() throws {
        if PathStatus(changeset).exists { try SeedFile.checkReadable(changeset) }
    }

    /// Copies the seed to `copy`, applies the changeset to it and renames it over the output.
    private func patch(copy: String) -> SeedPatchReport {
        do {
            try Self.copy(seed, to: copy, shownAs: output)
            switch try SeedInstaller.apply(changeset: changeset, to: copy, shownAs: seed) {
            case let .notApplied(skipped):
                if case .unreadable = skipped.reason { return SeedPatchReport(.failed, "error: " + refusal(skipped.reason)) }
                return SeedPatchReport(.notApplied, "error: " + refusal(skipped.reason))
            case let .patched(report):
                try FinishedFile(path: copy, checked: false).publish(as: output, shown: output)
                return SeedPatchReport(report)
            }
        } catch let error as SeedInstallError {
            switch error {
            case let .notASeed(_, reason): return SeedPatchReport(.failed, "\(seed): error: not a seed: \(reason)")
            case .fileSystem, .sqlite, .bundledSeedIsNotASeed: return SeedPatchReport(.failed, "error: \(error)")
            case .conflict, .danglingReferences, .changesetDoesNotFit, .patchMissedTheSeed:
                return SeedPatchReport(.notApplied, "error: \(error)")
            }
        } catch {
            return SeedPatchReport(.failed, "error: \(error)")
        }
    }

    /// Why the changeset was not applied, in the command's words.
    private func refusal(_ reason: SeedInstallation.SkippedChangeset.Reason) -> String {
        switch reason {
        case .startsFromAnotherSeed, .leadsToAnotherSeed:
            return "the changeset \(changeset) starts from another seed than \(seed); \(output) was not written"
        case .identityNotPinned:
            return "the changeset \(changeset) does not name the seed it starts from (made by sqldiff --changeset, or by an older seeder); "
                + "\(output) was not written"
        case let .unreadable(why):
            return "cannot read the changeset \(changeset): \(why); \(output) was not written"
        }
    }

    /// Copies the file `source` to a new file `destination`, which messages name `shown`.
    private static func copy(_ source: String, to destination: String, shownAs shown: String) throws {
        let input = try FileByteSource(path: source)
        // Named by the process: one there is a dead process's leftover.
        unlink(destination)
        let descriptor = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw OutputError.cannot("create", shown, error: errno) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try input.read(into: $0) }
            if count == 0 { return }
            let failure = buffer.withUnsafeBytes { writeAll(descriptor, UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            guard failure == 0 else { throw OutputError.cannot("write", shown, error: failure) }
        }
    }
}
