import SeederCore

/// Where the records of an object-root document are: the first of these rules that finds them
/// (docs/commands.md, `seeder infer`, Rules). A new layout a service needs is a rule here, with
/// its corpus case and its row in `RecordLayoutTests.cases`.
extension RecordLayout {
    /// The places a rule finds, and the arrays of objects it leaves out.
    struct Places {
        var found: [Collection]
        var leftOut: [Collection] = []
    }

    struct LayoutRule: Sendable {
        let rule: InferRule
        /// The places, or nil when the rule does not apply to what `Scanner` saw.
        let places: @Sendable (Scanner) -> Places?

        /// A rule of the layout stage, pinned by its row in `RecordLayoutTests.cases`.
        init(_ name: String, drafts: String, corpusCase: String, places: @escaping @Sendable (Scanner) -> Places?) {
            rule = InferRule(name: name, stage: "layout", drafts: drafts, corpusCase: corpusCase, test: "RecordLayoutTests/findsTheRecords")
            self.places = places
        }
    }

    static let rules: [LayoutRule] = [
        LayoutRule(
            "root-with-id-is-a-record",
            drafts: "a root object with an `id` of its own is one record, whatever objects it holds",
            corpusCase: "api/pokeapi",
            // Even objects that look keyed by records are its fields, read through its
            // relationships (PokéAPI's move `contest_combos: {"normal": {...}, "super": {...}}`).
            places: { $0.rootHasID ? Places(found: []) : nil }),
        LayoutRule(
            "keyed-export",
            drafts: "objects keyed by their records under the root (a Firebase export) are sources, `keyedBy` their keys, "
                + "with the root's arrays of records",
            corpusCase: "api/firebase",
            places: { scanner in
                guard !scanner.keyed.isEmpty else { return nil }
                // The root's keyed objects and arrays, in the file's order.
                let order = scanner.rootKeys
                let found = (scanner.keyed + scanner.arrays.filter { $0.keyPath.count == 1 }).sorted {
                    (order.firstIndex(of: $0.keyPath[0]) ?? 0) < (order.firstIndex(of: $1.keyPath[0]) ?? 0)
                }
                return Places(found: found, leftOut: scanner.arrays.filter { $0.keyPath.count > 1 } + scanner.otherObjects)
            }),
        LayoutRule(
            "root-keyed-by-records",
            drafts: "a root whose members are alike objects (`{\"-Kx1\": {...}, \"-Kx2\": {...}}`) is records keyed by their keys",
            corpusCase: "infer/firebase",
            places: { scanner in
                guard let root = scanner.root, root.members.areRecords else { return nil }
                return Places(found: [Collection(keyPath: [], keyed: true, records: root.count)])
            }),
        LayoutRule(
            "collections-side-by-side",
            drafts: "arrays of objects side by side in an object with no value of its own (`{\"users\": [...], "
                + "\"projects\": [...]}`) are each a source, named by its key",
            corpusCase: "infer/hasura",
            places: { scanner in
                guard let siblings = scanner.largestAndItsSiblings, siblings.count > 1 else { return nil }
                let found = siblings.map { Collection(keyPath: $0.keyPath, keyed: false, records: $0.records, namedByKey: true) }
                return Places(found: found, leftOut: scanner.arrays.filter { array in !siblings.contains { $0.keyPath == array.keyPath } })
            }),
        LayoutRule(
            "largest-array-is-the-page",
            drafts: "the array of objects that holds the most records, up to three keys deep (`data.results`, `items`), "
                + "is the page's records; the others are left out, and said",
            corpusCase: "api/stripe",
            places: { scanner in
                guard let largest = scanner.arrays.max(by: { $0.records < $1.records }) else { return nil }
                return Places(found: [largest], leftOut: scanner.arrays.filter { $0.keyPath != largest.keyPath })
            }),
        emptyPage,
        LayoutRule(
            "object-is-one-record",
            drafts: "any other root object is one record",
            corpusCase: "infer/github-meta",
            places: { _ in Places(found: []) }),
    ]

    static let emptyPage = LayoutRule(
        "empty-page",
        drafts: "a root object with only empty arrays where records would be (`\"items\": []`) is a page of none, "
            + "not a record: a last page",
        corpusCase: "infer/github-search",
        places: { $0.emptyArrays.isEmpty ? nil : Places(found: []) })
}
