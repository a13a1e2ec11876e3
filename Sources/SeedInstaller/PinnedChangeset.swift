/// A changeset file whose head names the seed it starts from and whose end names the seed it
/// leads to, read before anything is written (docs/guides/updating-an-installed-seed.md, The
/// changesets). What `install()` tries each changeset with, and `apply(changeset:to:)` its one.
struct PinnedChangeset {
    let file: ChangesetFile
    /// Its `seed_metadata` changes.
    let head: MetadataChanges

    /// Why a changeset is not applied, as `install()` reports a skipped one.
    struct NotApplicable: Error {
        var reason: SeedInstallation.SkippedChangeset.Reason

        init(_ reason: SeedInstallation.SkippedChangeset.Reason) {
            self.reason = reason
        }
    }

    /// Opens the changeset at `path` and reads its `seed_metadata` changes: it must read, name
    /// every identity key with its old value, and end with the pin of each.
    init(path: String) throws(NotApplicable) {
        do throws(UnreadableChangeset) {
            file = try ChangesetFile(path: path)
            head = try MetadataChanges(reading: file)
        } catch {
            throw NotApplicable(.unreadable(error.reason))
        }
        guard head.pinsTheIdentity else { throw NotApplicable(.identityNotPinned) }
        guard head.endsWithThePin else { throw NotApplicable(.unreadable("cut short: it does not end with the seed it leads to")) }
    }

    /// Reads the whole changeset against the working copy's tables (`ChangesetSurvey`): one
    /// truncated or corrupt after its head is unreadable.
    func survey(against shapes: TableShapes) throws(NotApplicable) -> ChangesetSurvey {
        do throws(UnreadableChangeset) {
            return try ChangesetSurvey(file, against: shapes)
        } catch {
            throw NotApplicable(.unreadable(error.reason))
        }
    }
}
