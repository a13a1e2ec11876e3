import Foundation

/// A validated mapping file (docs/mapping.md): which entities the seed holds, how each JSON record
/// becomes a row, how records relate, and which dump files feed which entity.
///
/// Every name is resolved: database tables and columns, foreign keys, join tables, targets and
/// inverses are indexes and strings ready for the store. Made only by `MappingLoader`.
public struct Mapping: Sendable {
    /// The mapping file as the user named it.
    public var file: String
    /// Default output file name (`output:`).
    public var output: String?
    /// `PRAGMA user_version` of the seed (`schemaVersion:`, default 1).
    public var schemaVersion: Int
    /// How database names are made (`naming: { database: ... }`).
    public var naming: NamingStyle
    /// How dates are stored unless an attribute says otherwise (`dates:`).
    public var dates: DateStorage
    /// The zone of dates written without an offset (`timeZone:`, default UTC).
    public var timeZone: TimeZone
    /// The entities, in mapping order (the schema's order).
    public var entities: [Entity]
    /// The sources, in mapping order; `nil` when the mapping has no `sources:` and dump files
    /// feed entities by their names.
    public var sources: [Source]?
    /// The oldest SQLite the seed must open in (`compatibility: { sqlite: }`, default 3.22.0).
    public var compatibility = SQLiteVersion.defaultFloor
    /// The app's own schema the seed fits (`schema:`), if any.
    public var schema: SchemaSource? = nil
    /// What a `seed_source` row stands for (`provenance:`, default a source).
    public var provenance = Provenance.sources
    /// What every source's `fetch:` starts from (the document's `fetch:`); read only by `seeder fetch`.
    public var fetch = FetchDefaults()

    /// The index of the entity named `name`.
    public func entityIndex(named name: String) -> Int? {
        entities.firstIndex { $0.name == name }
    }

    /// The entity named `name`.
    public func entity(named name: String) -> Entity? {
        entityIndex(named: name).map { entities[$0] }
    }

    /// Per entity, in mapping order, the relationships that can reach it (its own included), as
    /// (owner, relationship) in mapping order: one pass over every relationship, for the stages
    /// that ask it of every entity (asking each entity in turn is quadratic: 1,000 entities of
    /// 30 relationships each made it 30 million tests, bench/README.md).
    public func relationshipsByTarget() -> [[(owner: Int, relationship: Int)]] {
        var reaching = [[(owner: Int, relationship: Int)]](repeating: [], count: entities.count)
        for (owner, entity) in entities.enumerated() {
            for (index, relationship) in entity.relationships.enumerated() {
                for target in Set(relationship.targets).sorted() { reaching[target].append((owner, index)) }
            }
        }
        return reaching
    }
}

/// An entity: one table of the seed.
public struct Entity: Sendable {
    /// The name as the app's model spells it (`ArticleComment`).
    public var name: String
    /// The table (`article_comment`).
    public var table: String
    /// What identifies a record.
    public var identity: Identity
    /// The attributes, in mapping order.
    public var attributes: [Attribute]
    /// The relationships, in mapping order.
    public var relationships: [Relationship]
    /// What happens when two occurrences of one identity disagree.
    public var onConflict: ConflictPolicy
    /// Whether a JSON `null` counts as a value when occurrences merge.
    public var nulls: NullPolicy
    /// Where the entity is declared.
    public var location: SourceLocation
    /// JSON keys known and unwanted (`ignore:`): read by nothing and not reported as unmapped.
    public var ignoredKeys: [IgnoredKey] = []
    /// Its full-text index (`search:`), if any.
    public var search: SearchSpec? = nil
    /// Where `table:` names its table, when the mapping names it: the app's schema must then
    /// have that table (docs/mapping.md, Fitting the app's own schema).
    public var namedTable: SourceLocation? = nil

    /// The index of the attribute named `name`.
    public func attributeIndex(named name: String) -> Int? {
        attributes.firstIndex { $0.name == name }
    }

