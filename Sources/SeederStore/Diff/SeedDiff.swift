import SeederCore
import SeederFiles

/// What differs between two seeds (`SeedDiffer`'s result): schema, metadata and sources, and per
/// table the counts of records added, removed, changed and unchanged. The records themselves are
/// handed out one at a time while the differ runs (`RecordChange`), so no table is ever held.
public struct SeedDiff: Sendable {
    /// The two files.
    public var old: SeedCatalog
    public var new: SeedCatalog
    /// Tables, columns, primary keys, indexes and `user_version`, in that order.
    public var schema: [SchemaChange]
    /// `seed_metadata` keys whose values differ (digests, versions), by key.
    public var metadata: [MetadataChange]
    /// The sources whose files differ, by path (`SourceChange.changes`).
    public var sources: [SourceChange]
    /// The tables compared, entities first in the new seed's mapping order, then links, then
    /// any other table by name.
    public var tables: [TableDiff]
    /// `--entity`: the names the comparison was narrowed to; empty for the whole seed. Sources
    /// describe the whole seed, so a narrowed diff does not list them (docs/commands.md, diff).
    public var entities: [String] = []

    /// `true` when both seeds hold the same records under the same schema (docs/commands.md: exit
    /// 0), even if their metadata or bytes differ.
    public var holdsSameRecords: Bool {
        schema.isEmpty && tables.allSatisfy(\.counts.isUnchanged)
    }
}

/// One difference in the schema.
public struct SchemaChange: Sendable, Hashable {
    /// What changed.
    public enum Kind: String, Sendable {
        case tableAdded, tableRemoved, columnAdded, columnRemoved, columnRetyped, primaryKeyChanged
        case indexAdded, indexRemoved, indexChanged, userVersionChanged
        /// A search table's definition: its module, tokenizer, columns or triggers.
        case searchTableChanged
    }

    public var kind: Kind
    /// The table concerned (`nil` for `user_version`).
    public var table: String?
    /// The column or index concerned.
    public var name: String?
    /// The old and new declared type, key, index SQL or version.
    public var old: String?
    public var new: String?
}

/// A metadata key whose value differs; `nil` on the side that lacks it.
public struct MetadataChange: Sendable, Hashable {
    public var key: String
    public var old: String?
    public var new: String?
}

/// How many records of a table were added, removed, changed and left as they were.
public struct DiffCounts: Sendable, Hashable {
    public var added = 0
    public var removed = 0
    public var changed = 0
    public var unchanged = 0

    /// Records added, removed or changed.
    public var differing: Int { added + removed + changed }
    /// `true` when nothing was added, removed or changed.
    public var isUnchanged: Bool { differing == 0 }
}

/// One table compared record by record.
public struct TableDiff: Sendable {
    /// What the table holds.
    public enum Role: Sendable, Hashable {
        /// An entity's rows.
        case entity(String)
        /// A many-to-many relationship's links.
        case links(MappingSummary.JoinTable)
        /// A table no mapping describes.
        case table
    }

    /// How records are paired between the seeds.
    public enum Pairing: Sendable, Hashable {
        /// By the entity's identity (a seed).
        case identity
        /// By the declared primary key (any other SQLite table).
        case primaryKey
        /// As a multiset of whole rows, for the reason given: a row is either in both or it is
        /// added or removed; nothing is "changed".
        case rows(reason: String)
    }

    /// Its position in `SeedDiff.tables`.
    public var index: Int
    /// The table's name.
    public var table: String
    /// The entity's name, or the table's.
    public var name: String
    public var role: Role
    public var pairing: Pairing
    /// The columns that pair records (empty when pairing whole rows).
    public var keyColumns: [String]
    /// The other columns both seeds have, compared value by value, in the new seed's order.
    public var fieldColumns: [String]
    /// Columns only the old or only the new seed has (when pairing by key): a non-null value
    /// there changes the record, from or to "absent".
    public var oldOnlyColumns: [String] = []
    public var newOnlyColumns: [String] = []
    /// Columns of `json` attributes: their text is JSON, shown as it is rather than quoted.
    public var jsonColumns: Set<String> = []
    public var counts = DiffCounts()
}

/// A record added, removed or changed.
public struct RecordChange: Sendable {
    public enum Kind: String, Sendable {
        case added, removed, changed
    }

    public var kind: Kind
    /// The key columns' values: the record's identity (empty when pairing whole rows).
    public var key: [SQLValue]
    /// For `changed`, every field that differs; for `added` and `removed`, every field of the
    /// record, `old` or `new` only.
    public var fields: [FieldChange]
    /// For `changed`, the fields that did not change and are not null, which a person may know the
    /// record by (its `name`, its `title`): what text and markdown name it with.
    public var unchanged: [(column: String, value: SQLValue)] = []
}

/// A field's values on both sides; `nil` on the side that has no record or no such column.
public struct FieldChange: Sendable {
    public var column: String
    public var old: SQLValue?
    public var new: SQLValue?
}
