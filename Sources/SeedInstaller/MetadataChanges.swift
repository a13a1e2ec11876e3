import CSQLite

/// The `seed_metadata` changes of a changeset: what tells which seed it leads from and to
/// (docs/guides/updating-an-installed-seed.md, The changesets).
struct MetadataChanges {
    /// One change to one key; `nil` where the change does not carry the value (an update's
    /// unchanged column).
    struct Step {
        var operation: Int32
        var key: String?
        var old: String?
        var new: String?

        /// An update of the value to itself: the pin `seeder diff --changeset` writes last.
        var isPin: Bool { operation == SQLITE_UPDATE && old != nil && old == new }
    }

    /// Every `seed_metadata` change, in the file's order.
    var steps: [Step] = []
    /// The changes since the last change to another table.
    private var tail: [Step] = []
    /// `false` when the changeset's `seed_metadata` is not `(key PRIMARY KEY, value)`.
    var wellFormed = true

    /// Reads the changeset's `seed_metadata` changes, wherever they are in it.
    init(reading changeset: ChangesetFile) throws(UnreadableChangeset) {
        try changeset.forEachChange { iterator in
            let change = Change(iterator)
            guard change.table == "seed_metadata" else {
                tail = []
                return true
            }
            guard change.columns == 2, change.primaryKey == [true, false] else {
                wellFormed = false
                return false
            }
            let keyValue = change.operation == SQLITE_INSERT ? change.new(0) : change.old(0)
            let step = Step(
                operation: change.operation, key: keyValue.flatMap(Change.text),
                old: change.operation == SQLITE_INSERT ? nil : change.old(1).flatMap(Change.text),
                new: change.operation == SQLITE_DELETE ? nil : change.new(1).flatMap(Change.text))
            steps.append(step)
            tail.append(step)
            return true
        }
    }

    /// Whether the changeset ends with the pin of every identity key: a changeset cut short,
    /// even between two changes, does not.
    var endsWithThePin: Bool {
        Set(tail.filter(\.isPin).compactMap(\.key)).isSuperset(of: SeedIdentity.keys)
    }

    /// Where a changeset leads, as far as the working copy's metadata and the bundled seed tell.
    enum Lead: Equatable {
        /// From the working copy's seed to the bundled one: the patch.
        case leads
        /// From another seed than the working copy's.
        case startsFromAnotherSeed
        /// From the working copy's seed, but to another seed than the bundled one.
        case leadsToAnotherSeed
    }

    /// Whether these changes apply to `metadata` exactly and name each identity key with the
    /// value it has before (`replayed(on:)`), so that they start from the working copy's seed; and
    /// then whether they leave the metadata naming `target`.
    func lead(from metadata: [String: String], to target: SeedIdentity) -> Lead {
        guard let values = replayed(on: metadata) else { return .startsFromAnotherSeed }
        return (try? SeedIdentity(metadata: values)) == target ? .leads : .leadsToAnotherSeed
    }

    /// The metadata these changes leave, applied to `metadata`; `nil` unless they apply to it
    /// exactly (every old value matches the row, every inserted key is new) and name each
    /// identity key with the value it has before. A changeset that leaves an identity key out
    /// (one made by `sqldiff --changeset`, or by a seeder that wrote only the keys that changed)
    /// does not say which seed it starts from, and starts from none
    /// (docs/guides/updating-an-installed-seed.md, The changesets).
    func replayed(on metadata: [String: String]) -> [String: String]? {
        guard wellFormed, !steps.isEmpty else { return nil }
        var values = metadata
        var pinned: Set<String> = []
        for step in steps {
            guard let key = step.key else { return nil }
            switch step.operation {
            case SQLITE_INSERT:
                guard values[key] == nil, let new = step.new else { return nil }
                values[key] = new
                pinned.insert(key)
            case SQLITE_UPDATE:
                guard let current = values[key] else { return nil }
                if let old = step.old {
                    guard old == current else { return nil }
                    pinned.insert(key)
                }
                if let new = step.new { values[key] = new }
            case SQLITE_DELETE:
                guard let current = values[key], step.old == current else { return nil }
                values[key] = nil
                pinned.insert(key)
            default:
                return nil
            }
        }
        return pinned.isSuperset(of: SeedIdentity.keys) ? values : nil
    }

    /// Whether the changes name every identity key with its old value: what a changeset must do
    /// to say which seed it starts from.
    var pinsTheIdentity: Bool {
        let named = steps.filter { $0.operation == SQLITE_INSERT || $0.old != nil }.compactMap(\.key)
        return wellFormed && Set(named).isSuperset(of: SeedIdentity.keys)
    }
}
