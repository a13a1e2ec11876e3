/// A dynamic selector where an entity is expected, a relationship's `to:` or a source's `entity:`
/// (docs/mapping.md, Polymorphism): the value at `by` in the object being mapped picks the entity,
/// as RestKit's `RKDynamicMapping` does.
///
/// A class: a relationship without one tests a pointer for nil on every record it maps, where an
/// optional struct of arrays was copied out to be tested.
public final class EntitySelector: Sendable {
    /// Where the choosing value is, in the object being mapped (or, for a bare id, in the record
    /// that holds the reference).
    public let by: KeyPath
    /// The cases, in mapping order: a value of `by`, as text, and the entity's index.
    public let cases: [Case]
    /// The entity for any other value, and for a missing or null one; `nil` makes those errors.
    public let defaultEntity: Int?
    /// The entities it can choose, each once: the cases' in their order, then the default's.
    public let entities: [Int]

    /// One case: a value of `by` and its entity.
    public struct Case: Sendable, Hashable {
        /// The value as text: a string as written, a number or boolean as its JSON text.
        public var value: String
        /// The entity's index in `Mapping.entities`.
        public var entity: Int

        public init(value: String, entity: Int) {
            self.value = value
            self.entity = entity
        }
    }

    public init(by: KeyPath, cases: [Case], defaultEntity: Int?) {
        self.by = by
        self.cases = cases
        self.defaultEntity = defaultEntity
        var entities: [Int] = []
        for entity in cases.map(\.entity) + [defaultEntity].compactMap({ $0 }) where !entities.contains(entity) {
            entities.append(entity)
        }
        self.entities = entities
    }

    /// The entity for a value of `by` (`nil` when the value is missing or null): its case's, else
    /// the default, else `nil`.
    public func entity(forValue value: String?) -> Int? {
        if let value, let match = cases.first(where: { $0.value == value }) { return match.entity }
        return defaultEntity
    }

    /// The cases' values, sorted, for a message: `link, photo, video`.
    public var caseValues: String {
        cases.map(\.value).sorted().joined(separator: ", ")
    }
}

extension EntitySelector: Hashable {
    public static func == (left: EntitySelector, right: EntitySelector) -> Bool {
        left.by == right.by && left.cases == right.cases && left.defaultEntity == right.defaultEntity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(by)
        hasher.combine(cases)
        hasher.combine(defaultEntity)
    }
}
