import SeederCore
import SeederFiles

/// Which key of an entity's records is its identity (docs/commands.md, `seeder infer`): the
/// choice of the first of `IdentityChoice.rules` that makes one (`id` when every record has it,
/// non-null, and no two records hold it with different contents; else the first such key named
/// like an identity...); else `identity: none`.
struct IdentityChoice: Sendable {
    /// The identity key, as the records spell it; `nil` for none.
    var key: String?
    /// The attribute the keys of an object keyed by its records become (`keyedBy`): the
    /// identity, unless a key held different records.
    var attribute: String?
    /// Whether `attribute` is a key of the records (which repeat their key in it), not one of its own.
    var attributeIsField = false
    /// Repeated identities whose records differ, among embedded occurrences.
    var conflicts = 0
    /// Occurrences that held nothing but the identity (references, not records).
    var referencesOnly = 0
    var evidence: String
    /// The values of the identity, for `*_id` references.
    var values: ValueSet?
    /// `true` when the identity is the id at the end of the URL at `key` (`url`), read with
    /// `match:`: records without an `id` of their own, as SWAPI's.
    var fromURL = false
    /// The keys that tell the records apart within their owner (rule `owned-identity`): the
    /// identity is the to-one to the owner, then these; `nil` otherwise.
    var ownedKeys: [String]?

    /// Keys tried, in order, after `id`, the entity's own id keys and the id in its own URL
    /// (rule `identity-by-name`).
    static let names = ["uuid", "guid", "key", "slug", "handle", "username", "login", "name"]

    /// The entity's own id keys, as `Naming.lookupKey` folds them: `<entity>_id`,
    /// `<entity>_uuid` and `<entity>_key` (`userUuid`, `UserKey`), then the same of its name's
    /// last word (`group_key` of a `NotificationGroup`).
    static func ownKeys(of entity: String) -> [String] {
        let last = DraftNaming.words(of: entity).last ?? entity
        let stems = last == entity ? [entity] : [entity, last]
        return stems.flatMap { stem in ["id", "uuid", "key"].map { Naming.lookupKey(stem + $0) } }
    }

    init(evidence: String) {
        self.evidence = evidence
    }

    /// The choice of the first of `rules` that makes one.
    init(of observer: ShapeObserver, keyed: Bool, rules: [IdentityRule] = IdentityChoice.rules) {
        var context = IdentityContext(keyed: keyed)
        for rule in rules {
            if let choice = rule.choose(observer, &context) {
                self = choice
                return
            }
        }
        self.init(
            evidence: "no key named like an identity is in every record and unique"
                + (context.rejected.isEmpty ? "" : ": " + context.rejected.joined(separator: "; ")))
    }

    /// Rule `record-keys`: the keys of an object keyed by its records are their identity unless
    /// one key held different records (`rachit` in two teams): then each record is its own, and
    /// the key only an attribute. `nil` when the records were not seen keyed.
    static func recordKeys(of observer: ShapeObserver) -> IdentityChoice? {
        guard let keyStats = observer.stats(ShapeObserver.recordKey), let keyValues = keyStats.values else { return nil }
        let own = observer.keysEqualToRecordKey?.first
        let repeats = keyValues.sourceConflicts + keyValues.embeddedConflicts
        let unique = repeats == 0 && !keyValues.overflowed
        let attribute = own ?? keyAttribute(of: observer, preferring: unique ? ["id", "key"] : ["key", "id"])
        let keyedBy = own.map { "keyed by '\($0)': every record's key is its '\($0)'" } ?? "keyed by '\(attribute)': the keys of the object"
        var choice = IdentityChoice(evidence: keyedBy)
        choice.attribute = attribute
        choice.attributeIsField = own != nil
        guard unique else {
            choice.evidence +=
                "; no identity: "
                + (keyValues.overflowed ? "more than \(Wording.count(ValueSet.limit, "key")), not checked" : repeating(repeats, "key"))
            return choice
        }
        choice.key = own ?? ShapeObserver.recordKey
        choice.values = keyValues
        return choice
    }

    /// Rule `id-in-own-url`: the id at the end of the records' own URL (`urlIdentityKey`),
    /// which is what the service keys them by.
    static func idInOwnURL(of observer: ShapeObserver, _ context: IdentityContext) -> IdentityChoice? {
        guard let stats = urlIdentityKey(of: observer) else { return nil }
        let values = stats.urlIDs!.ids
        var choice = IdentityChoice(
            evidence:
                "the id at the end of '\(stats.key)': \(Wording.count(values.count, "distinct id")) in \(Wording.count(observer.records, "record"))"
                + (context.rejected.isEmpty ? "" : "; " + context.rejected.joined(separator: "; ")))
        choice.key = stats.key
        choice.fromURL = true
        choice.values = values
        choice.referencesOnly = stats.soleKey
        return choice
    }

