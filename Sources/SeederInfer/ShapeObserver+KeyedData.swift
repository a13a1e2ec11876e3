import SeederCore
import SeederFiles

/// Objects whose keys are data, not fields (docs/commands.md, `seeder infer`, Keys as data):
/// `{"rachit": {"role": "admin"}, "blake": {"role": "dev"}}` holds two records, one per key, and
/// `{"u2": true, "u7": true}` a set of user ids, not the attributes `rachit` or `u2`.
enum KeyedData {
    /// Records keyed by their keys: a to-many with `keyedBy`, to the entity of `records`.
    case records(ShapeObserver, evidence: String)
    /// Anything else keyed by data (scalars, mixed values): `json`.
    case other(evidence: String)
}

/// What an observer saw to tell whether its records' values are records keyed by data.
///
/// **Decision: records whose values are all records are held back** (a sample of up to
/// `sample`) until their keys tell fields from data, then observed one way only: observing them
/// both ways would count every record nested in them twice, in the observers shared by name.
struct KeyedState {
    enum Decision { case undecided, fields, keyed, contradicted }
    var decision = Decision.undecided
    /// Why the keys are data, once `keyed`.
    var evidence = ""
    /// The records held back, and what they showed: each key with the records that held it, the
    /// keys of the values' records (up to `maxFields`), the values' keys that each held its
    /// key (Firebase repeats it), and the values.
    var held: [JSONValue] = []
    var presence: [String: Int] = [:]
    var fields: Set<String> = []
    var keyFields: [String]?
    var values = 0

    /// Records held back at most.
    static let sample = 64
    /// Keys of the values' records kept for telling records that share keys.
    static let maxFields = 256
}

extension ShapeObserver {
    /// What these records (the objects under a key) are when their keys are data, not a
    /// schema; `nil` when their keys may be fields. The keys are data when there are more of
    /// them than `MappingInference.maxKeys`, when they look like ids (integers, UUIDs, Firebase
    /// push ids), when they vary (on average a key is in at most half the objects), or when
    /// each value is a record that repeats its key in a field, as Firebase exports do. Keys in
    /// every object (HAL's `_links`: `self`, `html`) are fields, whatever they hold.
    var keyedData: KeyedData? {
        switch keyed.decision {
        case .keyed:
            guard let keyedRecords else { return .other(evidence: keyed.evidence) }
            return .records(keyedRecords, evidence: keyed.evidence)
        case .contradicted:
            return .other(evidence: keyed.evidence + ", but not every value is a record like the others")
        case .undecided, .fields:
            // A source's records of this name say what its keys are: fields.
            guard sourceRecords == 0 else { return nil }
            // Firebase's sets: every value `true` (`{"carol": true, "dave": true}`), keys of members.
            if !keys.isEmpty, keys.allSatisfy({ $0.trues == $0.present }) {
                return .other(evidence: "every value is true: a set of \(Wording.count(keys.count, "key"))")
            }
            let presence = keys.reduce(0) { $0 + $1.present }
            return Self.whyKeysAreData(keys.map(\.key), presence: presence, objects: records, keyField: nil).map {
                .other(evidence: $0)
            }
        }
    }

    /// Holds `object` back when its values are all records (`null` aside) sharing at least half
    /// their keys with the values before; settles once the sample is full or the keys are more
    /// than `maxKeys`. Returns whether it was held.
    func holdBack(_ object: JSONValue) -> Bool {
        guard object.members.allSatisfy({ $0.value.kind == .object || $0.value.isNull }) else { return false }
        for member in object.members where member.value.kind == .object {
            guard sharesKeys(member.value) else { return false }
            note(member.value, key: member.key.string ?? "")
        }
        for member in object.members { keyed.presence[member.key.string ?? "", default: 0] += 1 }
        keyed.held.append(object)
        if keyed.held.count >= KeyedState.sample || keyed.presence.count > MappingInference.maxKeys { settle() }
        return true
    }

