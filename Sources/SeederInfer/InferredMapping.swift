import SeederCore
import SeederFiles

/// The mapping `seeder infer` drafts: entities, their attributes, identities and
/// relationships, and the sources that feed them, each with the evidence it was chosen from
/// (what `MappingDraftWriter` writes as comments).
public struct InferredMapping: Sendable {
    /// One attribute: `name: type`, or a mapping when it needs more.
    public struct Attribute: Sendable {
        public var name: String
        public var type: AttributeType
        /// The JSON key, when the name does not read it by itself.
        public var from: String?
        /// The keys of the objects `from` is read in, for a key of an object flattened into its
        /// owner (`["reactions"]` for `reactions.total_count`): then `from` is always written.
        public var parents: [String] = []
        /// `format:` of a date read from unix timestamps (`unix`, `unix_ms`).
        public var format: String?
        /// `match:`, the pattern that takes the value out of the text (the id of a URL).
        public var match: String?
        public var required = false
        /// `from: '@rest'`: the record's keys that nothing else reads, as one object (`WideRecords`).
        public var gathersRest = false
        /// What the type was chosen from: `12,000 records; 3 null`.
        public var evidence: String
    }

    /// `{ by: KEY, cases: { VALUE: Entity, ... } }`: the entity chosen per object by its value
    /// at `by` (docs/mapping.md, Polymorphism).
    public struct Selector: Sendable {
        public var by: String
        public var cases: [(value: String, entity: String)]
    }

    /// One relationship, as docs/mapping.md writes it.
    public struct Relationship: Sendable {
        public var name: String
        public var target: String
        /// `to:` as a selector, when the objects linked to are of several entities.
        public var selector: Selector?
        public var many = false
        /// `keyedBy:`, for a to-many whose value is an object keyed by its records: the
        /// target's attribute each key becomes.
        public var keyedBy: String?
        public var inverse: String?
        public var ordered = false
        public var from: String?
        /// The key of the records it reads, byte for byte, kept when `from` is dropped because
        /// the name reads it (`resolveNames`): what an attribute made of it must read.
        public var key: String?
        /// The key of the records in a list envelope under `from` (`data`: `from: subscriptions.data`).
        public var through: String?
        /// The whole key path, when it is longer than `from` (and `through`): then `from` is its
        /// first key, and it is always written.
        public var path: [String]?
        /// The foreign-key column, when the default one is taken.
        public var column: String?
        /// `match:`, the pattern that takes the target's identity out of each value (the id of a URL).
        public var match: String?
        /// `onMissing: create`: some occurrences of the target held nothing but its identity.
        public var onMissingCreate = false
        /// The to-one a one-to-many's `inverse` names, on its child: its name is fixed.
        public var isBackReference = false
        public var evidence: String
    }

    /// One entity.
    public struct Entity: Sendable {
        public var name: String
        /// The identity attribute; `nil` for `identity: none` or an `ownedIdentity`.
        public var identity: String?
        /// `identity: [owner, key...]`: the to-one back to the owner, then the JSON keys that
        /// tell the records apart within it, as members once `resolveNames` names them.
        public var ownedIdentity: [String]?
        /// Why this identity (or none).
        public var identityEvidence: String
        public var attributes: [Attribute] = []
        public var relationships: [Relationship] = []
        /// `onConflict: first` when one identity held different records.
        public var onConflictFirst = false
        /// Why `onConflict: first`, when not because one identity held different records.
        public var onConflictReason: String?
        /// The attribute the keys of an object keyed by these records become (`keyedBy`), when
        /// they are keyed.
        public var keyAttribute: String?
        /// `onMissing: create` when some occurrences held nothing but the identity.
        public var onMissingCreate = false
        /// Records seen.
        public var records: Int
        /// Notes on keys left as `json` or skipped.
        public var notes: [String] = []
        /// `ignore:`: keys of the records that nothing reads, on purpose (each said why in `notes`).
        public var ignored: [String] = []
    }

    /// One source.
    public struct Source: Sendable {
        /// A path relative to the dumps directory, or a glob for a group of files.
        public var path: String
        public var entity: String
        /// `entity:` as a selector, when the records are of several entities (or may be).
        public var selector: Selector?
        public var keyPath: [String] = []
        public var keyedBy: String?
        /// What was found: `2 files, 3 records`.
        public var evidence: String
    }

    public var entities: [Entity] = []
    public var sources: [Source] = []
    /// Dump files read for nothing (no records), and why.
    public var notes: [String] = []
}
