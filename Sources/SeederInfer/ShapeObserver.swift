import SeederCore
import SeederFiles

/// The records of one kind (a dump's records, or the objects under one key wherever it
/// occurs): how many there were and what each key held (`KeyStats`), keys in first-seen order.
public final class ShapeObserver {
    /// The entity name the records suggest (`Owner` for objects under `owner`); a second
    /// entity of one name gets a number (`Member2`) when the draft is made.
    public internal(set) var name: String
    /// Records seen, and of those a source's own (not embedded in another record).
    public internal(set) var records = 0
    var sourceRecords = 0
    /// The most keys one record had.
    var maxKeys = 0
    /// The keys in the order they were first seen.
    var keys: [KeyStats] = []
    private var index: [String: Int] = [:]
    unowned let catalog: ShapeCatalog
    /// Whether the records' keys are data and their values records keyed by them (`keyedBy`),
    /// and what was seen to tell (`ShapeObserver+KeyedData.swift`).
    var keyed = KeyedState()
    /// The records of the records' values, each keyed by its key, when the keys are data.
    var keyedRecords: ShapeObserver?
    /// Which keys' records were merged into these, and why (`ShapeCatalog.mergeSharedShapes`).
    var mergeNote: String?
    /// Whether this observer holds the records of objects keyed by data, under a key.
    fileprivate(set) var isKeyedRecords = false
    /// Whether some of these records came in list envelopes (`ListEnvelope`).
    var fillsEnvelopes = false
    /// Whether these are the records of one owner's arrays, observed apart from the others of
    /// their name until `ShapeCatalog.separateOwnedRecords` keeps or rejoins them.
    fileprivate(set) var isOwned = false
    /// The records that hold these in arrays, and the keys that tell them apart within each
    /// (`OwnedKeys`), when they are kept apart: their identity is `[owner, keys...]`.
    var ownership: (owner: ShapeObserver, keys: [String])?

    init(name: String, catalog: ShapeCatalog) {
        self.name = name
        self.catalog = catalog
    }

    /// The stats of `key`, if any record had it.
    func stats(_ key: String) -> KeyStats? { index[key].map { keys[$0] } }

    /// Counts one record (an object); `fromSource` when a source reads it, not embedded. An
    /// embedded record whose values are all records may be held back until it is known
    /// whether its keys are data (`ShapeObserver+KeyedData.swift`); a source's records are
    /// fields, and have no say in it.
    public func observe(_ object: JSONValue, fromSource: Bool) {
        guard !fromSource else { return walk(object, fromSource: true) }
        switch keyed.decision {
        case .undecided:
            if holdBack(object) { return }
            settle(keyedBy: nil)
        case .keyed, .contradicted:
            return observeKeyed(object)
        case .fields:
            break
        }
        walk(object, fromSource: false)
    }

    /// Counts one record as fields: each key's value.
    func walk(_ object: JSONValue, fromSource: Bool) {
        records += 1
        if fromSource { sourceRecords += 1 }
        // Past `maxKeys` keys, records no source reads are json wherever they are (docs/commands.md,
        // `seeder infer`): a map keyed by push ids must not make a key of each id.
        if keys.count > MappingInference.maxKeys, sourceRecords == 0 {
            maxKeys = max(maxKeys, object.count)
            return
        }
        // The record's hash, computed once, when a key named like an identity needs it.
        var recordHash: UInt64?
        let hash = {
            if recordHash == nil { recordHash = object.recordHash }
            return recordHash!
        }
        // Whether the record has one key: its first member is also its last (no walk).
        var members = object.members.makeIterator()
        let empty = members.next() == nil
        let sole = !empty && members.next() == nil
        var position = 0
        for member in object.members {
            // Records of one kind mostly list their keys in one order: try the key seen at this
            // position first, and only then look the key up by its text.
            let stats: KeyStats
            if position < keys.count, member.key.stringEquals(keys[position].key) {
                stats = keys[position]
            } else {
                let key = member.key.string ?? ""
                if let found = index[key] {
                    stats = keys[found]
                } else {
                    // `name` is kept even beside `id`: references to these records
                    // (`{"name", "url"}`) may lack the `id` and merge by name.
                    stats = KeyStats(key: key)
                    index[key] = keys.count
                    keys.append(stats)
                }
            }
            stats.observe(member.value, in: catalog, record: hash, fromSource: fromSource, soleMember: sole)
            position += 1
        }
        maxKeys = max(maxKeys, position)
    }

