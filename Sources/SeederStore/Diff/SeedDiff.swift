import SeederCore
import SeederFiles

/// What differs between two seeds (`SeedDiffer`'s result): schema, metadata and sources, and per
/// table the counts of records added, removed, changed and unchanged. The records themselves are
/// handed out one at a time while the differ runs (`RecordChange`), so no table is ever held.
package struct SeedDiff: Sendable {
    /// The two files.
    package var old: SeedCatalog
    package var new: SeedCatalog
    /// Tables, columns, primary keys, indexes and `user_version`, in that order.
    package var schema: [SchemaChange]
    /// `seed_metadata` keys whose values differ (digests, versions), by key.
    package var metadata: [MetadataChange]
    /// The sources whose files differ, by path (`SourceChange.changes`).
    package var sources: [SourceChange]
    /// The tables compared, entities first in the new seed's mapping order, then links, then
    /// any other table by name.
    package var tables: [TableDiff]
    /// `--entity`: the names the comparison was narrowed to; empty for the whole seed. Sources
    /// describe the whole seed, so a narrowed diff does not list them (docs/commands.md, diff).
    package var entities: [String] = []

    /// `true` when both seeds hold the same records under the same schema (docs/commands.md: exit
    /// 0), even if their metadata or bytes differ.
    package var holdsSameRecords: Bool {
        schema.isEmpty && tables.allSatisfy(\.counts.isUnchanged)
    }
}

/// One difference in the schema.
package struct SchemaChange: Sendable, Hashable {
    /// What changed.
    package enum Kind: String, Sendable {
        case tableAdded, tableRemoved, columnAdded, columnRemoved, columnRetyped, primaryKeyChanged
        case indexAdded, indexRemoved, indexChanged, userVersionChanged
        /// A search table's definition: its module, tokenizer, columns or triggers.
        case searchTableChanged
    }

    package var kind: Kind
    /// The table concerned (`nil` for `user_version`).
    package var table: String?
    /// The column or index concerned.
    package var name: String?
    /// The old and new declared type, key, index SQL or version.
    package var old: String?
    package var new: String?
}

/// A metadata key whose value differs; `nil` on the side that lacks it.
package struct MetadataChange: Sendable, Hashable {
    package var key: String
    package var old: String?
    package var new: String?
}

/// How many records of a table were added, removed, changed and left as they were.
package struct DiffCounts: Sendable, Hashable {
    package var added = 0
    package var removed = 0
    package var changed = 0
    package var unchanged = 0

    /// Records added, removed or changed.
    package var differing: Int { added + removed + changed }
    /// `true` when nothing was added, removed or changed.
    package var isUnchanged: Bool { differing == 0 }
}

/// One table compared record by record.
package struct TableDiff: Sendable {
    /// What the table holds.
    package enum Role: Sendable, Hashable {
        /// An entity's rows.
        case entity(String)
        /// A many-to-many relationship's links.
        case links(MappingSummary.JoinTable)
        /// A table no mapping describes.
        case table
    }

    /// How records are paired between the seeds.
    package enum Pairing: Sendable, Hashable {
        /// By the entity's identity (a seed).
        case identity
        /// By the declared primary key (any other SQLite table).
        case primaryKey
        /// As a multiset of whole rows, for the reason given: a row is either in both or it is
        /// added or removed; nothing is "changed".
        case rows(reason: String)
    }

    /// Its position in `SeedDiff.tables`.
    package var index: Int
    /// The table's name.
    package var table: String
    /// The entity's name, or the table's.
    package var name: String
    package var role: Role
    package var pairing: Pairing
    /// The columns that pair records (empty when pairing whole rows).
    package var keyColumns: [String]
    /// The other columns both seeds have, compared value by value, in the new seed's order.
    package var fieldColumns: [String]
    /// Columns only the old or only the new seed has (when pairing by key): a non-null value
    /// there changes the record, from or to "absent".
    package var oldOnlyColumns: [String] = []
    package var newOnlyColumns: [String] = []
    /// Columns of `json` attributes: their text is JSON, shown as it is rather than quoted.
    package var jsonColumns: Set<String> = []
    package var counts = DiffCounts()
}

/// A record added, removed or changed.
package struct RecordChange: Sendable {
    package enum Kind: String, Sendable {
        case added, removed, changed
    }

    package var kind: Kind
    /// The key columns' values: the record's identity (empty when pairing whole rows).
    package var key: [SQLValue]
    /// For `changed`, every field that differs; for `added` and `removed`, every field of the
    /// record, `old` or `new` only.
    package var fields: [FieldChange]
    /// For `changed`, the fields that did not change and are not null, which a person may know the
    /// record by (its `name`, its `title`): what text and markdown name it with.
    package var unchanged: [(column: String, value: SQLValue)] = []
}

/// A field's values on both sides; `nil` on the side that has no record or no such column.
package struct FieldChange: Sendable {
    package var column: String
    package var old: SQLValue?
    package var new: SQLValue?
}
