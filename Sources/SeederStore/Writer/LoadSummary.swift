import SeederCore
import SeederFiles

/// What the load learnt about each relationship, which the resolver takes as its input
/// (`RowStore.finishLoad()` returns it, once every row is in its table; `ReferenceResolver`):
/// each fact tells a stage of the resolver that it has work to do, or that it has none.
struct LoadSummary {
    /// What the load learnt about one relationship of one entity.
    struct Relationship {
        /// A one-to-many with `inverse` whose embedded children, new when embedded, take their
        /// parent for good as they are inserted: its key, position and presence bit, with no
        /// link row. Their claim stands where their record does (their slot's origin is the
        /// row's own). A later claim on such a child is a link row, or, from the child's own
        /// record, a merge that the merger settles in source order like any to-one. Not when
        /// another to-many shares the inverse: then a claim would not say whose it is.
        /// (Children with `identity: none` take their parent for good anyway:
        /// `RowEncoder.Parent.isFinal`.) Known from the mapping, before the load.
        var claimsAtInsert = false
        /// A to-many with a row in its link table. Unset, the resolver has no link of it to apply
        /// or check.
        var hasLinkRows = false
        /// A to-many with a link that names its target by identity. Unset, every link's target
        /// was embedded, and so inserted with it: none can be missing.
        var hasLinkByIdentity = false
        /// An ordered to-many whose owner merged an occurrence that lists targets: positions are
        /// each occurrence's own until the resolver makes them the owner's united, first-seen
        /// order (docs/mapping.md, Merging). Unset, they are that order already.
        var needsRenumbering = false
        /// A to-one that some record names by identity. Unset, every value of its foreign key
        /// names a row the load inserted: an embedded target, or a parent claiming its child
        /// (an inverse). Only a reference by identity can dangle.
        var referencedByIdentity = false
    }

    /// Per entity, per relationship; set by the load (`RowStore`).
    var relationships: [[Relationship]]

    /// Nothing learnt yet; `claimsAtInsert` as the mapping decides it.
    init(mapping: Mapping) {
        // How many to-manys set each inverse (by target and inverse; a selector's, each of its
        // entities'), counted once: a big mapping has tens of thousands of relationships.
        var sharing: [Int: [Int: Int]] = [:]
        for relationship in mapping.entities.lazy.flatMap(\.relationships) where relationship.isToMany {
            for target in relationship.targets {
                guard let inverse = relationship.inverse(on: target) else { continue }
                sharing[target, default: [:]][inverse, default: 0] += 1
            }
        }
        relationships = mapping.entities.map { entity in
            entity.relationships.map { relationship in
                var facts = Relationship()
                // Not through a selector: its children's claims are link rows, which the resolver
                // reads per entity (`LinkLayout.cases`).
                if relationship.isToMany, relationship.selector == nil, let inverse = relationship.inverse,
                    mapping.entities[relationship.target].identity != .none
                {
                    facts.claimsAtInsert = sharing[relationship.target]?[inverse] == 1
                }
                return facts
            }
        }
    }

    /// The facts of relationship `relationship` of entity `entity`.
    subscript(entity entity: Int, relationship relationship: Int) -> Relationship {
        relationships[entity][relationship]
    }

    /// The facts of the to-many whose link table `link` is.
    subscript(link link: LinkLayout) -> Relationship {
        relationships[link.entityIndex][link.relationshipIndex]
    }
}
