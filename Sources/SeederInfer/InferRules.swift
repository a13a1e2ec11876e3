/// One of `seeder infer`'s heuristics: what it drafts, the recorded service that needs it (a
/// folder of `Tests/SeederCLITests/Fixtures/`), and the test that pins it (docs/commands.md,
/// `seeder infer`, Rules). A new service that drafts wrongly adds a rule and a case here, with
/// its test, rather than a branch nobody can name.
public struct InferRule: Sendable, Equatable {
    /// The rule's name, as docs/commands.md and the draft's comments use it.
    public let name: String
    /// The stage that applies it: `grouping`, `layout`, `merging`, `identity` or `relationship`.
    public let stage: String
    /// What it drafts, in a line.
    public let drafts: String
    /// The corpus case that needs it, a folder under `Tests/SeederCLITests/Fixtures/`.
    public let corpusCase: String
    /// The test that pins it, `Suite/function`.
    public let test: String
}

extension InferRule {
    /// The rules, in the order infer applies them: grouping the files, finding the records in
    /// each, merging one kind seen in several places, choosing identities, then relationships.
    /// The identity and member rules are the ones `IdentityChoice` and `EntityDrafting` run, so
    /// this list and the code are one.
    public static let all: [InferRule] =
        grouping + layout + merging + IdentityChoice.rules.map(\.rule) + IdentityChoice.allowances.map(\.rule)
        + EntityDrafting.rules.map(\.rule) + folding

    static let grouping: [InferRule] = FileGroup.rules.map(\.rule)

    /// JSON:API documents first (`DumpObservation` tells them apart before any other layout),
    /// then `RecordLayout`'s rules.
    static let layout: [InferRule] =
        [
            InferRule(
                name: "json-api", stage: "layout",
                drafts: "JSON:API documents: an entity per resource `type`, relationships from their linkage",
                corpusCase: "api/appstoreconnect", test: "InferJSONAPITests")
        ] + RecordLayout.rules.map(\.rule)

    static let merging: [InferRule] = (ShapeCatalog.referenceRules + ShapeCatalog.mergingRules).map(\.rule)

    /// Rules of the relationship stage that run after the member rules, over the drafted entities.
    static let folding: [InferRule] = [
        InferRule(
            name: "wrapper-is-json", stage: "relationship",
            drafts: "an object with no identity holding only arrays of other records is `json`, read from its key as written",
            corpusCase: "infer/graphql", test: "InferTrialTests/wrappersOfRecordsAreJSON")
    ]
}
