import Foundation
import SeederTestSupport
import Testing
import Yams

/// `seeder infer`, `build` and `diff` on recorded answers of public APIs, in `Fixtures/api/`
/// (each service's README names its source and lists its changes): the draft made from
/// `release-1/` builds it, loses no record and keeps one account in one table; it builds
/// `release-2/` too, and `diff` reports the three changes made there and nothing else.
struct InferCorpusTests {
    static let corpus = repository + "/Tests/SeederCLITests/Fixtures/api/"

    /// Records of one kind: the top-level records of `files` (names or their beginnings) and the
    /// objects under `keys` anywhere, told apart by their `id`; or, with a JSON:API `type`, the
    /// resource objects of that type in every file's `data` and `included`; or, `keyedUnder` a
    /// key of the root (a Firebase export), the records of that object, told apart by their keys.
    struct Kind: Sendable {
        var files: [String] = []
        var keys: Set<String> = []
        var type: String? = nil
        var keyedUnder: String? = nil
    }

    /// A change of release-2: the record (by the file its entity's source reads, and its id) and
    /// the field that differs (nil: removed).
    struct Change: Sendable {
        let file: String
        var keyedUnder: String? = nil
        let id: String
        let field: String?
    }

    struct Service: Sendable {
        let kinds: [Kind]
        /// The keys under which accounts are embedded: all of them one entity (empty: none).
        var accounts: Set<String> = []
        let changes: [Change]
    }

    static let accountKeys: Set<String> = [
        "user", "owner", "organization", "author", "uploader", "assignee", "assignees", "closed_by", "creator",
    ]

    static let services: [String: Service] = [
        "firebase": Service(
            kinds: [
                Kind(files: ["initial_messages.json"], keyedUnder: "messages"), Kind(files: ["initial_messages.json"], keyedUnder: "users"),
            ],
            changes: [
                Change(file: "initial_messages.json", keyedUnder: "messages", id: "-K2ib5JHRbbL0NrztUfO", field: "msg"),
                Change(file: "initial_messages.json", keyedUnder: "messages", id: "-K2ib62mjHh34CAUbide", field: nil),
            ]),
        "github": Service(
            kinds: [
                Kind(files: ["issues-page-", "search-issues.json"]), Kind(files: ["labels.json"], keys: ["labels"]),
                Kind(files: ["repo.json"]), Kind(files: ["release.json"]),
                Kind(files: ["release-assets.json"], keys: ["assets"]), Kind(keys: accountKeys),
            ],
            accounts: accountKeys,
            changes: [
                Change(file: "issues-page-1.json", id: "1308969023", field: "title"),
                Change(file: "issues-page-3.json", id: "1308968829", field: nil),
                Change(file: "issues-page-2.json", id: "1308968920", field: "milestone"),
            ]),
        "mollie": Service(
            kinds: [
                Kind(files: ["customers-page-"]), Kind(files: ["payments.json"]), Kind(files: ["subscriptions.json"]),
                Kind(files: ["orders.json"]), Kind(files: ["methods.json"]), Kind(files: ["refunds.json"]),
                Kind(files: ["chargebacks.json"]), Kind(files: ["settlements.json"]), Kind(files: ["profiles.json"]),
                Kind(files: ["terminals.json"]), Kind(files: ["shipments.json"]), Kind(files: ["mandates.json"]),
                Kind(files: ["invoices.json"]), Kind(files: ["captures.json"]),
            ],
            changes: [
                Change(file: "customers-page-2.json", id: "cst_T452qNEwwT", field: "email"),
                Change(file: "customers-page-2.json", id: "cst_QQ5DgznKbs", field: nil),
                Change(file: "customers-page-1.json", id: "cst_HwBHgJgRAf", field: "metadata"),
            ]),
        "appstoreconnect": Service(
            kinds: [
                Kind(files: ["apps.json"], type: "apps"), Kind(files: ["builds.json"], type: "builds"),
                Kind(files: ["beta-groups.json"], type: "betaGroups"),
                Kind(files: ["beta-testers.json"], type: "betaTesters"),
                Kind(files: ["pre-release-versions.json"], type: "preReleaseVersions"),
                Kind(files: ["beta-feedbacks.json"], type: "betaFeedbacks"),
                Kind(files: ["beta-build-localizations.json"], type: "betaBuildLocalizations"),
                Kind(files: ["devices.json"], type: "devices"), Kind(files: ["certificates.json"], type: "certificates"),
                Kind(files: ["profiles.json"], type: "profiles"), Kind(files: ["bundle-ids.json"], type: "bundleIds"),
                Kind(files: ["users.json"], type: "users"),
                Kind(files: ["review-submissions.json"], type: "reviewSubmissions"),
                Kind(files: ["app-infos.json"], type: "appInfos"), Kind(files: ["webhooks.json"], type: "webhooks"),
                // Only in `included`: named by the relationships that link them.
                Kind(keys: ["appStoreVersions"], type: "appStoreVersions"),
                Kind(keys: ["screenshots"], type: "betaScreenshots"),
            ],
            changes: [
                Change(file: "beta-groups.json", id: "987654321", field: "name"),
                Change(file: "devices.json", id: "13371337", field: nil),
                Change(file: "review-submissions.json", id: "987654321", field: "submitted_date"),
            ]),
        "stripe": Service(
            kinds: [
                Kind(files: ["customers.json"]), Kind(files: ["subscriptions.json"], keys: ["subscriptions"]),
                Kind(files: ["invoices.json"]), Kind(files: ["charges.json"], keys: ["charges"]),
                Kind(files: ["payment-intents.json"]), Kind(files: ["plans.json"], keys: ["plan"]),
                Kind(files: ["products.json"]), Kind(files: ["tax-rates.json"], keys: ["default_tax_rates"]),
            ],
            changes: [
                Change(file: "customers.json", id: "cus_4UbFSo9tl62jqj", field: "description"),
                Change(file: "tax-rates.json", id: "txr_fakefakefakefakefake0002", field: nil),
                Change(file: "customers.json", id: "cus_4QWKsZuuTHcs7X", field: "shipping"),
            ]),
    ]

