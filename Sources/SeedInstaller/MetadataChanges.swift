import CSQLite

/// The `seed_metadata` changes a changeset starts with: what tells which seed it leads from and
/// to, without reading its other tables (docs/guides/updating-an-installed-seed.md).
struct MetadataChanges {
    /// One change to one key; `nil` where the change does not carry the value (an update's
    /// unchanged column).
    struct Step {
        var operation: Int32
        var key: String?
        var old: String?
        var new: String?
    }

    var steps: [Step] = []
    /// `false` when the changeset's `seed_metadata` is not `(key PRIMARY KEY, value)`.
    var wellFormed = true

    /// Reads the changes of the changeset's first table when it is `seed_metadata`, and stops at
    /// the first change to another table.
    init(reading changeset: ChangesetFile) throws(SeedInstallError) {
        try changeset.forEachChange { (iterator: OpaquePointer) throws(SeedInstallError) -> Bool in
            let change = Change(iterator)
            guard change.table == "seed_metadata" else { return false }
            guard change.columns == 2, change.primaryKey == [true, false] else {
                wellFormed = false
                return false
            }
            let keyValue = change.operation == SQLITE_INSERT ? change.new(0) : change.old(0)
            steps.append(
                Step(
                    operation: change.operation, key: keyValue.flatMap(Change.text),
                    old: change.operation == SQLITE_INSERT ? nil : change.old(1).flatMap(Change.text),
                    new: change.operation == SQLITE_DELETE ? nil : change.new(1).flatMap(Change.text)))
            return true
        }
    }

    /// Whether these changes apply to `metadata` exactly (every old value matches the row, every
    /// inserted key is new) and leave it naming `target`.
    func lead(from metadata: [String: String], to target: SeedIdentity) -> Bool {
        guard wellFormed, !steps.isEmpty else { return false }
        var values = metadata
        for step in steps {
            guard let key = step.key else { return false }
            switch step.operation {
            case SQLITE_INSERT:
                guard values[key] == nil, let new = step.new else { return false }
                values[key] = new
            case SQLITE_UPDATE:
                guard let current = values[key] else { return false }
                if let old = step.old, old != current { return false }
                if let new = step.new { values[key] = new }
            case SQLITE_DELETE:
                guard let current = values[key], step.old == current else { return false }
                values[key] = nil
            default:
                return false
            }
        }
        return (try? SeedIdentity(metadata: values)) == target
    }
}
