/// What one round-trip case generated: a mapping, as the test understands it, and the logical
/// records its dumps spell in many equivalent ways. The expected seed is computed from this
/// alone (`RoundTripExpectation`), never from seeder's mapper.
struct RoundTripModel {
    /// The mapping's `dates:`, the storage of a date attribute without its own `storage:`.
    var dates: DateStorageChoice
    var entities: [EntityModel]
    /// Records per entity, in generation order (home occurrences go in this order).
    var records: [[RecordModel]]
    /// The document's `onMissing: create` (else the default, `error`).
    var onMissingCreate = false
    /// Sources whose `entity:` is a selector: records of several entities in one file.
    var mixedFiles: [MixedFile] = []
}

/// A source whose `entity:` is a selector `{ by, cases }` (docs/mapping.md, Polymorphism).
struct MixedFile {
    var path: String
    var by: String
    var cases: [SelectorCase]
    var isLines: Bool { path.hasSuffix(".jsonl") }
}

/// One case of a selector: the `by` value that chooses `entity`.
struct SelectorCase: Equatable {
    var value: String
    var entity: Int
}

/// A link of a record: the target's entity (one of a selector's cases) and its key.
struct Link: Hashable {
    var entity: Int
    var key: RecordKey
}

/// How a date is stored (docs/mapping.md, Dates).
enum DateStorageChoice: String, CaseIterable {
    case iso8601, unixepoch, unixepochMilliseconds = "unixepoch_ms", reference
}

/// How a date is written in the dumps (docs/mapping.md, Dates).
enum DateFormatChoice: Equatable {
    case iso8601, unix, unixMilliseconds, unixMicroseconds, unixNanoseconds
    /// A Unicode pattern and whether it carries seconds (else the instant is a whole day).
    case pattern(String, hasTime: Bool)
}

/// The attribute types of docs/mapping.md's type table.
enum ValueType: Equatable {
    case integer, real, decimal, boolean, string, url, uuid, data, json
    case date(format: DateFormatChoice, storage: DateStorageChoice?)
}

/// Where an attribute reads its value.
enum KeySource: Equatable {
    /// By name, ignoring case and underscores: each occurrence picks one spelling.
    case name(spellings: [String])
    /// `from: "a.b.c"`.
    case dotted([String])
    /// `from: ["a.b", c]`: literal keys, some with dots.
    case literal([String])

    /// The object keys an occurrence nests the value under, the last one holding it.
    var path: [String]? {
        switch self {
        case .name: return nil
        case let .dotted(keys), let .literal(keys): return keys
        }
    }
}

struct AttributeModel {
    var name: String
    var column: String
    var type: ValueType
    var source: KeySource
    var isRequired = false
    var isIndexed = false
    /// The mapping's `default:`, as a logical value of the attribute's type.
    var defaultValue: LogicalValue?
    /// A date's `timeZone:` (UTC unless said).
    var zone = DateZone.utc
}

enum IdentityKind: Equatable {
    case integer, string, uuid, composite, none
}

/// How a relationship's link is stored (docs/mapping.md, Names and keys).
enum LinkStorage: Equatable {
    /// A to-one: foreign-key columns on the owner.
    case foreignKey([String])
    /// A one-to-many with `inverse`: the targets' to-one (by name) holds the link; the
    /// position column when ordered.
    case inverse(toOne: String, position: String?)
    /// A many-to-many: a join table, owner and target columns, position when ordered.
    case joinTable(name: String, owner: [String], target: [String], position: String?)
}

/// How an occurrence finds a relationship's value in its record.
enum LinkKey: Equatable {
    /// The name, or for ids one of the conventions (`owner_id`; `tag_ids` or Sync's
    /// `tags_ids`), chosen per occurrence.
    case conventional(name: String, idKeys: [String])
    /// `from:` a key path.
    case path([String])
}

