import SeederCore
import SeederFiles

/// Objects keyed by data (docs/commands.md, `seeder infer`, Keys as data): records keyed by
/// their keys are a to-many with `keyedBy`; anything else keyed by data is `json`.
extension EntityDrafting {
    /// Adds the member for `stats`, whose objects are keyed by data, to `entity`.
    func draft(_ keyed: KeyedData, stats: KeyStats, name: String, evidence: String, into entity: inout Entity) {
        var why: String
        switch keyed {
        case let .records(child, reason):
            guard MappingInference.nestedEntity(stats) === child else {
                why = "records keyed by data, with \(Wording.count(child.keys.count - 1, "different key"))"
                break
            }
            let target = identities[child.name]!
            var relationship = Relationship(
                name: name, target: child.name, many: true, from: stats.key,
                evidence: evidence + "; \(Wording.count(child.records, "record")) keyed by data, \(reason)")
            relationship.keyedBy = target.attribute
            if target.key == nil {
                relationship.inverse = backReferenceName(in: child)
                relationship.ordered = true
                relationship.evidence += ", each its own (identity: none)"
            }
            entity.relationships.append(relationship)
            return
        case let .other(reason):
            why = reason
        }
        why = "an object keyed by data, not fields: " + why
        entity.attributes.append(Attribute(name: name, type: .json, from: stats.key, evidence: evidence + "; json: " + why))
        entity.notes.append("'\(stats.key)' is json: \(why)")
    }
}
