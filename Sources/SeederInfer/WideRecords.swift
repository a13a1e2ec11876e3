import SeederCore

/// Records with more keys than a table should hold columns: the first `columns` keys are
/// columns, and one json attribute gathers the others with `from: '@rest'`, so that the draft
/// builds under SQLite's limit of 2,000 columns a table and keeps every value (docs/commands.md,
/// `seeder infer`).
enum WideRecords {
    /// The attributes a drafted table keeps as columns: far under SQLite's 2,000, which to-ones'
    /// key columns and an ordered inverse's positions share.
    static let columns = 1000

    /// Leaves `entity` at most `columns` attributes, the identity among them, and gathers the
    /// keys of the others in one json attribute.
    static func gather(_ entity: inout InferredMapping.Entity) {
        guard entity.attributes.count > columns else { return }
        let identity = entity.attributes.firstIndex { ($0.from ?? $0.name) == entity.identity || $0.name == entity.identity }
        var kept: [InferredMapping.Attribute] = []
        for (index, attribute) in entity.attributes.enumerated() where index == identity || kept.count < columns - 1 {
            kept.append(attribute)
        }
        let gathered = entity.attributes.count - kept.count
        let taken = Set(entity.attributes.map { $0.name.lowercased() } + entity.relationships.map { $0.name.lowercased() })
        let name = ["rest", "restOfRecord", "otherKeys"].first { !taken.contains($0.lowercased()) } ?? "restOfRecord"
        let why =
            "\(Wording.grouped(entity.attributes.count)) keys, more than a table should hold columns: \(Wording.grouped(gathered)) gathered"
        var rest = InferredMapping.Attribute(name: name, type: .json, from: nil, evidence: "json: " + why)
        rest.gathersRest = true
        kept.append(rest)
        entity.attributes = kept
        entity.notes.append("'\(name)' is json: " + why + " as one object, with 'from: \"@rest\"'")
    }
}