    @Test(arguments: services.keys.sorted())
    func theDraftOfOneReleaseBuildsBothAndTheDiffIsTheirChanges(_ name: String) async throws {
        try await Self.check(name, try #require(Self.services[name]))
    }

    static func check(_ name: String, _ service: Service) async throws {
        let scratch = try Workspace()
        let (release1, release2) = (Self.corpus + name + "/release-1", Self.corpus + name + "/release-2")
        let infer = try await seeder(["infer", release1, "-o", scratch.path("draft.yaml")])
        try #require(infer.status == 0, "\(infer.stderr)")
        let draft = try String(contentsOfFile: scratch.path("draft.yaml"), encoding: .utf8)
        let mapping = try Draft(draft)
        let build1 = try await seeder(["build", scratch.path("draft.yaml"), release1, "-o", scratch.path("seed1.sqlite")])
        try #require(build1.status == 0, "\(build1.stderr)\n\(draft)")
        // Every key the draft reads is one the records hold, byte for byte.
        #expect(!build1.stderr.contains("matched no key"), "\(build1.stderr)\n\(draft)")

        // No record is lost: each kind is one entity, holding as many rows as there are records.
        let dumps = try Dumps(release1)
        let rows = try await Self.rows(scratch.path("seed1.sqlite"))
        for kind in service.kinds {
            // A kind without an entity is recorded, not fatal: the diff below still says what it can.
            guard let entity = mapping.entity(of: kind) else {
                Issue.record("no entity for \(kind)\n\(draft)")
                continue
            }
            #expect(rows[entity] == dumps.count(kind), "\(entity) of \(kind) in \(rows)\n\(draft)")
        }
        // One account is one row, wherever it is embedded.
        let accountEntities = mapping.targets(of: service.accounts)
        if !service.accounts.isEmpty {
            #expect(accountEntities.count == 1, "accounts in \(accountEntities.sorted())\n\(draft)")
        }

        // Release 2 builds with the same draft, and the diff is its three changes.
        let build2 = try await seeder(["build", scratch.path("draft.yaml"), release2, "-o", scratch.path("seed2.sqlite")])
        try #require(build2.status == 0, "\(build2.stderr)\n\(draft)")
        let diff = try await seeder(["diff", scratch.path("seed1.sqlite"), scratch.path("seed2.sqlite"), "--format", "json"])
        #expect(diff.status == 1, "\(diff.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        #expect((document["schema"] as? [Any])?.isEmpty == true, "\(diff.stdout)")
        var reported: [String] = []
        for table in document["tables"] as? [[String: Any]] ?? [] {
            for record in table["records"] as? [[String: Any]] ?? [] {
                let key = (record["key"] as? [Any] ?? []).map { "\($0)" }.joined(separator: ",")
                // A removed record lists all its fields; a changed one, only those that changed.
                let removed = record["change"] as? String == "removed"
                let fields = removed ? "" : (record["fields"] as? [String: Any] ?? [:]).keys.sorted().joined(separator: ",")
                reported.append("\(table["name"] ?? "") \(key) \(record["change"] ?? ""): \(fields)")
            }
            let counts = ["added", "removed", "changed"].map { table[$0] as? Int ?? 0 }
            #expect(counts.reduce(0, +) == (table["records"] as? [Any])?.count ?? 0, "\(table)")
        }
        let expected = service.changes.map { change in
            let entity = mapping.entity(of: Kind(files: [change.file], keyedUnder: change.keyedUnder)) ?? "?"
            guard let field = change.field else { return "\(entity) \(change.id) removed: " }
            return "\(entity) \(change.id) changed: \(field)"
        }
        #expect(reported.sorted() == expected.sorted(), "\(diff.stdout)\n\(draft)")
    }

    /// The rows of each entity of a seed, by `seeder inspect --json`.
    static func rows(_ seed: String) async throws -> [String: Int] {
        let inspect = try await seeder(["inspect", seed, "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        var rows: [String: Int] = [:]
        for table in document["tables"] as? [[String: Any]] ?? [] {
            if let holds = table["holds"] as? String, let count = table["rows"] as? Int { rows[holds] = count }
        }
        return rows
    }
}

/// What a draft mapping says: which entity each source reads, and where each relationship goes.
struct Draft {
    /// Each source's entity, or the entities its selector chooses by `type`.
    let sources: [(path: String, entity: String?, cases: [String: String], keyPath: String?)]
    let relationships: [(key: String, target: String)]

    init(_ text: String) throws {
        let yaml = try #require(try Yams.load(yaml: text) as? [String: Any])
        sources = (yaml["sources"] as? [[String: Any]] ?? []).compactMap { source in
            guard let path = source["path"] as? String else { return nil }
            let cases = (source["entity"] as? [String: Any])?["cases"] as? [String: String] ?? [:]
            return (path, source["entity"] as? String, cases, source["keyPath"] as? String)
        }
        var relationships: [(String, String)] = []
        for case let (_, entity as [String: Any]) in yaml["entities"] as? [String: Any] ?? [:] {
            for case let (name, relationship as [String: Any]) in entity["relationships"] as? [String: Any] ?? [:] {
                guard let target = relationship["to"] as? String else { continue }
                relationships.append((Draft.plain(relationship["from"] as? String ?? name), target))
            }
        }
        self.relationships = relationships
    }

    /// A key as attributes match it: without case and underscores.
    static func plain(_ key: String) -> String { key.lowercased().replacingOccurrences(of: "_", with: "") }

    /// The entities the relationships read from these keys go to.
    func targets(of keys: Set<String>) -> Set<String> {
        let plainKeys = Set(keys.map(Draft.plain))
        return Set(relationships.filter { plainKeys.contains($0.key) }.map(\.target))
    }

    /// The entity of a kind: with a JSON:API `type`, the one a source's selector chooses for it;
    /// else the one whose source reads its first file (its selector's only case), else where its
    /// keys go.
    func entity(of kind: InferCorpusTests.Kind) -> String? {
        if let type = kind.type, let found = sources.lazy.compactMap({ $0.cases[type] }).first { return found }
        if let file = kind.files.first {
            let source = sources.first {
                fnmatch($0.path, file.hasSuffix(".json") ? file : file + "1.json", 0) == 0
                    && (kind.keyedUnder == nil || $0.keyPath == kind.keyedUnder)
            }
            return source?.entity ?? (source?.cases.count == 1 ? source?.cases.values.first : nil)
        }
        return targets(of: kind.keys).sorted().first
    }
}

/// The JSON files of a release, read with JSONSerialization, to count their records.
struct Dumps {
    let files: [(name: String, value: Any)]

    init(_ directory: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
        files = try names.sorted().map { name in
            (name, try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))))
        }
    }