    /// The index of the relationship named `name`.
    public func relationshipIndex(named name: String) -> Int? {
        relationships.firstIndex { $0.name == name }
    }

    /// The key of an identity that names a to-one (`Identity.owned`), one column per value, in
    /// identity order: each attribute's column, and for each to-one its foreign-key columns.
    public var ownedKey: [KeyColumn] = []

    /// The identity's attribute indexes, in identity order; empty for `identity: none`. An
    /// identity that names a to-one has its relationships' values besides (`identityParts`).
    public var identityAttributes: [Int] {
        switch identity {
        case let .attributes(indexes): return indexes
        case let .owned(parts): return parts.compactMap(\.attribute)
        case .none: return []
        }
    }

    /// What the identity names, in order.
    public var identityParts: [IdentityPart] {
        switch identity {
        case let .attributes(indexes): return indexes.map(IdentityPart.attribute)
        case let .owned(parts): return parts
        case .none: return []
        }
    }

    /// The primary-key columns: the identity's, or `_pk` for `identity: none`.
    public var primaryKeyColumns: [String] {
        switch identity {
        case let .attributes(indexes): return indexes.map { attributes[$0].column }
        case .owned: return ownedKey.map(\.column)
        case .none: return [Entity.syntheticKeyColumn]
        }
    }

    /// The synthetic `INTEGER PRIMARY KEY` of an entity with `identity: none`.
    public static let syntheticKeyColumn = "_pk"
}

/// A JSON key an entity's `ignore:` lists, as written in the dumps, with where it is listed.
public struct IgnoredKey: Sendable, Hashable {
    /// The key, matched exactly.
    public var key: String
    /// Where the mapping lists it.
    public var location: SourceLocation
}

/// What identifies a record (docs/mapping.md, Merging).
public enum Identity: Sendable, Hashable {
    /// These attributes, in order (RestKit's identification attributes).
    case attributes([Int])
    /// Attributes and to-one relationships, in order: a row that belongs to its owner (an
    /// order's lines, `[order, position]`), each to-one standing for the key it stores.
    case owned([IdentityPart])
    /// Every occurrence is a new row, keyed by `_pk` in source order.
    case none
}

/// One name of an identity that names a to-one (`Identity.owned`).
public enum IdentityPart: Sendable, Hashable {
    /// An attribute, by index.
    case attribute(Int)
    /// A to-one relationship, by index: its target's key.
    case relationship(Int)

    /// The attribute's index, `nil` for a relationship.
    public var attribute: Int? {
        if case let .attribute(index) = self { return index }
        return nil
    }

    /// The relationship's index, `nil` for an attribute.
    public var relationship: Int? {
        if case let .relationship(index) = self { return index }
        return nil
    }
}

/// One column of an owned key (`Entity.ownedKey`): its name in the table, and the attribute
/// whose values it holds (the entity's own, or, through a to-one, its target's), which types it.
public struct KeyColumn: Sendable, Hashable {
    /// The column.
    public var column: String
    /// The entity whose attribute the column holds.
    public var entity: Int
    /// That attribute's index.
    public var attribute: Int
}

