import SeederCore
import SeederFiles

extension EntityDrafting {
    typealias Members = DraftedMembers

    /// The member rules, in the order they are tried on each key.
    static let rules: [MemberRule] = [
        MemberRule(
            rule: InferRule(
                name: "reference-by-url", stage: "relationship",
                drafts: "a key of `{name, url}` objects naming detailed records is a relationship read from the URLs: "
                    + "`{ to: Type, from: type.url, match: '/(\\d+)/?$' }`",
                corpusCase: "api/pokeapi", test: "InferServiceTests/referencesToAFolderAreRelationshipsToItsEntity"),
            draft: { drafting, stats, key, members in
                guard let (target, urlKey) = stats.referenced else { return false }
                members.entity.relationships.append(
                    .detailedReference(
                        name: key.name, to: target.name, many: stats.arrays > 0, path: [stats.key], urlKey: urlKey, evidence: key.evidence))
                return true
            }),
        MemberRule(
            rule: InferRule(
                name: "records-keyed-by-data", stage: "relationship",
                drafts: "an object keyed by data (`{\"-Nc1\": {...}}`) under a key holds records of their own, keyed by its keys",
                corpusCase: "api/firebase", test: "InferEdgeTests/firebasePostsHoldCommentsKeyedByPushID"),
            draft: { drafting, stats, key, members in
                guard case .object = stats.shape, let keyed = stats.child?.keyedData else { return false }
                drafting.draft(keyed, stats: stats, name: key.name, evidence: key.evidence, into: &members.entity)
                return true
            }),
        MemberRule(
            rule: InferRule(
                name: "object-without-identity-is-columns", stage: "relationship",
                drafts:
                    "an object with no identity, of a few scalars, references or records, is members of its owner "
                    + "(`reactions.total_count` -> `reactionsTotalCount`, `meta.ailment` -> `metaAilment`)",
                corpusCase: "api/github", test: "InferRecordKindsTests/objectsWithoutIdentityAreColumnsOfTheirOwner"),
            draft: { drafting, stats, key, members in
                guard drafting.flattened.flattens(stats) else { return false }
                let flat = drafting.flattened.members(of: stats, name: key.name, path: [stats.key], required: key.required)
                members.entity.attributes += flat.attributes
                members.entity.relationships += flat.relationships
                members.valueless += flat.valueless
                let what = [flat.attributes.isEmpty ? nil : "columns", flat.relationships.isEmpty ? nil : "relationships"]
                members.entity.notes.append(
                    "'\(stats.key)' has no identity: its keys are \(what.compactMap { $0 }.joined(separator: " and ")) here "
                        + "(\(flat.names.joined(separator: ", "))), not rows of a table of their own")
                return true
            }),
        MemberRule(
            rule: InferRule(
                name: "wide-objects-are-json", stage: "relationship",
                drafts: "objects of more than 64 different keys are `json`: data rather than fields",
                corpusCase: "api/stripe", test: "InferTests/objectsWithTooManyKeysAreJSON"),
            draft: { drafting, stats, key, members in
                switch stats.shape {
                case .object, .arrayOfObjects: break
                default: return false
                }
                guard MappingInference.nestedEntity(stats) == nil else { return false }
                // Past `maxKeys`, keys are no longer counted (`ShapeObserver.walk`).
                let count = stats.child?.keys.count ?? 0
                let keys =
                    count > MappingInference.maxKeys
                    ? "more than \(MappingInference.maxKeys) different keys" : Wording.count(count, "different key")
                members.entity.attributes.append(
                    .init(name: key.name, type: .json, from: stats.key, evidence: key.evidence + "; json: \(keys), data rather than fields")
                )
                members.entity.notes.append("'\(stats.key)' is json: its objects hold \(keys)")
                return true
            }),
        MemberRule(
            rule: InferRule(
                name: "embedded-records", stage: "relationship",
                drafts: "objects and arrays of objects are records of another entity: a to-one, or a to-many (with a back reference "
                    + "when they have no identity or an owned one; ordered when they have none); such arrays in records that repeat are "
                    + "`json`, rows once per copy",
                corpusCase: "api/mollie", test: "InferTests/arraysOfObjectsWithoutIdentityAreEmbedded"),
            draft: { drafting, stats, key, members in
                if let copies = MappingInference.repeatedCopies(of: stats, in: drafting.observer) {
                    let why =
                        "its objects have no identity, and \(Wording.count(copies, "record")) of \(drafting.observer.name) "
                        + "\(copies == 1 ? "repeats" : "repeat") another: rows of them would be there once per copy"
                    members.entity.attributes.append(
                        .init(name: key.name, type: .json, from: stats.key, evidence: key.evidence + "; json: " + why))
                    members.entity.notes.append("'\(stats.key)' is json: " + why)
                    return true
                }
                switch stats.shape {
                case .object, .arrayOfObjects: break
                default: return false
                }
                guard let child = MappingInference.nestedEntity(stats) else { return false }
                drafting.embed(child, stats: stats, key: key, into: &members.entity)
                return true
            }),
        MemberRule(
            rule: InferRule(
                name: "url-reference", stage: "relationship",
                drafts: "a key of URLs ending in ids of another entity is a relationship with `match: '/(\\d+)/?$'`",
                corpusCase: "pokeapi", test: "InferURLIdentityTests/draftsMatchForIdsInURLs"),
            draft: { drafting, stats, key, members in
                // A URL, or a path from the host's root (`/api/v2/type/18/`), that `urlIDs` kept.
                guard let many = referenceCardinality(stats, key, scalars: [.url, .string]) else { return false }
                guard let (target, urls) = drafting.urlReferenceTarget(stats) else { return false }
                var relationship = InferredMapping.Relationship(
                    name: key.name, target: target, many: many, from: stats.key,
                    evidence: key.evidence + "; \(Wording.count(urls.count, "distinct id")) at the end of URLs, all identities of \(target)"
                )
                relationship.match = stats.urlIDs?.matchPattern ?? URLIdentities.pattern
                members.entity.relationships.append(relationship)
                return true
            }),
        MemberRule(
            rule: InferRule(
                name: "id-reference", stage: "relationship",
                drafts: "a `*_id` or `*_ids` key whose values are all identities of an entity is a relationship to it",
                corpusCase: "api/stripe", test: "InferTests/idKeysThatMatchIdentitiesAreRelationships"),
            draft: { drafting, stats, key, members in
                guard let many = referenceCardinality(stats, key, scalars: [.integer, .string]) else { return false }
                guard let (target, stem) = drafting.referenceTarget(stats, plural: many) else { return false }
                let name = DraftNaming.memberName(fromKey: stem)
                let distinct = Wording.count(stats.values!.count, many ? "distinct id" : "distinct value")
                members.entity.relationships.append(
                    .init(
                        name: many ? DraftNaming.plural(name) : name, target: target, many: many, from: stats.key,
                        evidence: key.evidence + "; \(distinct), all identities of \(target)"))
                return true
            }),
        MemberRule(
            rule: InferRule(
                name: "json-fallback", stage: "relationship",
                drafts: "arrays of scalars, and keys whose values mix shapes or never held one, are `json`",
                corpusCase: "api/github", test: "InferRecordKindsTests/keysThatNeverHeldAValueTakeTheirFirstOne"),
            draft: { _, stats, key, members in
                switch stats.shape {
                case .arrayOfScalars:
                    members.entity.attributes.append(
                        .init(name: key.name, type: .json, from: stats.key, evidence: key.evidence + "; json: arrays of scalars"))
                case let .json(reason):
                    members.entity.attributes.append(
                        .init(name: key.name, type: .json, from: stats.key, evidence: key.evidence + "; json: " + reason))
                    if stats.neverHeldAValue {
                        members.valueless.append(stats.key)
                    } else {
                        members.entity.notes.append("'\(stats.key)' is json: \(reason)")
                    }
                default: return false
                }
                return true
            }),
        MemberRule(
            rule: InferRule(
                name: "scalar-attribute", stage: "relationship",
                drafts: "any other key is an attribute of the type its values have",
                corpusCase: "api/stripe", test: "InferTests/rule"),
            draft: { _, stats, key, members in
                guard case let .scalar(type, format, reason) = stats.shape else { return false }
                members.entity.attributes.append(
                    .init(
                        name: key.name, type: type, from: stats.key, format: format, required: key.required,
                        evidence: key.evidence + (reason.isEmpty ? "" : "; " + reason)))
                return true
            }),
    ]

    /// Whether a key may be a reference, and to many: `true` for arrays of scalars, `false` for
    /// scalars of one of `types` under another key than the identity, else `nil`.
    static func referenceCardinality(_ stats: KeyStats, _ key: DraftedKey, scalars types: [AttributeType]) -> Bool? {
        switch stats.shape {
        case .arrayOfScalars: return true
        case let .scalar(type, _, _) where stats.key != key.identity.key && types.contains(type): return false
        default: return nil
        }
    }
}