    /// Adds the records `other` counted, records of the same kind under another key
    /// (`ShapeCatalog.mergeSharedShapes`): its keys' stats to these, keys first seen there last.
    /// With `asCopies`, its records are another source's copies of these (`ValueSet.add`).
    func absorb(_ other: ShapeObserver, asCopies: Bool = false) {
        records += other.records
        sourceRecords += other.sourceRecords
        maxKeys = max(maxKeys, other.maxKeys)
        for stats in other.keys {
            if let found = index[stats.key] {
                keys[found].add(stats, asCopies: asCopies)
            } else {
                index[stats.key] = keys.count
                keys.append(stats)
            }
        }
    }

    /// The stats of the keys of an object keyed by its records (`keyedBy`), under a name no
    /// JSON key of a record is looked up by.
    static let recordKey = "\u{1}key"
    /// The keys of the record that held its own key as their value in every keyed record so
    /// far (Firebase repeats it: `"blake": {"handle": "blake"}`); `nil` before the first.
    var keysEqualToRecordKey: [String]?

    /// Counts a record of an object keyed by its records (`keyedBy`): its key, then the record.
    public func observe(_ object: JSONValue, key: JSONValue, fromSource: Bool) {
        let stats: KeyStats
        if let found = index[Self.recordKey] {
            stats = keys[found]
        } else {
            stats = KeyStats(key: Self.recordKey)
            stats.values = ValueSet()
            index[Self.recordKey] = keys.count
            keys.append(stats)
        }
        stats.observe(key, in: catalog, record: { object.recordHash }, fromSource: fromSource, soleMember: false)
        let text = key.string ?? ""
        let equal = object.members.compactMap { $0.value.string == text ? $0.key.string : nil }
        keysEqualToRecordKey = keysEqualToRecordKey.map { $0.filter(equal.contains) } ?? equal
        observe(object, fromSource: fromSource)
    }
}

/// Every `ShapeObserver` of one inference, one per entity name, in first-seen order: objects
/// under keys of one name are one kind of record wherever they occur (an `owner` in every
/// repository is one `Owner` entity).
public final class ShapeCatalog {
    /// The observers in the order they were made.
    public internal(set) var observers: [ShapeObserver] = []
    var byName: [String: ShapeObserver] = [:]

    public init() {}

    /// The observer of records named `name`, made if new.
    public func observer(named name: String) -> ShapeObserver {
        if let found = byName[name] { return found }
        let observer = ShapeObserver(name: name, catalog: self)
        byName[name] = observer
        observers.append(observer)
        return observer
    }

    /// A new observer of records keyed by data, named like the observer whose records' values
    /// they are (`ShapeObserver.keyedRecords`); not found by name.
    func keyedObserver(named name: String) -> ShapeObserver {
        let observer = ShapeObserver(name: name, catalog: self)
        observer.isKeyedRecords = true
        observers.append(observer)
        return observer
    }

    /// A new observer of the records of one owner's arrays under a key, named like every other
    /// of that key (`ShapeObserver.isOwned`); not found by name until it rejoins them.
    func ownedObserver(named name: String) -> ShapeObserver {
        let observer = ShapeObserver(name: name, catalog: self)
        observer.isOwned = true
        observers.append(observer)
        return observer
    }

    /// Makes an owned observer the one found by its name (`separateOwnedRecords`).
    func register(_ observer: ShapeObserver) {
        observer.isOwned = false
        byName[observer.name] = observer
    }

    /// Settles every observer still holding records back (`ShapeObserver.settle`), and those
    /// that records replayed then fill: done before the records are read for a draft.
    func settle() {
        var done = false
        while !done {
            done = true
            for observer in observers where !observer.keyed.held.isEmpty {
                observer.settle()
                done = false
            }
        }
        for observer in observers { for stats in observer.keys { stats.settleEmptyObjects() } }
    }

    /// The observer of the objects under `key`: `owner` -> `Owner`, `tasks` -> `Task`.
    func observer(forKey key: String) -> ShapeObserver {
        observer(named: DraftNaming.entityName(fromWords: DraftNaming.words(of: key)))
    }
}
