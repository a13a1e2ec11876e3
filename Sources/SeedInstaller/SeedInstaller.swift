import Foundation

/// Puts the seed an app bundles in place as its working copy: the database file the app opens,
/// reads and writes (docs/guides/updating-an-installed-seed.md).
///
/// Call it on every launch, before the app opens its database:
///
/// ```swift
/// let installer = SeedInstaller(
///     seed: Bundle.main.path(forResource: "catalog", ofType: "sqlite")!,
///     workingCopy: supportDirectory + "/catalog.sqlite",
///     changesets: Bundle.main.paths(forResourcesOfType: "changeset", inDirectory: "changesets"),
///     onConflict: .seedWins)
/// switch try installer.install() {
/// case .installed, .upToDate, .replaced, .patched: break
/// }
/// ```
///
/// Each call ends in one of four ways: no working copy, so the seed is copied (`installed`); the
/// copy is the same seed (`upToDate`, not written); a changeset leads from the copy's seed to the
/// bundled one (`patched`, the app's rows kept); or the copy is replaced by the seed
/// (`replaced`). Copies are atomic and patches one transaction: a killed app leaves the old
/// working copy or the new one.
public struct SeedInstaller: Sendable {
    /// The seed the app ships, read only.
    public var seed: String
    /// The app's own copy, which the installer creates, patches or replaces.
    public var workingCopy: String
    /// Changesets from earlier seeds to this one (`seeder diff OLD NEW --changeset FILE`), tried
    /// in order; the first that leads from the working copy's seed to `seed` is applied.
    public var changesets: [String]
    /// What a patch does when the seed's changes meet rows the app changed.
    public var onConflict: ConflictPolicy

    /// An installer of `seed` as `workingCopy`. Nothing is read until `install()` or `replace()`.
    public init(seed: String, workingCopy: String, changesets: [String] = [], onConflict: ConflictPolicy = .abort) {
        self.seed = seed
        self.workingCopy = workingCopy
        self.changesets = changesets
        self.onConflict = onConflict
    }

    /// Brings the working copy to the bundled seed: copies it when there is none, leaves it alone
    /// when it is the same seed, patches it when a changeset leads there, replaces it when none
    /// does.
    ///
    /// A working copy that is no seed (not SQLite, no `seed_metadata`, a directory, a symbolic
    /// link) is never touched: the call throws `.notASeed`. A changeset that cannot be read, that
    /// starts from another seed, or that leads to another than the bundled one, is skipped and
    /// named in the outcome. A patch that cannot apply (`.conflict`, `.danglingReferences`,
    /// `.changesetDoesNotFit`) throws and leaves the copy as it was; the app may then keep it, or
    /// call `replace()`.
    public func install() throws(SeedInstallError) -> SeedInstallation {
        try refuseLink()
        try AtomicCopy.removeLeftover(for: workingCopy)
        switch try plan() {
        case .install:
            try AtomicCopy.copy(seed, to: workingCopy)
            return .installed
        case .none:
            return .upToDate
        case let .patch(patcher, skipped):
            var report = try patcher.apply()
            report.skipped = skipped
            return .patched(report)
        case let .replace(skipped):
            try replaceWorkingCopy()
            return .replaced(skipped: skipped)
        }
    }

    /// What `install()` will do.
    private enum Plan {
        case install, none
        case replace([SeedInstallation.SkippedChangeset])
        case patch(SeedPatcher, skipped: [SeedInstallation.SkippedChangeset])
    }

