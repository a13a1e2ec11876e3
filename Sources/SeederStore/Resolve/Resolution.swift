import Foundation
import SeederCore
import SeederFiles

/// What the resolver did (`ReferenceResolver.resolve()`), for the stages after it: what it adds to
/// each entity's counts, and the seed's indexes it built, which the finish does not build again.
struct Resolution {
    /// Per entity, in mapping order: rows `onMissing: create` made, conflicts an inverse link
    /// settled, references resolved and dropped. Every other count is the load's.
    var counts: [EntityCounts]
    /// The names of the seed's indexes built to check references (`checkForeignKey`).
    var indexesBuilt: Set<String> = []

    init(entities: Int) {
        counts = Array(repeating: EntityCounts(), count: entities)
    }
}

/// The `Resolution` the resolver's stages add to as they go. A class: the resolver is a struct
/// its stages share.
final class ResolutionTally {
    var resolution: Resolution

    init(entities: Int) {
        resolution = Resolution(entities: entities)
    }

    var counts: [EntityCounts] {
        _read { yield resolution.counts }
        _modify { yield &resolution.counts }
    }
}
