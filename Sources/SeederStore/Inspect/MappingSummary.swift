import SeederCore

/// What `diff` and `inspect` read back from a seed's `mapping` metadata (`MappingDescription`):
/// which table holds which entity, keyed by which columns, and which tables hold links.
public struct MappingSummary: Sendable, Hashable {
    /// An entity and its table.
    public struct Entity: Sendable, Hashable {
        public var name: String
        public var table: String
        /// The primary-key columns (the identity's, or `_pk`).
        public var primaryKey: [String]
        /// `false` for `identity: none`, whose `_pk` is only the source order.
        public var hasIdentity: Bool
    }

    /// A many-to-many relationship's join table.
    public struct JoinTable: Sendable, Hashable {
        public var table: String
        /// The entity that declares the relationship, and the relationship's name.
        public var owner: String
        public var relationship: String
        /// The entity it points to.
        public var target: String
        public var ownerColumns: [String]
        public var targetColumns: [String]
        public var position: String?
    }

    /// The mapping's `schemaVersion`.
    public var schemaVersion: Int
    /// Entities in mapping order.
    public var entities: [Entity]
    /// Join tables in mapping order.
    public var joinTables: [JoinTable]

    /// Reads the description; `nil` when it is not JSON of the shape `MappingDescription` writes.
    init?(json: String) {
        guard let document = try? JSONDocument(parsing: json), let entities = document.root["entities"],
            entities.kind == .array, document.root["format"]?.numberText == "1"
        else { return nil }
        schemaVersion = document.root["schemaVersion"]?.numberText.flatMap { Int($0) } ?? 0
        self.entities = []
        joinTables = []
        for entity in entities.elements {
            guard let name = entity["name"]?.string, let table = entity["table"]?.string else { return nil }
            let primaryKey = entity["primaryKey"].map(Self.strings) ?? []
            self.entities.append(Entity(name: name, table: table, primaryKey: primaryKey, hasIdentity: entity["identity"]?.isNull == false))
            guard let relationships = entity["relationships"], relationships.kind == .array else { continue }
            for relationship in relationships.elements {
                guard let storage = relationship["storage"], storage["kind"]?.string == "joinTable",
                    let joinName = storage["table"]?.string, let relationshipName = relationship["name"]?.string,
                    let target = relationship["to"]?.string
                else { continue }
                joinTables.append(
                    JoinTable(
                        table: joinName, owner: name, relationship: relationshipName, target: target,
                        ownerColumns: storage["ownerColumns"].map(Self.strings) ?? [],
                        targetColumns: storage["targetColumns"].map(Self.strings) ?? [],
                        position: storage["position"]?.string))
            }
        }
    }

    /// The entity stored in `table`.
    public func entity(table: String) -> Entity? {
        entities.first { $0.table == table }
    }

    /// The join table named `table`.
    public func joinTable(_ table: String) -> JoinTable? {
        joinTables.first { $0.table == table }
    }

    private static func strings(_ value: JSONValue) -> [String] {
        value.kind == .array ? value.elements.compactMap(\.string) : []
    }
}
