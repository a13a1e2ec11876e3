/// Where the records of a dump whose root is an object are (docs/commands.md, `seeder infer`):
///
/// - objects keyed by their records under the root (a Firebase export: `{"users": {"blake": {...},
///   "rachit": {...}}, "comments": {...}}`): each one, with the root's arrays of records, is a
///   source of its own;
/// - else the root itself keyed by its records (`{"-Kx1": {...}, "-Kx2": {...}}`);
/// - else the array of objects that holds the most records, up to three keys deep
///   (`data.results`, `items`, `result`): the page's records;
/// - else the object itself is one record.
public struct RecordLayout: Sendable, Equatable {
    /// One place holding records.
    public struct Collection: Sendable, Equatable {
        public var keyPath: [String]
        /// An object whose keys are records (`keyedBy`), rather than an array.
        public var keyed: Bool
        public var records: Int

        public init(keyPath: [String], keyed: Bool, records: Int) {
            self.keyPath = keyPath
            self.keyed = keyed
            self.records = records
        }
    }

    /// The places, in the file's order; empty when the root is one record.
    public var collections: [Collection]

    /// How deep a page's array of records is looked for.
    static let maxDepth = 3

    /// The layout of `root`, an object.
    public init(of root: JSONValue) {
        var keyed: [Collection] = []
        var arrays: [Collection] = []
        for member in root.members {
            guard let key = member.key.string else { continue }
            if Self.isKeyedRecords(member.value) {
                keyed.append(Collection(keyPath: [key], keyed: true, records: member.value.count))
            } else {
                Self.findArrays(member.value, path: [key], into: &arrays)
            }
        }
        if !keyed.isEmpty {
            // In the file's order: the root's keys, in order.
            let order: [String] = root.members.compactMap { $0.key.string }
            let found: [Collection] = keyed + arrays.filter { $0.keyPath.count == 1 }
            collections = found.sorted { (first: Collection, second: Collection) -> Bool in
                let a: Int = order.firstIndex(of: first.keyPath[0]) ?? 0
                let b: Int = order.firstIndex(of: second.keyPath[0]) ?? 0
                return a < b
            }
        } else if Self.isKeyedRecords(root) {
            collections = [Collection(keyPath: [], keyed: true, records: root.count)]
        } else if let largest = arrays.max(by: { $0.records < $1.records }) {
            collections = [largest]
        } else {
            collections = []
        }
    }

    /// Arrays whose elements are mostly objects, under `value`.
    private static func findArrays(_ value: JSONValue, path: [String], into arrays: inout [Collection]) {
        switch value.kind {
        case .array:
            var objects = 0
            var others = 0
            for element in value.elements {
                if element.kind == .object { objects += 1 } else if !element.isNull { others += 1 }
            }
            if objects > 0, others == 0 { arrays.append(Collection(keyPath: path, keyed: false, records: objects)) }
        case .object:
            guard path.count < maxDepth else { return }
            for member in value.members {
                guard let key = member.key.string else { continue }
                findArrays(member.value, path: path + [key], into: &arrays)
            }
        default:
            break
        }
    }

    /// An object of at least two members, all objects (or `null`, which a build skips) that share most of their keys: records
    /// keyed by an id, not the fields of one record.
    static func isKeyedRecords(_ value: JSONValue) -> Bool {
        guard value.kind == .object else { return false }
        var keySets: [Set<String>] = []
        for member in value.members where !member.value.isNull {
            guard member.value.kind == .object else { return false }
            keySets.append(Set(member.value.members.compactMap { $0.key.string }))
        }
        guard keySets.count >= 2 else { return false }
        let all = keySets.reduce(Set<String>()) { $0.union($1) }
        guard !all.isEmpty else { return false }
        // Every record shares at least half of the keys of the first.
        let first = keySets[0]
        return keySets.allSatisfy { set in
            let shared = set.intersection(first).count
            return shared * 2 >= max(set.count, first.count)
        }
    }
}