/// An attribute: one column.
public struct Attribute: Sendable {
    /// The name as the app's model spells it (`bodyText`).
    public var name: String
    /// The column (`body_text`).
    public var column: String
    /// The type, which fixes storage and coercion.
    public var type: AttributeType
    /// Where the value is in the record; `nil` reads the key that matches the name.
    public var keyPath: KeyPath?
    /// Missing or null is an error; the column is `NOT NULL`. Always true for identity attributes.
    public var isRequired: Bool
    /// Why the attribute is required when the mapping does not say so: the app's `NOT NULL`
    /// column it fills (`column 'title' of table 'task' is NOT NULL`), which messages add.
    public var requiredBy: String? = nil
    /// The app's column it fills has a default (`NOT NULL DEFAULT 0`), which a row takes where
    /// the value is missing: like a `default`, it exempts the attribute from "matched no key".
    public var hasColumnDefault = false
    /// The value used when the key is absent (not when it is null), already coerced.
    public var defaultValue: SQLValue?
    /// The accepted values (an enum), already coerced; `nil` accepts any.
    public var allowedValues: [SQLValue]?
    /// Values must be unique across the entity; a unique index.
    public var isUnique: Bool
    /// An index on the column.
    public var isIndexed: Bool
    /// Input format of a `date`.
    public var dateFormat: DateFormat
    /// Zone of a `date` written without an offset.
    public var timeZone: TimeZone
    /// How a `date` is stored.
    public var dateStorage: DateStorage
    /// Where the attribute is declared.
    public var location: SourceLocation
    /// The empty string `""` reads as `null` (`emptyAsNull:`, from the attribute, its entity or
    /// the document).
    public var emptyAsNull = false
    /// Where `column:` names its column, when the mapping names it.
    public var namedColumn: SourceLocation? = nil
    /// `match:`: the value is the part of its text this pattern finds, coerced then
    /// (docs/mapping.md, Values inside text).
    public var match: TextPattern? = nil

    public init(
        name: String,
        column: String,
        type: AttributeType,
        keyPath: KeyPath?,
        isRequired: Bool,
        defaultValue: SQLValue?,
        allowedValues: [SQLValue]?,
        isUnique: Bool,
        isIndexed: Bool,
        dateFormat: DateFormat,
        timeZone: TimeZone,
        dateStorage: DateStorage,
        location: SourceLocation
    ) {
        self.name = name
        self.column = column
        self.type = type
        self.keyPath = keyPath
        self.isRequired = isRequired
        self.defaultValue = defaultValue
        self.allowedValues = allowedValues
        self.isUnique = isUnique
        self.isIndexed = isIndexed
        self.dateFormat = dateFormat
        self.timeZone = timeZone
        self.dateStorage = dateStorage
        self.location = location
    }
}

/// The types of docs/mapping.md's table, each with its storage and coercions.
public enum AttributeType: String, Sendable, CaseIterable {
    case integer, real, decimal, boolean, string, date, url, uuid, data, json
}

/// A relationship between two entities.
public struct Relationship: Sendable {
    /// The name as the app's model spells it (`assignedUser`).
    public var name: String
    /// The target entity's index in `Mapping.entities`; for a selector, its first entity.
    public var target: Int
    /// A dynamic target (`to: { by, cases, default }`): the entity of each target is chosen by
    /// its `by` value (docs/mapping.md, Polymorphism). `target` and `inverse` are then its first
    /// entity's.
    public var selector: EntitySelector? = nil
    /// For a one-to-many with `inverse` to a selector: per entity of `selector.entities`, the
    /// index of its inverse (each case names it the same).
    public var caseInverses: [Int] = []
    /// To-many.
    public var isToMany: Bool
    /// Where the value is in the record; `nil` reads the key that matches the name, then the
    /// id conventions (`<name>_id`; `<singular>_ids`, then `<name>_ids`).
    public var keyPath: KeyPath?
    /// For a to-many: the index of the target's to-one relationship that points back; the link
    /// is stored as that foreign key on the target's rows.
    public var inverse: Int?
    /// Keep the array's order: a `position` column in the join table, or `<inverse>_position`
    /// on the children.
    public var isOrdered: Bool
    /// A to-one that must be present.
    public var isRequired: Bool
    /// Why the to-one is required when the mapping does not say so (`Attribute.requiredBy`).
    public var requiredBy: String? = nil
    /// The app's column it fills has a default (`NOT NULL DEFAULT 0`), which a row takes where
    /// the value is missing: like a `default`, it exempts the attribute from "matched no key".
    public var hasColumnDefault = false
    /// What a reference to an identity that no record provides does: its own `onMissing`, else
    /// its entity's, else the document's.
    public var onMissing: MissingPolicy
    /// How the relationship is stored.
    public var storage: RelationshipStorage
    /// `keyedBy`, for a to-many: the target's attribute (its index) that each key of an object of
    /// records becomes.
    public var keyedBy: Int? = nil
    /// Where the relationship is declared.
    public var location: SourceLocation
    /// Where `column:` names a to-one's column, or `table:` a many-to-many's join table, when
    /// the mapping names it.
    public var namedColumn: SourceLocation? = nil
    public var namedTable: SourceLocation? = nil
    /// `match:`: each id is the part of the value's text this pattern finds (docs/mapping.md,
    /// Values inside text).
    public var match: TextPattern? = nil

