import SeederCore
import SeederFiles

/// One rule of the relationship stage (docs/commands.md, `seeder infer`, Rules): given one key
/// of an entity's records, drafts the relationship or attribute it is and says `true`, or says
/// `false` and leaves the key to the next rule. `EntityDrafting` runs `EntityDrafting.rules` on
/// each key in order, and the first that drafts wins.
struct MemberRule: Sendable {
    /// What the rule is, as the docs' table lists it.
    let rule: InferRule
    let draft: @Sendable (EntityDrafting, KeyStats, DraftedKey, inout DraftedMembers) -> Bool
}

/// One key of an entity's records, as the member rules read it.
struct DraftedKey {
    /// The member's name, from the key (`posted_at` -> `postedAt`).
    let name: String
    /// How many records hold it, and how many null: `3 of 5; 1 null`.
    let evidence: String
    /// Whether every record holds it, never null, and it is no identity.
    let required: Bool
    let identity: IdentityChoice
}

/// What the member rules draft for one entity, key after key.
struct DraftedMembers {
    var entity: InferredMapping.Entity
    /// Keys that never held a value, said together in one note at the end.
    var valueless: [String] = []
}
