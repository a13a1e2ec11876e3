import SeederCore
import SeederFiles

/// The keys that tell apart the records of one array within each record that holds it
/// (docs/commands.md, `seeder infer`, rule `owned-identity`): a PokéAPI ability's `names`
/// hold one name per `language`, its `flavor_text_entries` one text per `language` and
/// `version_group`. Such records are unique within their owner, so `identity: [owner, key...]`
/// keeps each row's key from release to release where `identity: none` renumbers them all.
///
/// Tracked on the owner's key (`KeyStats`), so the keys are those of one owner's arrays. A
/// candidate is one key or two, each present, not null, and a string, a number or an object (a
/// to-one, compared by its text) in every element; it stays one while no array holds two
/// elements with the same values for it.
struct OwnedKeys {
    /// Keys tried together at most: one, then pairs.
    static let maxKeys = 2
    /// Keys of the first element tried, at most (`maxKeys` of them make the candidates).
    static let maxCandidateKeys = 8

    /// The candidates still unique within every array, each the keys in the elements' order;
    /// `nil` before the first array of objects.
    private(set) var candidates: [[String]]?
    /// Whether some array held two elements or more: a key is only shown unique by those.
    private(set) var tested = false
    /// Keys whose values were ever a string or a number: what the records say, where an object
    /// is a to-one to what they are about (a `language`, a `stat`), the better key.
    private(set) var scalarKeys: Set<String> = []
    /// Each candidate key's distinct values (hashes) over every array, up to `maxDistinct`: a
    /// key of few (a `version_group`, a `language`) names what an entry is about within its
    /// owner; one of as many as the entries (a `machine`'s id) is another record's identity,
    /// which the service may renumber.
    private(set) var distinct: [String: Set<UInt64>] = [:]
    /// Distinct values counted per key, at most.
    static let maxDistinct = 4096

    /// Checks one array's elements: every candidate some element lacks, or whose values repeat,
    /// is dropped. An array holding anything but objects ends every candidate.
    mutating func observe(_ array: JSONValue) {
        if candidates == nil { candidates = Self.candidates(of: array) }
        guard !candidates!.isEmpty else { return }
        let count = array.count
        if count > 1 { tested = true }
        // Each key's value hashes, element by element, computed once for every candidate.
        var hashes: [String: [UInt64]] = [:]
        for key in Set(candidates!.joined()) {
            var column: [UInt64] = []
            column.reserveCapacity(count)
            for element in array.elements {
                guard element.kind == .object, let value = element[key], let hash = Self.hash(of: value) else { break }
                if value.kind != .object { scalarKeys.insert(key) }
                column.append(hash)
            }
            hashes[key] = column
            if distinct[key, default: []].count < Self.maxDistinct { distinct[key, default: []].formUnion(column) }
        }
        candidates!.removeAll { keys in
            guard keys.allSatisfy({ hashes[$0]!.count == count }) else { return true }
            guard count > 1 else { return false }
            var seen = Set<UInt64>(minimumCapacity: count)
            for index in 0..<count {
                let combined = keys.reduce(UInt64(0)) { ValueHash.mix($0 ^ hashes[$1]![index]) }
                if !seen.insert(combined).inserted { return true }
            }
            return false
        }
    }

    /// Adds what `other` checked (the same key of records of one kind, seen under another key):
    /// the candidates unique in both.
    mutating func add(_ other: OwnedKeys) {
        tested = tested || other.tested
        scalarKeys.formUnion(other.scalarKeys)
        distinct.merge(other.distinct) { $0.union($1) }
        guard let theirs = other.candidates else { return }
        candidates = candidates.map { mine in mine.filter(theirs.contains) } ?? theirs
    }

    /// The candidates, best first: the fewest keys, to-ones before scalars (a `stat` rather than
    /// the `change` that happens to differ), the fewest distinct values (a move's machine entries
    /// by `version_group`, of 20, not by `machine`, of 2,000 renumbered between two releases),
    /// then in the elements' order. None when no array tested them.
    var ranked: [[String]] {
        guard tested, let candidates else { return [] }
        let rank = { (keys: [String]) in
            (keys.count, keys.filter(scalarKeys.contains).count, keys.reduce(0) { $0 + (distinct[$1]?.count ?? 0) })
        }
        return candidates.enumerated().sorted { a, b in
            let (ra, rb) = (rank(a.element), rank(b.element))
            return ra != rb ? ra < rb : a.offset < b.offset
        }.map(\.element)
    }

    /// The keys of the first element, one and two at a time.
    private static func candidates(of array: JSONValue) -> [[String]] {
        guard let first = array.elements.first(where: { _ in true }), first.kind == .object else { return [] }
        let keys = first.members.compactMap { member in hash(of: member.value) == nil ? nil : member.key.string }
            .prefix(maxCandidateKeys)
        var candidates = keys.map { [$0] }
        for (index, one) in keys.enumerated() { for other in keys.dropFirst(index + 1) { candidates.append([one, other]) } }
        return candidates
    }

    /// What a value is compared by: a string or number as an identity is (`3` and `"3"` alike),
    /// an object by its text; `nil` for what cannot be a key (null, Booleans, arrays).
    private static func hash(of value: JSONValue) -> UInt64? {
        switch value.kind {
        case .string, .number: return value.identityHash
        case .object: return value.textHash
        default: return nil
        }
    }
}
