import SeederCore
import SeederFiles

/// How the rows a build merged become rows of the app's own schema (docs/mapping.md, Fitting the
/// app's own schema): the app's empty database, and for each entity and many-to-many the app's
/// table and where each of its columns' values come from. Made by `SchemaFitter`, carried out by
/// `SeedProjector` once the rows are final.
struct SchemaFit {
    /// What kind of schema the app has.
    enum Mode: String {
        /// An empty database the app made (a GRDB migrator's, sqflite's, ...).
        case template
        /// A database made from Room's exported schema.
        case room
        /// An empty Core Data (or SwiftData) store.
        case coreData = "core data"
    }

    /// Where a column's values come from, per row of the seeder-built table.
    enum Value: Equatable {
        /// The built table's column, as it is.
        case column(String)
        /// The built table's column, or where it is null the column's declared default (SQL text):
        /// a `NOT NULL DEFAULT` column that an optional attribute fills.
        case columnOrDefault(String, String)
        /// A built `date` column, converted from its storage to seconds since 2001-01-01 (Core
        /// Data's TIMESTAMP).
        case coreDataDate(String, DateStorage)
        /// A built `uuid` column (text), as the 16 bytes Core Data stores a UUID as.
        case coreDataUUID(String)
        /// The row's number, from 1 in the order of the seed's rows: the rowid the app's
        /// rows point at (Core Data's `Z_PK`, an auto-generated key).
        case rowNumber
        /// The number of the row of entity `entity` whose key the built `columns` hold.
        case rowNumberOf(entity: Int, columns: [String])
        /// The same number on every row (Core Data's `Z_ENT`, `Z_OPT`).
        case constant(Int)

        /// The one built column whose value this is, converted or not; `nil` for a number
        /// seeder makes or a key of several columns.
        var builtColumn: String? {
            switch self {
            case let .column(name), let .columnOrDefault(name, _), let .coreDataDate(name, _), let .coreDataUUID(name): return name
            case let .rowNumberOf(_, columns): return columns.count == 1 ? columns[0] : nil
            case .rowNumber, .constant: return nil
            }
        }
    }

    /// A column of the app's table and its value.

    struct Fill {
        var column: String
        var value: Value
    }

    /// The rows of one seeder-built table, into one table of the app's.
    struct TableFill {
        /// The entity whose rows these are (numbered by it); for a join table, its owner.
        var entity: Int
        /// The table seeder built.
        var builtTable: String
        /// The app's table.
        var table: String
        var fills: [Fill]
    }

    var mode: SchemaFit.Mode
    /// Where the mapping names the app's schema: what a row the schema refuses is reported at.
    var location: SourceLocation
    /// Room's exported schema, which the filled database is checked against once more.
    var room: RoomSchema? = nil
    /// The app's empty database, as a file of it holds it (journal mode DELETE).
    var bytes: [UInt8]
    /// Entity tables in mapping order, then join tables.
    var tables: [TableFill]
    /// The primary-key columns of each entity's built table, by entity index: what its rows
    /// are numbered by.
    var keyColumns: [[String]]
    /// The entities whose rows are numbered (`rowNumber`, `rowNumberOf`).
    var numbered: [Int]
    /// Full-text tables of the app filled from their content table once it is full.
    var rebuilt: [String]
    /// Core Data: `Z_PRIMARYKEY.Z_ENT` of each entity that has one, by entity index.
    var coreDataNumbers: [Int: Int]
    /// The mapping with the app's table and column names: what `seed_metadata.mapping`
    /// describes, so `diff` and `inspect` read the app's tables.
    var described: Mapping
    /// The app's column that holds each numbered entity's row number, by table: `diff` compares
    /// what it points at, not the number.
    var rowNumberColumns: [String: String]
    /// Columns that hold another entity's row number, by app table, with that entity's table.
    var rowNumberReferences: [String: [String: String]]
    /// The attributes and to-ones that the app's `NOT NULL` columns make required.
    var requirements: [Requirement]

    /// What the app's schema says of an attribute or to-one of an entity (docs/mapping.md,
    /// Fitting the app's own schema): a `NOT NULL` column without a default makes it required,
    /// as if the mapping said `required: true`; a column with a default exempts the attribute
    /// from "matched no key", as a `default:` does.
    struct Requirement {
        var entity: Int
        var attribute: Int? = nil
        var relationship: Int? = nil
        /// An attribute whose column has a default.
        var defaultedAttribute: Int? = nil
        /// The column, for messages: `column 'title' of table 'task' is NOT NULL`.
        var reason = ""
    }

    /// `mapping` with the app's requirements in it: what the build checks records against. The
    /// description `seed_metadata` keeps says `required` too.
    func requiring(_ mapping: Mapping) -> Mapping {
        var mapping = mapping
        for requirement in requirements {
            if let attribute = requirement.attribute {
                mapping.entities[requirement.entity].attributes[attribute].isRequired = true
                mapping.entities[requirement.entity].attributes[attribute].requiredBy = requirement.reason
            }
            if let attribute = requirement.defaultedAttribute {
                mapping.entities[requirement.entity].attributes[attribute].hasColumnDefault = true
            }
            if let relationship = requirement.relationship {
                mapping.entities[requirement.entity].relationships[relationship].isRequired = true
                mapping.entities[requirement.entity].relationships[relationship].requiredBy = requirement.reason
            }
        }
        return mapping
    }
}

/// The app's schema refuses the rows seeder built (a `UNIQUE`, `CHECK` or `NOT NULL` of its own
/// that the mapping does not know): reported at the mapping's `schema:` node, as the data's fault.
struct SchemaFitError: Error {
    var message: String
    var location: SourceLocation
}
