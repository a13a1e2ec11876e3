import SeederCore
import SeederFiles

/// Where the records of a dump whose root is an object are: the places the first of
/// `RecordLayout.rules` finds (a record with an `id` of its own, a Firebase export's collections,
/// a page's array, an empty last page, ...; docs/commands.md, `seeder infer`, Rules).
///
/// It is found from the file's outer levels, streamed (`JSONReader.forEachStructure`), so a
/// page of any size is never held whole; or from an object already parsed, by the same rules:
///
///     let layout = try RecordLayout(reading: JSONReader(source: source))
public struct RecordLayout: Sendable, Equatable {
    /// One place holding records.
    public struct Collection: Sendable, Equatable {
        public var keyPath: [String]
        /// An object whose keys are records (`keyedBy`), rather than an array.
        public var keyed: Bool
        public var records: Int
        /// Named by its key (`users` -> `User`) rather than by its file: one of several.
        public var namedByKey = false

        public init(keyPath: [String], keyed: Bool, records: Int, namedByKey: Bool = false) {
            self.keyPath = keyPath
            self.keyed = keyed
            self.records = records
            self.namedByKey = namedByKey
        }
    }

    /// The places, in the file's order; empty when the root is one record.
    public var collections: [Collection]
    /// Arrays of objects found and not read: elsewhere than the page's, and smaller.
    public var leftOut: [Collection] = []
    /// Empty arrays, where a page's records would be: a last page with none (`"items": []`).
    public var emptyArrays: [[String]] = []
    /// The root's keys, in order (no more than `maxKeys + 1`).
    public var rootKeys: [String] = []
    /// The layout rule that found the places (`RecordLayout.rules`).
    public var rule: InferRule

    /// Whether the document is a page of no records: only empty arrays where they would be.
    public var isEmptyPage: Bool { rule == Self.emptyPage.rule }

    /// Whether the document is one record: it holds no place of records, and is no empty page.
    public var isOneRecord: Bool { collections.isEmpty && !isEmptyPage }

    /// How deep a page's array of records is looked for.
    static let maxDepth = 3
    /// An object with more keys than this is data (records keyed by id, or values), not a
    /// wrapper around a page: no array under it is a page's records, and as a record its keys
    /// are too many to compare (`MappingInference.maxKeys`).
    static let maxKeys = 64

    /// The layout of the JSON document `reader` reads, an object.
    public init(reading reader: JSONReader) throws {
        var scanner = Scanner()
        try reader.forEachStructure(streamingDepth: Self.maxDepth + 1) { scanner.consume($0) }
        self.init(scanner)
    }

    /// The layout of `root`, an object already in memory: the events its outer levels would
    /// give when streamed, so both ways find the same places.
    public init(of root: JSONValue) {
        var scanner = Scanner()
        Self.emit(root, depth: 0, inArray: false, into: &scanner)
        self.init(scanner)
    }

    private init(_ scanner: Scanner) {
        let (rule, places) = Self.rules.lazy.compactMap { rule in rule.places(scanner).map { (rule.rule, $0) } }.first!
        self.rule = rule
        (collections, leftOut) = (places.found, places.leftOut)
        emptyArrays = scanner.emptyArrays
        rootKeys = scanner.rootKeys
    }

    private static func emit(_ value: JSONValue, depth: Int, inArray: Bool, into scanner: inout Scanner) {
        let streamed = depth <= maxDepth && !inArray
        switch value.kind {
        case .object where streamed:
            scanner.consume(.objectStart)
            for member in value.members {
                scanner.consume(.key(member.key.string ?? ""))
                emit(member.value, depth: depth + 1, inArray: false, into: &scanner)
            }
            scanner.consume(.objectEnd)
        case .array where streamed:
            scanner.consume(.arrayStart)
            for element in value.elements { emit(element, depth: depth + 1, inArray: true, into: &scanner) }
            scanner.consume(.arrayEnd)
        default:
            scanner.consume(.value(value.kind))
        }
    }

    /// What the outer levels' events say, kept as bounded summaries: no more than `maxKeys`
    /// keys an object, and the arrays of objects under objects that are not data.
    struct Scanner {
        /// An object being read: its keys (up to `maxKeys + 1`), and whether its members are
        /// records keyed by their keys (`Members`).
        struct Object {
            var path: [String]
            var keys: [String] = []
            var count = 0
            var members = Members()
            var key: String?
            var wide: Bool { count > RecordLayout.maxKeys }
        }

        /// Whether the members of an object are records keyed by their keys: at least two
        /// non-null members, all objects, each sharing at least half of its keys with the first.
        struct Members {
            var records = 0
            var allObjects = true
            var first: Set<String>?
            var similar = true