    /// The distinct records of a kind, by `id`.
    func count(_ kind: InferCorpusTests.Kind) -> Int {
        var ids: Set<String> = []
        if let keyedUnder = kind.keyedUnder {
            for (name, value) in files where kind.files.contains(name) {
                ids.formUnion(((value as? [String: Any])?[keyedUnder] as? [String: Any] ?? [:]).keys)
            }
            return ids.count
        }
        if let type = kind.type {
            // The resources of the type, and those that only a relationship's linkage names.
            for (_, value) in files {
                for object in Dumps.resources(value) {
                    let linked = (object["relationships"] as? [String: Any] ?? [:]).values.flatMap { relationship in
                        Dumps.objects((relationship as? [String: Any])?["data"])
                    }
                    for resource in [object] + linked where resource["type"] as? String == type {
                        if let id = resource["id"] { ids.insert("\(id)") }
                    }
                }
            }
            return ids.count
        }
        func add(_ value: Any?) {
            for object in Dumps.objects(value) { if let id = object["id"] { ids.insert("\(id)") } }
        }
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, member) in object {
                    if kind.keys.contains(key) { add(member) }
                    walk(member)
                }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        for (name, value) in files {
            if kind.files.contains(where: { name.hasPrefix($0) }) { add(Dumps.page(value)) }
            walk(value)
        }
        return ids.count
    }

    /// A file's records: its array, a search's `items`, a Stripe list's `data`, a HAL list's one
    /// array under `_embedded`, or the object.
    static func page(_ value: Any) -> Any {
        guard let object = value as? [String: Any] else { return value }
        let embedded = object["_embedded"] as? [String: Any]
        let hal = embedded?.count == 1 ? embedded?.values.first : nil
        return object["items"] ?? (object["object"] as? String == "list" ? object["data"] : nil) ?? hal ?? object
    }

    /// A JSON:API document's resource objects: its `data` (one or an array) and its `included`.
    static func resources(_ value: Any) -> [[String: Any]] {
        guard let document = value as? [String: Any] else { return [] }
        return objects(document["data"]) + objects(document["included"])
    }

    /// The objects a value holds as records: itself, an array's objects, a Stripe list's `data`.
    static func objects(_ value: Any?) -> [[String: Any]] {
        if let object = value as? [String: Any] {
            return object["object"] as? String == "list" ? objects(object["data"]) : [object]
        }
        return (value as? [Any])?.compactMap { $0 as? [String: Any] } ?? []
    }
}