    /// Reads the seed, the working copy and the changesets, and closes both files before anything
    /// writes to the working copy. The first changeset that reads whole and leads from the copy's
    /// seed to the bundled one is the patch; the copy is replaced only when none does.
    private func plan() throws(SeedInstallError) -> Plan {
        let (bundled, target) = try openSeed()
        guard try exists(workingCopy) else { return .install }
        let (copy, current) = try SeedMetadata.open(workingCopy)
        if current.identity == target.identity { return .none }
        var skipped: [SeedInstallation.SkippedChangeset] = []
        var shapes: (copy: TableShapes, seed: TableShapes)?
        for path in changesets {
            let changeset: PinnedChangeset
            let survey: ChangesetSurvey
            do throws(PinnedChangeset.NotApplicable) {
                changeset = try PinnedChangeset(path: path)
                switch changeset.head.lead(from: current.values, to: target.identity) {
                case .leads: break
                case .startsFromAnotherSeed: throw .init(.startsFromAnotherSeed)
                case .leadsToAnotherSeed: throw .init(.leadsToAnotherSeed)
                }
            } catch {
                skipped.append(.init(changeset: path, reason: error.reason))
                continue
            }
            if shapes == nil { shapes = (try TableShapes(copy), try TableShapes(bundled)) }
            guard let tables = shapes else { break }
            do throws(PinnedChangeset.NotApplicable) {
                survey = try changeset.survey(against: tables.copy)
            } catch {
                skipped.append(.init(changeset: path, reason: error.reason))
                continue
            }
            let patcher = try SeedPatcher(
                changeset: changeset.file, survey: survey, shapes: tables.copy, seedShapes: tables.seed, workingCopy: workingCopy,
                target: target.identity, policy: onConflict)
            return .patch(patcher, skipped: skipped)
        }
        return .replace(skipped)
    }

    /// Replaces the working copy with the bundled seed, whatever seed it holds: for an app that
    /// chooses a fresh copy after a patch could not apply. The app's rows are gone. A working copy
    /// that is no seed is not touched (`.notASeed`); an absent one is installed.
    public func replace() throws(SeedInstallError) -> SeedInstallation {
        try refuseLink()
        try AtomicCopy.removeLeftover(for: workingCopy)
        _ = try openSeed()
        guard try exists(workingCopy) else {
            try AtomicCopy.copy(seed, to: workingCopy)
            return .installed
        }
        _ = try SeedMetadata.open(workingCopy)
        try replaceWorkingCopy()
        return .replaced(skipped: [])
    }

    /// Opens the bundled seed; one that is no seed is the app's build's fault, not the copy's.
    private func openSeed() throws(SeedInstallError) -> (SQLiteConnection, SeedMetadata) {
        do {
            return try SeedMetadata.open(seed)
        } catch let .notASeed(path, reason) {
            throw .bundledSeedIsNotASeed(path: path, reason: reason)
        }
    }

    /// Refuses a working copy that is a symbolic link: a patch would write through it, a replace
    /// would rename a plain file over it, so the two would leave different files
    /// (docs/guides/updating-an-installed-seed.md, What it does on each launch).
    private func refuseLink() throws(SeedInstallError) {
        var status = stat()
        guard lstat(workingCopy, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFLNK {
            throw .notASeed(path: workingCopy, reason: "a symbolic link; give the installer the file it points to")
        }
    }

    /// Settles the old copy, then copies the seed over it. A rollback journal or WAL of the old
    /// file left beside the new one would be applied to it on the next open and corrupt it: so
    /// the old file's hot journal is rolled back (by reading it), its WAL checkpointed and
    /// truncated, and its journal mode set to `DELETE`, which removes the WAL and its index.
    private func replaceWorkingCopy() throws(SeedInstallError) {
        do {
            let old = try SQLiteConnection(path: workingCopy, readOnly: false)
            _ = try old.rows("SELECT count(*) FROM sqlite_master", doing: "read")
            _ = try old.rows("PRAGMA wal_checkpoint(TRUNCATE)", doing: "checkpoint")
            let mode = try old.rows("PRAGMA journal_mode = DELETE", doing: "leave WAL mode in")
            guard (mode.first?.first ?? nil) == "delete" else {
                throw SeedInstallError.sqlite(
                    operation: "leave WAL mode in", path: workingCopy,
                    message: "the database is open elsewhere (journal mode stays \(mode))")
            }
        }
        try AtomicCopy.copy(seed, to: workingCopy)
    }

    /// Whether `path` exists (as anything: a directory there is refused later, not overwritten).
    private func exists(_ path: String) throws(SeedInstallError) -> Bool {
        var status = stat()
        if lstat(path, &status) == 0 { return true }
        guard errno == ENOENT else { throw .system("look at", path) }
        return false
    }
}
