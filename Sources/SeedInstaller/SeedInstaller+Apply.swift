import Foundation

extension SeedInstaller {
    /// What `apply(changeset:to:)` did to the seed it was given.
    public enum Application: Sendable, Equatable {
        /// The changeset was applied: the file is the seed the changeset leads to.
        case patched(SeedInstallation.PatchReport)
        /// The changeset was not applied, for the reason `install()` would skip it with: it starts
        /// from another seed, does not name the seed it starts from, or cannot be read. The file
        /// was not written.
        case notApplied(SeedInstallation.SkippedChangeset)
    }

    /// Applies the changeset at `changeset` to the seed at `path`, in place, whichever seed the
    /// changeset leads to: for a tool that makes the new seed from the old one and a changeset,
    /// on a copy it then publishes (`seeder patch`, docs/commands.md), not for an app, which calls
    /// `install()`. The checks and the patch are `install()`'s: the changeset must start from the
    /// file's seed and read whole, and is applied in one transaction under `onConflict`; an error
    /// leaves the file as it was. `name` is how errors name `path` (the file the copy was made of).
    ///
    /// ```swift
    /// switch try SeedInstaller.apply(changeset: "release.changeset", to: "copy.sqlite") {
    /// case let .patched(report): print(report)
    /// case let .notApplied(skipped): print(skipped)
    /// }
    /// ```
    public static func apply(
        changeset: String, to path: String, shownAs name: String? = nil, onConflict: ConflictPolicy = .abort
    ) throws(SeedInstallError) -> Application {
        do throws(SeedInstallError) {
            let pinned: PinnedChangeset
            let shapes: TableShapes
            let current: SeedMetadata
            (shapes, current) = try { () throws(SeedInstallError) in
                // Closed before the patch writes to the file.
                let (connection, metadata) = try SeedMetadata.open(path)
                return (try TableShapes(connection), metadata)
            }()
            // The changeset of two seeds that hold the same rows is empty, and leaves any seed as
            // it is.
            var status = stat()
            if stat(changeset, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == 0 {
                return .patched(.init(changeset: changeset, appliedChanges: 0, conflicts: []))
            }
            let target: SeedIdentity
            let survey: ChangesetSurvey
            do throws(PinnedChangeset.NotApplicable) {
                pinned = try PinnedChangeset(path: changeset)
                guard let values = pinned.head.replayed(on: current.values), let identity = try? SeedIdentity(metadata: values) else {
                    throw .init(.startsFromAnotherSeed)
                }
                target = identity
                survey = try pinned.survey(against: shapes)
            } catch {
                return .notApplied(.init(changeset: changeset, reason: error.reason))
            }
            let patcher = try SeedPatcher(
                changeset: pinned.file, survey: survey, shapes: shapes, seedShapes: nil, workingCopy: path, target: target,
                policy: onConflict)
            return .patched(try patcher.apply())
        } catch {
            throw name.map { error.naming(path, as: $0) } ?? error
        }
    }
}