    /// The entities its targets may be: the selector's, else the one target.
    public var targets: [Int] { selector?.entities ?? [target] }

    /// The inverse on target entity `entity` (one of `targets`).
    public func inverse(on entity: Int) -> Int? {
        guard let selector, !caseInverses.isEmpty else { return inverse }
        return selector.entities.firstIndex(of: entity).map { caseInverses[$0] }
    }
}

/// How a relationship is stored in the seed (docs/mapping.md, Relationships: `inverse`, `table`,
/// `column`).
public enum RelationshipStorage: Sendable, Hashable {
    /// A to-one: foreign-key columns on the owner's table, one per target identity column,
    /// referencing the target's primary key.
    case foreignKey(columns: [String])
    /// A to-many with `inverse`: the inverse's foreign key on the target's rows, and the
    /// position column there when ordered.
    case inverse(positionColumn: String?)
    /// A many-to-many: a join table.
    case joinTable(JoinTable)

    /// The kinds, named as the seed's `mapping` metadata writes them (docs/seed.md) and
    /// `inspect` and `diff` read them back.
    public enum Kind: String, Sendable {
        case foreignKey, inverse, joinTable
    }

    public var kind: Kind {
        switch self {
        case .foreignKey: .foreignKey
        case .inverse: .inverse
        case .joinTable: .joinTable
        }
    }

    // What each kind adds to the seed's tables, asked for by what it is rather than by the kind
    // (a new kind answers these once, here).

    /// The columns on the owner's table: a to-one's key columns.
    public var ownerColumns: [String] {
        switch self {
        case let .foreignKey(columns): columns
        case .inverse, .joinTable: []
        }
    }

    /// The column on each target's table: an ordered inverse's position.
    public var targetPositionColumn: String? {
        switch self {
        case let .inverse(position): position
        case .foreignKey, .joinTable: nil
        }
    }

    /// The table of its own: a many-to-many's join table.
    public var joinTable: JoinTable? {
        switch self {
        case let .joinTable(join): join
        case .foreignKey, .inverse: nil
        }
    }
}

/// The join table of a many-to-many.
public struct JoinTable: Sendable, Hashable {
    /// `<owner table>_<snake_case relationship>`.
    public var name: String
    /// Columns referencing the owner's primary key.
    public var ownerColumns: [String]
    /// Columns referencing the target's primary key.
    public var targetColumns: [String]
    /// `position` (0-based) when ordered.
    public var positionColumn: String?
}

/// A source: which dump files feed which entity, and where the records are in them.
public struct Source: Sendable {
    /// A glob relative to the dumps directory (`specs/page-*.json`).
    public var path: String
    /// The entity's index in `Mapping.entities`; for a selector, its first entity. `nil` for a
    /// source fetched only to drive other sources' `each`, which build never reads
    /// (docs/mapping.md, Sources).
    public var entity: Int?
    /// A dynamic entity (`entity: { by, cases, default }`): each record's entity is chosen by its
    /// `by` value (docs/mapping.md, Polymorphism).
    public var selector: EntitySelector? = nil
    /// Where the records are inside each file; empty for the root.
    public var keyPath: [String]
    /// Where the source is declared.
    public var location: SourceLocation
    /// `keyedBy`: the attribute (its index in the entity) that each record's key becomes, when
    /// the value reached is an object whose keys are records.
    public var keyedBy: Int? = nil
    /// How `seeder fetch` gets the source's files (`fetch:`), if it does.
    public var fetch: FetchSpec? = nil

