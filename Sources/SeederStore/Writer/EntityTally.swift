/// A build's counts per entity (`EntityCounts`), with one owner: the writer (`RowStore`) and the
/// load's reading add to them as records come, the resolver (`ReferenceResolver`) as it resolves,
/// and the build's report takes them once, at the end (`EntityTotals`). A class:
/// those stages share it.
final class EntityTally {
    // Counted on the writing thread only: no run-time exclusivity checks.
    @exclusivity(unchecked) var counts: [EntityCounts]

    init(entities: Int) {
        counts = Array(repeating: EntityCounts(), count: entities)
    }
}
