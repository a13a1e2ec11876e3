import SeederCore
import SeederFiles

/// One rule of the merging stage (docs/commands.md, `seeder infer`, Rules): given the kinds of
/// record observed, merges those it finds to be one kind. `ShapeCatalog.mergeKinds` runs
/// `ShapeCatalog.mergingRules` in order, each on what the earlier ones left: a kind an earlier
/// rule merged is no longer there to merge, so the first rule that merges it wins.
struct MergingRule: Sendable {
    /// What the rule is, as the docs' table lists it.
    let rule: InferRule
    /// Merges in the catalog; the observers that keyed sources read are never merged.
    let merge: @Sendable (ShapeCatalog, _ keyedSources: Set<ObjectIdentifier>) -> Void
}

extension ShapeCatalog {
    /// The merging rules that run first, before the sources are unwrapped and the rest merge:
    /// references must be told from the lists that hold them before records are kept apart by
    /// their owner (`separateOwnedRecords`).
    static let referenceRules: [MergingRule] = [
        MergingRule(
            rule: InferRule(
                name: "reference-to-detailed-kind", stage: "merging",
                drafts: "`{name, url}` objects whose URLs end in ids of a folder's records name those records: "
                    + "a relationship to the folder's entity by the id at the end of the URL (`from: type.url`, `match:`)",
                corpusCase: "api/pokeapi", test: "InferServiceTests/referencesToAFolderAreRelationshipsToItsEntity"),
            merge: { catalog, _ in catalog.resolveDetailedReferences() })
    ]

    /// The other merging rules, in the order they run.
    static let mergingRules: [MergingRule] = [
        MergingRule(
            rule: InferRule(
                name: "shared-shape", stage: "merging",
                drafts: "one kind of record under several keys (`user`, `owner`, `assignee`) is one entity",
                corpusCase: "api/github", test: "InferCorpusTests/theDraftOfOneReleaseBuildsBothAndTheDiffIsTheirChanges"),
            merge: { catalog, keyedSources in catalog.mergeSharedShapes(keyedSources: keyedSources) }),
        MergingRule(
            rule: InferRule(
                name: "sources-of-one-kind", stage: "merging",
                drafts: "sources under names that do not say what they hold (`home-timeline.json`, `status-1.json`), "
                    + "of the same identity and 8 keys or more, alike, are one entity, the first copy of a record winning",
                corpusCase: "infer/timelines", test: "InferTrialTests/sourcesOfOneKindUnderOtherNamesAreOneEntity"),
            merge: { catalog, keyedSources in catalog.mergeSourcesOfOneKind(keyedSources: keyedSources) }),
        MergingRule(
            rule: InferRule(
                name: "named-by-url-kind", stage: "merging",
                drafts: "records known only by a URL ending in an id (`{name, url}` under `learned_by_pokemon`) are named for "
                    + "the kind their URLs name (`/pokemon/25/`: `Pokemon`), where no other entity has that name",
                corpusCase: "api/pokeapi", test: "InferServiceTests/referencesAreNamedForTheKindTheirURLsName"),
            merge: { catalog, _ in catalog.nameByURLKind() }),
    ]

    /// Runs the reference rules, in their order.
    func mergeReferences() {
        for rule in Self.referenceRules { rule.merge(self, []) }
    }

    /// Runs the other merging rules, in their order.
    func mergeKinds(keyedSources: Set<ObjectIdentifier>) {
        for rule in Self.mergingRules { rule.merge(self, keyedSources) }
    }
}