            mutating func add(object keys: Set<String>?) {
                records += 1
                // An object too wide to compare is no record of this kind.
                guard let keys, !keys.isEmpty || first == nil else {
                    similar = false
                    return
                }
                if let first {
                    let shared = keys.intersection(first).count
                    if shared * 2 < max(keys.count, first.count) { similar = false }
                } else {
                    first = keys
                }
            }

            var areRecords: Bool {
                guard allObjects, similar, records >= 2, let first else { return false }
                return !first.isEmpty
            }
        }

        private var objects: [Object] = []
        /// The array being read (never nested: an array's elements are read whole).
        private var array: (path: [String], objects: Int, others: Int)?
        /// The root's members that are records keyed by their keys, and arrays of objects, with
        /// the order of the root's key each one is under.
        private(set) var keyed: [Collection] = []
        private(set) var arrays: [Collection] = []
        private(set) var root: Object?
        var rootKeys: [String] { root?.keys ?? [] }
        private(set) var emptyArrays: [[String]] = []
        private(set) var rootHasID = false
        /// The objects, up to `maxDepth` keys deep, that hold a value of their own (a string,
        /// number or boolean): a page's wrapper (`offset`, `total`), not a bundle of collections.
        private var holdValues: Set<[String]> = []
        /// The root's objects of objects that are no collection: left out, and said.
        private(set) var otherObjects: [Collection] = []

        /// The largest array of objects, with the arrays of objects beside it when the object
        /// holding them has no value of its own (a bundle of collections, not a page); nil when
        /// no array of objects was found.
        var largestAndItsSiblings: [Collection]? {
            guard let largest = arrays.max(by: { $0.records < $1.records }) else { return nil }
            let parent = Array(largest.keyPath.dropLast())
            return holdValues.contains(parent) ? [largest] : arrays.filter { Array($0.keyPath.dropLast()) == parent }
        }

        mutating func consume(_ event: JSONReader.Structure) {
            switch event {
            case .objectStart:
                objects.append(Object(path: objects.last.map { $0.path + [$0.key ?? ""] } ?? []))
            case let .key(key):
                objects[objects.count - 1].key = key
                objects[objects.count - 1].count += 1
                if objects[objects.count - 1].count <= RecordLayout.maxKeys + 1 {
                    objects[objects.count - 1].keys.append(key)
                }
                if objects[objects.count - 1].count == RecordLayout.maxKeys + 1 {
                    // Data, not a wrapper: what was found under it was not a page's records.
                    let path = objects[objects.count - 1].path
                    arrays.removeAll { $0.keyPath.starts(with: path) }
                    if path.isEmpty { keyed.removeAll() }
                }
            case .objectEnd:
                let object = objects.removeLast()
                // HAL's `_links` holds a page's links (`self`, `next`), never records.
                if object.path.count == 1, !(objects.last?.wide ?? false), object.path != ["_links"] {
                    if object.members.areRecords {
                        keyed.append(Collection(keyPath: object.path, keyed: true, records: object.count))
                    } else if object.members.allObjects, object.members.records >= 2 {
                        // Objects of objects that are not records alike (records keyed twice:
                        // `{"post-comments": {"p1": {"c1": {...}}}}`): no place read, but said.
                        otherObjects.append(Collection(keyPath: object.path, keyed: true, records: object.count))
                    }
                }
                guard !objects.isEmpty else {
                    root = object
                    return
                }
                objects[objects.count - 1].members.add(object: object.wide ? nil : Set(object.keys))
            case .arrayStart:
                array = (objects.last.map { $0.path + [$0.key ?? ""] } ?? [], 0, 0)
            case .arrayEnd:
                let found = array!
                array = nil
                if !objects.isEmpty { objects[objects.count - 1].members.allObjects = false }
                if found.others == 0, !found.path.isEmpty, found.path.count <= RecordLayout.maxDepth, !objects.contains(where: \.wide) {
                    if found.objects > 0 {
                        arrays.append(Collection(keyPath: found.path, keyed: false, records: found.objects))
                    } else if emptyArrays.count < RecordLayout.maxKeys {
                        emptyArrays.append(found.path)
                    }
                }
            case let .value(kind):
                if array == nil, objects.count == 1, let key = objects[0].key, Naming.lookupKey(key) == "id",
                    kind == .number || kind == .string
                {
                    rootHasID = true
                }
                if array == nil, let object = objects.last, kind != .object, kind != .array, kind != .null,
                    object.path.count < RecordLayout.maxDepth, holdValues.count < RecordLayout.maxKeys
                {
                    holdValues.insert(object.path)
                }
                if array != nil {
                    if kind == .object { array!.objects += 1 } else if kind != .null { array!.others += 1 }
                } else if !objects.isEmpty {
                    if kind == .object {
                        // An object read whole, too deep to stream: a record, its keys unknown.
                        objects[objects.count - 1].members.add(object: nil)
                    } else if kind != .null {
                        objects[objects.count - 1].members.allObjects = false
                    }
                }
            }
        }
    }
}