    /// Decides from the records held back, and observes them the way decided.
    func settle() {
        let why = Self.whyKeysAreData(
            Array(keyed.presence.keys), presence: keyed.presence.values.reduce(0, +), objects: keyed.held.count,
            keyField: keyed.values > 1 ? keyed.keyFields?.first : nil)
        settle(keyedBy: why)
    }

    /// Observes the records held back as records keyed by data (`why` they are) or as fields.
    func settle(keyedBy why: String?) {
        let held = keyed.held
        keyed.held = []
        keyed.presence = [:]
        if let why {
            keyed.decision = .keyed
            keyed.evidence = why
            for object in held { observeKeyed(object) }
        } else {
            keyed.decision = .fields
            keyed.fields = []
            for object in held { walk(object, fromSource: false) }
        }
    }

    /// Counts a record whose values are records keyed by data: each goes to `keyedRecords` with
    /// its key, while every value is a record sharing keys with those before. The record is no
    /// record of this observer's (not counted in `records`): a source's records of that name may be.
    func observeKeyed(_ object: JSONValue) {
        guard keyed.decision == .keyed else { return }
        let allRecords = object.members.allSatisfy { $0.value.kind == .object || $0.value.isNull }
        for member in object.members where !member.value.isNull {
            guard allRecords, sharesKeys(member.value) else {
                keyed.decision = .contradicted
                return
            }
            note(member.value, key: nil)
            if keyedRecords == nil { keyedRecords = catalog.keyedObserver(named: name) }
            keyedRecords!.observe(member.value, key: member.key, fromSource: false)
        }
    }

    /// Whether `record` shares at least half its keys with the values' records before it.
    private func sharesKeys(_ record: JSONValue) -> Bool {
        guard keyed.values > 0, keyed.fields.count < KeyedState.maxFields else { return true }
        var own = 0
        var shared = 0
        for member in record.members {
            own += 1
            if let key = member.key.string, keyed.fields.contains(key) { shared += 1 }
        }
        return shared * 2 >= own
    }

    /// Notes the keys of a value's record, and (with its `key`, while held back) which of its
    /// keys hold that key.
    private func note(_ record: JSONValue, key: String?) {
        keyed.values += 1
        var equal: [String] = []
        for member in record.members {
            guard let field = member.key.string else { continue }
            if keyed.fields.count < KeyedState.maxFields { keyed.fields.insert(field) }
            if let key, member.value.string == key { equal.append(field) }
        }
        if key != nil { keyed.keyFields = keyed.keyFields.map { $0.filter(equal.contains) } ?? equal }
    }

    /// Why keys held by `objects` objects, `presence` times in all, are data, or `nil`.
    static func whyKeysAreData(_ keys: [String], presence: Int, objects: Int, keyField: String?) -> String? {
        guard !keys.isEmpty else { return nil }
        if keys.allSatisfy(isInteger) { return "its keys are integers" }
        if keys.allSatisfy({ $0.utf8.count == 36 && Coercion.canonicalUUID($0) != nil }) { return "its keys are UUIDs" }
        if keys.allSatisfy(isPushID) { return "its keys are Firebase push ids" }
        if keys.count > MappingInference.maxKeys { return "more than \(MappingInference.maxKeys) different keys" }
        if objects > 1, presence * 2 <= keys.count * objects {
            return "its keys vary: \(Wording.count(keys.count, "different key")) in \(Wording.count(objects, "object"))"
        }
        return keyField.map { "each record repeats its key in '\($0)'" }
    }

    /// `42`: ASCII digits.
    static func isInteger(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
    }

    /// `-Kx1`, `-NbQ1vXk0a1`: a Firebase push id, `-` then letters, digits, `-` and `_`, a
    /// letter among them.
    static func isPushID(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count >= 3, bytes[0] == UInt8(ascii: "-") else { return false }
        let letter = { (byte: UInt8) in (byte | 0x20) &- UInt8(ascii: "a") < 26 }
        return bytes.contains(where: letter)
            && bytes.allSatisfy { letter($0) || $0 &- UInt8(ascii: "0") < 10 || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }
}
