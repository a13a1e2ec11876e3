/// One occurrence of an entity in the dumps, mapped: what the store merges into a row.
///
/// A record keeps absent and null apart (they merge differently, docs/mapping.md, Merging) and
/// knows where each of its values came from, so that a conflict can name both places.
public struct Record: Sendable {
    /// The entity's index in `Mapping.entities`.
    public var entity: Int
    /// The identity; `nil` for an entity with `identity: none`.
    public var identity: IdentityKey?
    /// One field per attribute of the entity, in attribute order.
    public var fields: [Field]
    /// One link per relationship of the entity, in relationship order.
    public var links: [Link]
    /// Where the record stands.
    public var origin: Origin
    /// For a merged row whose fields came from several files: each field's file (`nil` when all
    /// come from `origin.file`).
    public var fieldFiles: [String]?

    /// A record of `entity` with these values.
    public init(entity: Int, identity: IdentityKey?, fields: [Field], links: [Link], origin: Origin) {
        self.entity = entity
        self.identity = identity
        self.fields = fields
        self.links = links
        self.origin = origin
    }

    /// An attribute's value in this occurrence.
    public struct Field: Sendable, Hashable {
        /// The value, or absent.
        public var value: FieldValue
        /// The file offset of the JSON value it came from; the record's for defaults and absent.
        public var offset: Int

        /// `false` when the value is absent.
        @inlinable public var isPresent: Bool {
            if case .absent = value { return false }
            return true
        }

        /// A field with this value from this offset.
        public init(value: FieldValue, offset: Int) {
            self.value = value
            self.offset = offset
        }
    }

    /// Where a record stands: its file and its offset.
    public struct Origin: Sendable, Hashable {
        /// The dump file, as diagnostics name it.
        public var file: String
        /// The file offset of the record's object. Its JSON Pointer is found only when a
        /// message needs it (by the mapper from the JSON it maps, and after the load by
        /// `PointerLocator`): building one for every record costs the build time for nothing.
        public var offset: Int

        /// An origin.
        public init(file: String, offset: Int) {
            self.file = file
            self.offset = offset
        }

        /// The location for a diagnostic.
        public var location: SourceLocation { SourceLocation(file: file, offset: offset) }
    }
}

/// An attribute's value in one occurrence.
public enum FieldValue: Sendable, Hashable {
    /// The key was missing (and there is no default): other occurrences may fill it.
    case absent
    /// A value, `.null` included.
    case value(SQLValue)
}

/// A relationship's value in one occurrence.
public enum Link: Sendable, Hashable {
    /// The key was missing: other occurrences may fill it.
    case absent
    /// An explicit `null`: no target.
    case null
    /// A to-one's target.
    case one(RecordReference)
    /// A to-many's targets, in array order (empty arrays add no link).
    case many([RecordReference])
}

/// A target of a link: a record embedded in the same JSON record, or an identity to resolve
/// after every input is read.
public enum RecordReference: Sendable, Hashable {
    /// The record at this index of the same batch (`Mapper.records(from:entity:origin:)`).
    case embedded(Int)
    /// The record of the target entity with this identity, wherever it comes from; the offset
    /// is where the reference is written, for a missing-target error.
    case identity(IdentityKey, offset: Int)
}