    /// Rule `owned-identity`: the keys `ShapeCatalog.separateOwnedRecords` found unique within
    /// each owner's arrays of these records.
    static func ownedIdentity(of observer: ShapeObserver, _ context: IdentityContext) -> IdentityChoice? {
        guard let (owner, keys) = observer.ownership else { return nil }
        var choice = IdentityChoice(
            evidence: "within each \(owner.name), "
                + Wording.list(keys.map { "'\($0)'" }, conjunction: "and")
                + " \(keys.count == 1 ? "is" : "are") unique in every array of \(Wording.count(observer.records, "record"))"
                + (context.rejected.isEmpty ? "" : "; " + context.rejected.joined(separator: "; ")))
        choice.ownedKeys = keys
        return choice
    }

    /// The first of `names` (as `Naming.lookupKey` folds them) that is a key of every record,
    /// never null, an integer or a string, and unique but for what `allowances` allow; each key
    /// tried and refused is said in `context`, for the evidence.
    static func firstKey(of names: [String], in observer: ShapeObserver, _ context: inout IdentityContext) -> IdentityChoice? {
        let records = observer.records
        for name in names {
            guard let stats = observer.keys.first(where: { Naming.lookupKey($0.key) == name }) else { continue }
            guard let values = stats.values else { continue }
            let allowed = allowances.map { $0.allowed(observer, stats, values) }.max() ?? 0
            var why: String?
            if stats.present < records {
                why = "missing in \(Wording.count(records - stats.present, "record"))"
            } else if stats.nulls > 0 {
                why = "null in \(Wording.count(stats.nulls, "record"))"
            } else if stats.booleans + stats.fractions + stats.objects + stats.arrays > 0 {
                why = "not always an integer or a string"
            } else if values.overflowed {
                why = "more than \(Wording.grouped(ValueSet.limit)) values, not checked"
            } else if values.sourceConflicts + values.embeddedConflicts > allowed, values.sourceConflicts > 0 {
                why = "not unique: \(repeating(values.sourceConflicts))"
            } else if observer.sourceRecords == 0, values.sameKeysConflicts > 0 {
                // Only ever embedded, and two records of the same keys share a value: unique
                // within each parent (an order's line 1), not across them. Merging would lose one.
                why = "unique only within each parent: \(repeating(values.sameKeysConflicts))"
            } else if stats.key != "id", values.embeddedConflicts > 0, values.sourceConflicts + values.embeddedConflicts > allowed {
                why = repeating(values.embeddedConflicts)
            }
            if let why {
                context.rejected.append("'\(stats.key)' \(why)")
                continue
            }
            var choice = IdentityChoice(evidence: "")
            choice.key = stats.key
            // A reference may differ from its record in more than its keys (a stale copy): the
            // first occurrence wins, as for any embedded copy.
            choice.conflicts = values.embeddedConflicts
            choice.referencesOnly = stats.soleKey
            choice.values = values
            let repeats = records - values.count
            var rejected = context.rejected
            if allowed > 0 {
                rejected.append(
                    "\(Wording.count(allowed, "record")) both detailed and referenced (other keys, same '\(stats.key)'): they merge")
            }
            choice.evidence =
                "'\(stats.key)': \(Wording.count(values.count, "distinct value")) in \(Wording.count(records, "record"))"
                + (repeats > 0 ? " (\(Wording.count(repeats, "repeated occurrence")) \(repeats == 1 ? "merges" : "merge"))" : "")
                + (rejected.isEmpty ? "" : "; " + rejected.joined(separator: "; "))
            return choice
        }
        return nil
    }
    /// The key named `url` whose every value is a URL ending in an id (`URLIdentities`), of one
    /// collection and unique across the records, in records with no `id` key of their own; else
    /// `nil`.
    static func urlIdentityKey(of observer: ShapeObserver) -> KeyStats? {
        guard !observer.keys.contains(where: { Naming.lookupKey($0.key) == "id" }),
            let stats = observer.keys.first(where: { Naming.lookupKey($0.key) == "url" }), let urls = stats.urlIDs,
            stats.present == observer.records, stats.nulls == 0, stats.strings == stats.present
        else { return nil }
        let ids = urls.ids
        guard urls.sameCollection != nil, ids.count > 0, !ids.overflowed, ids.sourceConflicts == 0, ids.embeddedConflicts == 0 else {
            return nil
        }
        return stats
    }

    /// `1 value repeats with other records`, `3 values repeat with other records`.
    private static func repeating(_ values: Int, _ noun: String = "value") -> String {
        "\(Wording.count(values, noun)) \(values == 1 ? "repeats" : "repeat") with other records"
    }

    /// The name of the attribute the keys become: the first of `names`, then `recordKey`, that
    /// reads no key of the records (`recordKey2`... past them all).
    static func keyAttribute(of observer: ShapeObserver, preferring names: [String]) -> String {
        let taken = Set(observer.keys.map { Naming.lookupKey($0.key) })
        if let free = (names + ["recordKey"]).first(where: { !taken.contains(Naming.lookupKey($0)) }) { return free }
        var suffix = 2
        while taken.contains("recordkey\(suffix)") { suffix += 1 }
        return "recordKey\(suffix)"
    }
}