struct RelationshipModel {
    var name: String
    var target: Int
    var isToMany: Bool
    var isOrdered = false
    var storage: LinkStorage
    var key: LinkKey
    /// The to-one of a child that an inverse to-many fills; written only by the mapping's
    /// `inverse:` on the parent side.
    var inverseOf: (entity: Int, relationship: Int)?
    /// A selector's `by` key and cases; `target` is then the first case's entity.
    var selector: (by: String, cases: [SelectorCase])?
    /// A selector's to-one or join table: the column holding the chosen entity's name.
    var typeColumn: String?
    /// `keyedBy:` of a to-many: the targets' (single) identity attribute.
    var keyedBy: String?
    /// Its own `onMissing: create`.
    var onMissingCreate = false

    /// The entities a link can point at.
    var targets: [Int] { selector?.cases.map(\.entity) ?? [target] }

    /// The `by` value that chooses `entity`.
    func caseValue(of entity: Int) -> String? { selector?.cases.first { $0.entity == entity }?.value }
}

extension RoundTripModel {
    /// The index of `entity`'s to-one named `name` (an inverse's, on each case of a selector).
    func relationshipIndex(_ name: String, of entity: Int) -> Int {
        guard let index = entities[entity].relationships.firstIndex(where: { $0.name == name }) else {
            fatalError("no relationship \(name) of \(entities[entity].name)")
        }
        return index
    }
}

struct EntityModel {
    var name: String
    var table: String
    var identity: IdentityKind
    /// Identity attributes first, in identity order; then the others.
    var attributes: [AttributeModel]
    var relationships: [RelationshipModel]
    var identityCount: Int
    /// The dump files of its source entries (`<table>-N.json`, `.jsonl`, `.ndjson`), each with
    /// its `keyPath` wrapper, if any.
    var files: [DumpFile] = []
    /// Its own `onMissing: create`, for its relationships.
    var onMissingCreate = false

    /// The serial attribute of an `identity: none` entity: unique per occurrence, so the test can
    /// find which `_pk` a generated record got.
    static let serialAttribute = "serial"
}

struct DumpFile {
    var path: String
    var keyPath: [String]?
    /// `keyedBy:` the (single) identity attribute: an object whose keys are the records.
    var keyedBy: String?
    var isLines: Bool { path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson") }
}

/// A record's identity: the identity values, or for `identity: none` its serial.
enum RecordKey: Hashable {
    case values([LogicalValue])
    case serial(Int64)
}

struct RecordModel {
    var key: RecordKey
    /// Per attribute: `nil` when no occurrence has the key, else the value (maybe `.null`).
    var values: [LogicalValue?]
    /// Per relationship: to-one target, or to-many targets in their united order.
    var links: [[Link]]
    /// For `identity: none`: the record is written where its owner embeds it, not in a file.
    var isOwned = false
    /// Inverse to-manys (by index) this parent does not write: its children say it instead
    /// (`project_id`), so their own occurrences must.
    var unlisted: Set<Int> = []
    /// Provided by no record, only referenced (through `onMissing: create`): its row holds the
    /// identity, the defaults and `NULL`.
    var isCreated = false
}

/// A value as the mapping promises to store it; rendering chooses how the dumps spell it.
enum LogicalValue: Hashable {
    case null
    case integer(Int64)
    case real(Double)
    /// `digits × 10^exponent` (digits without leading zeros; empty for zero).
    case decimal(negative: Bool, digits: [UInt8], exponent: Int)
    case boolean(Bool)
    case string(String)
    /// Milliseconds since 1970, UTC.
    case date(Int64)
    case url(String)
    /// Lowercase canonical text.
    case uuid(String)
    case data([UInt8])
    case json(JSONTree)
}

/// A JSON value as the test writes it: numbers keep their text, keys their order.
indirect enum JSONTree: Hashable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONTree])
    case object([JSONMember])
}

struct JSONMember: Hashable {
    var key: String
    var value: JSONTree
}
