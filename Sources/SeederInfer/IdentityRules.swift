import SeederCore
import SeederFiles

/// One rule of the identity stage (docs/commands.md, `seeder infer`, Rules): given an entity's
/// records, the identity it chooses, or `nil` to leave the choice to the next rule.
/// `IdentityChoice` runs `IdentityChoice.rules` in order, and the first that chooses wins.
struct IdentityRule: Sendable {
    /// What the rule is, as the docs' table lists it.
    let rule: InferRule
    let choose: @Sendable (ShapeObserver, inout IdentityContext) -> IdentityChoice?
}

/// A repetition a candidate identity may hold and still be the identity: how many of its
/// values repeat for a reason that is no conflict (records referenced and detailed).
struct IdentityAllowance: Sendable {
    let rule: InferRule
    let allowed: @Sendable (ShapeObserver, KeyStats, ValueSet) -> Int
}

/// What one entity's identity rules hand each other: whether its records are keyed by their
/// keys, and the keys tried so far and why each was not the identity, for the evidence.
struct IdentityContext {
    let keyed: Bool
    var rejected: [String] = []
}

extension IdentityChoice {
    /// The identity rules, in the order they are tried.
    static let rules: [IdentityRule] = [
        IdentityRule(
            rule: InferRule(
                name: "record-keys", stage: "identity",
                drafts: "the records of an object keyed by them have its keys as identity, unless one key holds different records",
                corpusCase: "api/firebase", test: "InferTests/firebaseExportKeyedById"),
            choose: { observer, context in context.keyed ? recordKeys(of: observer) : nil }),
        IdentityRule(
            rule: InferRule(
                name: "id-keys", stage: "identity",
                drafts: "`id`, then `<entity>_id`, `<entity>_uuid`, `<entity>_key` and the same of the name's last word (`group_key`)",
                corpusCase: "api/stripe", test: "InferTests/entityUUIDAndKeyAreIdentities"),
            choose: { observer, context in firstKey(of: ["id"] + ownKeys(of: observer.name), in: observer, &context) }),
        IdentityRule(
            rule: InferRule(
                name: "id-in-own-url", stage: "identity",
                drafts: "records with no `id` whose `url` ends in an id, unique: that id, read with `match:`",
                corpusCase: "api/pokeapi", test: "InferURLIdentityTests/draftsMatchForIdsInURLs"),
            choose: { observer, context in idInOwnURL(of: observer, context) }),
        IdentityRule(
            rule: InferRule(
                name: "identity-by-name", stage: "identity",
                drafts: "the first of `uuid`, `guid`, `key`, `slug`, `handle`, `username`, `login`, `name` that is unique",
                corpusCase: "api/pokeapi", test: "InferTests/identityFallsBackToAnotherUniqueKey"),
            choose: { observer, context in firstKey(of: names, in: observer, &context) }),
        IdentityRule(
            rule: InferRule(
                name: "owned-identity", stage: "identity",
                drafts: "records of an array told apart within each owner by one or two keys (a `language`) have "
                    + "`identity: [owner, keys...]`, an entity per owner (`AbilityName`)",
                corpusCase: "api/pokeapi", test: "InferServiceTests/childListsAreKeyedWithinTheirOwner"),
            choose: { observer, context in ownedIdentity(of: observer, context) }),
    ]

    /// The repetitions an identity may hold, each allowed by its rule.
    static let allowances: [IdentityAllowance] = [
        IdentityAllowance(
            rule: InferRule(
                name: "referenced-and-detailed", stage: "identity",
                drafts: "a key that repeats only between a record and references to it (other keys) is still the identity",
                corpusCase: "pokeapi", test: "InferServiceTests/aRecordReferencedAndDetailedKeepsItsIdentity"),
            allowed: { observer, stats, values in
                // Records both detailed (with their `id`) and referenced (`{"name", "url"}`,
                // without it): a key other than `id` that repeats only between records of other
                // keys is their identity still.
                let ids = observer.keys.first { Naming.lookupKey($0.key) == "id" }?.present ?? 0
                return Naming.lookupKey(stats.key) != "id" && ids > 0 && ids < observer.records ? values.detailedConflicts : 0
            })
    ]
}