    /// The format of a dump file, from its extension, a compression's suffix seen through
    /// (`users.json.gz` is `.json`); `nil` for an extension seeder does not read.
    public static func format(ofFile path: String) -> DumpFormat? {
        let lower = DumpCompression.of(file: path).stripped.lowercased()
        if lower.hasSuffix(".json") { return .json }
        if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") { return .jsonLines }
        return nil
    }

    /// The dump files seeder reads, as messages name them.
    public static let readableSuffixes = ".json, .jsonl or .ndjson, each also with .gz or .zst"

    /// How a dump file is stored, from its last suffix (`.gz`, `.zst`; docs/mapping.md,
    /// Compressed dumps).
    public static func compression(ofFile path: String) -> DumpCompression {
        DumpCompression.of(file: path).compression
    }
}

/// How database names are made from the model's names.
public enum NamingStyle: String, Sendable {
    /// `ArticleComment` -> `article_comment`, `assignedUser` -> `assigned_user_id` (default).
    case snakeCase = "snake_case"
    /// Every name as written: `ArticleComment`, `assignedUserId`.
    case asIs = "as_is"
}

/// How a `date` is stored (docs/mapping.md, Dates).
public enum DateStorage: String, Sendable, CaseIterable {
    /// TEXT `2011-07-10T16:51:03.000Z`: UTC, millisecond precision.
    case iso8601
    /// REAL seconds since 1970.
    case unixepoch
    /// INTEGER milliseconds since 1970 (Android Room's usual converter).
    case unixepochMilliseconds = "unixepoch_ms"
    /// REAL seconds since 2001-01-01 (Core Data's).
    case reference
}

/// The input format of a `date`.
public enum DateFormat: Sendable, Hashable {
    /// ISO 8601 and its common variants (the default).
    case iso8601
    /// Seconds since 1970, a number or numeric string.
    case unix
    /// Milliseconds since 1970.
    case unixMilliseconds
    /// Microseconds since 1970.
    case unixMicroseconds
    /// Nanoseconds since 1970.
    case unixNanoseconds
    /// A Unicode date pattern (`yyyy-MM-dd HH:mm:ss Z`).
    case pattern(String)

    /// The names a mapping may give besides a pattern.
    public static let names = ["iso8601", "unix", "unix_ms", "unix_us", "unix_ns"]
}

/// What one row of the seed's `seed_source` stands for (`provenance:`, docs/seed.md).
public enum Provenance: String, Sendable, CaseIterable {
    /// A row per source of the mapping, by its glob, with its files' sums (default).
    case sources
    /// A row per dump file read.
    case files
}

/// What a conflict between two occurrences of one identity does (`onConflict:`).
public enum ConflictPolicy: String, Sendable, CaseIterable {
    /// The build fails (default).
    case error
    /// The first occurrence in source order wins; the report counts what was overridden.
    case first
    /// The last occurrence in source order wins.
    case last
}

/// Whether a JSON `null` is a value when occurrences merge (`nulls:`).
public enum NullPolicy: String, Sendable, CaseIterable {
    /// Null is a value: null here and `"x"` there conflict (default).
    case value
    /// Null is treated like a missing key.
    case absent
}

/// What a reference to an identity that no record provides does (`onMissing:`).
public enum MissingPolicy: String, Sendable, CaseIterable {
    /// The build fails (default).
    case error
    /// The link is dropped and counted.
    case null
    /// A row holding only the identity is made, and counted (as RestKit, Groot and Sync do).
    case create
}
