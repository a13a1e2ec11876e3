import Foundation
import GRDB
import SeederTestSupport
import Testing
import Yams

/// `seeder infer` on a service fetched one record a file, a folder a kind (`Fixtures/api/pokeapi`,
/// PokéAPI as `seeder fetch` with `each` writes it): an entity per folder, named for it;
/// `{name, url}` references are relationships to those entities; the draft builds with no
/// warning and one row per record (docs/commands.md, `seeder infer`, Rules).
@Suite struct InferServiceTests {
    static let pokeAPI = repository + "/Tests/SeederCLITests/Fixtures/api/pokeapi/release-1"

    /// The draft of `dumps`, its entities as YAML, and the seed it builds, with the build's output.
    struct Drafted {
        let workspace: Workspace
        let text: String
        let entities: [String: [String: Any]]
        let sources: [[String: Any]]
        let build: (status: Int32, stdout: String, stderr: String)

        init(_ dumps: String) async throws {
            workspace = try Workspace()
            let infer = try await seeder(["infer", dumps, "-o", workspace.path("draft.yaml")])
            try #require(infer.status == 0, "\(infer.stderr)")
            text = try String(contentsOfFile: workspace.path("draft.yaml"), encoding: .utf8)
            let yaml = try #require(try Yams.load(yaml: text) as? [String: Any])
            entities = (yaml["entities"] as? [String: Any] ?? [:]).compactMapValues { $0 as? [String: Any] }
            sources = yaml["sources"] as? [[String: Any]] ?? []
            let built = try await seeder([
                "build", workspace.path("draft.yaml"), dumps, "-o", workspace.path("seed.sqlite"), "--progress", "never",
            ])
            build = (built.status, built.stdout, built.stderr)
        }

        func relationship(_ name: String, of entity: String) -> [String: Any]? {
            (entities[entity]?["relationships"] as? [String: Any])?[name] as? [String: Any]
        }

        func attribute(_ name: String, of entity: String) -> Any? {
            (entities[entity]?["attributes"] as? [String: Any])?[name]
        }

        /// The sources' paths, by the entity each reads.
        var paths: [String: [String]] {
            Dictionary(
                grouping: sources.compactMap { source in (source["entity"] as? String).map { ($0, source["path"] as? String ?? "") } }
            ) {
                $0.0
            }.mapValues { $0.map(\.1) }
        }
    }

    @Test func pokeAPIDraftBuildsOneRowPerRecord() async throws {
        let drafted = try await Drafted(Self.pokeAPI)
        try #require(drafted.build.status == 0, "\(drafted.build.stderr)\n\(drafted.text)")
        #expect(!drafted.build.stderr.contains("warning:"), "\(drafted.build.stderr)")
        #expect(
            drafted.paths["Type"] == ["type/*.json"] && drafted.paths["Move"] == ["move/*.json"]
                && drafted.paths["Ability"] == ["ability/*.json"] && drafted.paths["Berry"] == ["berry/*.json"],
            "\(drafted.sources)")
        #expect(drafted.sources.count == 4, "\(drafted.sources)")
        let rows = try await InferCorpusTests.rows(drafted.workspace.path("seed.sqlite"))
        #expect(rows["Type"] == 8 && rows["Move"] == 8 && rows["Ability"] == 6 && rows["Berry"] == 6, "\(rows)")
    }

    @Test func referencesToAFolderAreRelationshipsToItsEntity() async throws {
        let drafted = try await Drafted(Self.pokeAPI)
        try #require(drafted.build.status == 0, "\(drafted.build.stderr)\n\(drafted.text)")
        // `"type": {"name": "normal", "url": "/api/v2/type/1/"}` of a move, of a berry under
        // `natural_gift_type`; `"moves": [{"name", "url"}]` of a type.
        #expect(drafted.relationship("type", of: "Move")?["to"] as? String == "Type", "\(drafted.text)")
        #expect(drafted.relationship("naturalGiftType", of: "Berry")?["to"] as? String == "Type", "\(drafted.text)")
        let moves = drafted.relationship("moves", of: "Type")
        #expect(moves?["to"] as? String == "Move" && moves?["many"] as? Bool == true, "\(drafted.text)")
        #expect(drafted.entities.keys.filter { $0.hasSuffix("DamageFrom") || $0.hasSuffix("GiftType") }.isEmpty, "\(drafted.text)")
        // Read from the URLs, by the id each ends in: Type keeps `id`, one row per file.
        #expect(drafted.relationship("type", of: "Move")?["from"] as? String == "type.url", "\(drafted.text)")
        #expect(drafted.relationship("type", of: "Move")?["match"] as? String == #"/(\d+)/?$"#, "\(drafted.text)")
        #expect(drafted.entities["Type"]?["identity"] == nil && drafted.attribute("url", of: "Type") == nil, "\(drafted.text)")
        #expect(!drafted.text.contains("onConflict: first                       # one identity"), "\(drafted.text)")
        // Each move links the type its file names.
        let links = try sqliteRows(
            drafted.workspace.path("seed.sqlite"),
            "SELECT m.name || '=' || t.name FROM move m JOIN type t ON t.id = m.type_id ORDER BY m.id")
        #expect(
            links == [
                "pound=normal", "karate-chop=fighting", "double-slap=normal", "comet-punch=normal", "mega-punch=normal",
                "pay-day=normal", "scratch=normal", "vice-grip=normal",
            ], "\(links)")
    }

    /// A folder of types beside their list (`type/index.json`'s `results: [{name, url}]`, records
    /// of a source): `name` repeats only between a type's file and its entry in the list.
    @Test func aRecordReferencedAndDetailedKeepsItsIdentity() async throws {
        let drafted = try await Drafted(repository + "/Tests/SeederCLITests/Fixtures/pokeapi/release-1")
        try #require(drafted.build.status == 0, "\(drafted.build.stderr)\n\(drafted.text)")
        #expect(drafted.entities["Type"]?["identity"] as? String == "name", "\(drafted.text)")
        #expect(drafted.text.contains("3 records both detailed and referenced (other keys, same 'name'): they merge"), "\(drafted.text)")
        let rows = try sqliteRows(drafted.workspace.path("seed.sqlite"), "SELECT name || ' ' || id FROM type ORDER BY id")
        #expect(rows.count == 3, "\(rows)")
    }

    /// An ability's `flavor_text_entries`, one per `version_group`, are keyed by it within the
    /// ability (rule `owned-identity`), and a move's are an entity of their own: an entry added
    /// upstream is one row added, where `identity: none` renumbered every row after it. Of two
    /// keys unique within each owner, the one of fewer values is the key.
    @Test func childListsAreKeyedWithinTheirOwner() async throws {
        let drafted = try await Drafted(Self.pokeAPI)
        try #require(drafted.build.status == 0, "\(drafted.build.stderr)\n\(drafted.text)")
        #expect(!drafted.build.stderr.contains("warning:"), "\(drafted.build.stderr)")
        #expect(drafted.entities["AbilityFlavorTextEntry"]?["identity"] as? [String] == ["ability", "versionGroup"], "\(drafted.text)")
        #expect(drafted.entities["MoveFlavorTextEntry"]?["identity"] as? [String] == ["move", "versionGroup"], "\(drafted.text)")
        #expect(drafted.entities["FlavorTextEntry"] == nil, "\(drafted.text)")
        // A move's machines are unique within it by `machine` and by `version_group`: the key of
        // fewer values wins, what the entry is about, not a machine id the service renumbers.
        #expect(drafted.entities["MachineEntry"]?["identity"] as? [String] == ["move", "versionGroup"], "\(drafted.text)")
        let entries = drafted.relationship("flavorTextEntries", of: "Ability")
        #expect(entries?["inverse"] as? String == "ability" && entries?["ordered"] == nil, "\(drafted.text)")
        let keys = try sqliteRows(
            drafted.workspace.path("seed.sqlite"),
            "SELECT name FROM pragma_table_info('ability_flavor_text_entry') WHERE pk > 0 ORDER BY pk")
        #expect(keys == ["ability_id", "version_group_id"], "\(keys)")
        #expect(try await InferCorpusTests.rows(drafted.workspace.path("seed.sqlite"))["AbilityFlavorTextEntry"] == 30)

        // The next release lists one more entry first: one row added, no other changed.
        let next = drafted.workspace.path("release-2")
        try FileManager.default.copyItem(atPath: Self.pokeAPI, toPath: next)
        let file = next + "/ability/1.json"
        var ability = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        let added: [String: Any] = [
            "flavor_text": "Its stench repels.", "language": ["name": "en", "url": "/api/v2/language/9/"],
            "version_group": ["name": "scarlet-violet", "url": "/api/v2/version-group/25/"],
        ]
        ability["flavor_text_entries"] = [added] + (ability["flavor_text_entries"] as? [Any] ?? [])
        try JSONSerialization.data(withJSONObject: ability).write(to: URL(fileURLWithPath: file))
        let built = try await seeder([
            "build", drafted.workspace.path("draft.yaml"), next, "-o", drafted.workspace.path("next.sqlite"), "--progress", "never",
        ])
        try #require(built.status == 0, "\(built.stderr)")
        let diff = try await seeder([
            "diff", drafted.workspace.path("seed.sqlite"), drafted.workspace.path("next.sqlite"), "--entity", "AbilityFlavorTextEntry",
        ])
        // The whole line: no entry removed or changed beside the one added.
        #expect(diff.stdout.contains("\nAbilityFlavorTextEntry: 1 added\n"), "\(diff.stdout)")
    }

    /// A move's `meta` has no identity and holds records (`ailment`, `category`): its values are
    /// columns of the move and its records to-ones of the move, read through it, not a table of
    /// rows numbered in file order (docs/commands.md, Nested records), which a move gaining a
    /// `meta` upstream would renumber; its `ailment` is a `MoveAilment`, the kind its URLs name.
    @Test func objectsHoldingRecordsAreColumnsAndToOnesOfTheirOwner() async throws {
        let drafted = try await Drafted(Self.pokeAPI)
        try #require(drafted.build.status == 0, "\(drafted.build.stderr)\n\(drafted.text)")
        #expect(drafted.entities["Meta"] == nil, "\(drafted.text)")
        let ailment = drafted.relationship("metaAilment", of: "Move")
        #expect(ailment?["to"] as? String == "MoveAilment" && ailment?["from"] as? String == "meta.ailment", "\(drafted.text)")
        #expect(
            (drafted.attribute("metaCritRate", of: "Move") as? [String: Any])?["from"] as? String == "meta.crit_rate", "\(drafted.text)")
        // Its keys that never held a value are said as the record's own are, by their path.
        #expect(
            drafted.text.split(separator: "\n").contains { $0.contains("'meta.max_turns'") && $0.contains("never held a value") },
            "\(drafted.text)")
        let linked = try sqliteRows(
            drafted.workspace.path("seed.sqlite"),
            "SELECT CAST(count(*) AS TEXT) FROM move JOIN move_ailment ON move_ailment.id = move.meta_ailment_id")
        #expect(linked == ["8"])
    }

    @Test func everyFromIsAKeyOfTheRecords() async throws {
        let drafted = try await Drafted(Self.pokeAPI)
        // `damage_relations` holds only arrays of references: a to-many of Type a key, each read
        // through the key as written.
        let damage = drafted.relationship("damageRelationsDoubleDamageFrom", of: "Type")
        #expect(damage?["from"] as? String == "damage_relations.double_damage_from.url", "\(drafted.text)")
        #expect(damage?["to"] as? String == "Type" && damage?["many"] as? Bool == true, "\(drafted.text)")
        #expect(!drafted.build.stderr.contains("matched no key"), "\(drafted.build.stderr)")
        #expect(!drafted.text.contains("damageRelations: "), "\(drafted.text)")
        // Every reference is a link: type 1 takes double damage from 2, ..., 8 from 8.
        let stored = try sqliteRows(
            drafted.workspace.path("seed.sqlite"),
            "SELECT group_concat(pair, ' ') FROM (SELECT type_id || '<-' || damage_relations_double_damage_from_id AS pair FROM type_damage_relations_double_damage_from ORDER BY 1)"
        )
        #expect(stored == [Self.damageFrom(in: "double_damage_from")], "\(drafted.text)")
    }

    /// References to a kind without a folder are named for the kind their URLs name, not for the
    /// key they sit under: a move's `learned_by_pokemon` (`/api/v2/pokemon/25/`) links to
    /// `Pokemon`, which a type's `pokemon` entries link to too; a move's `meta.category`
    /// (`/api/v2/move-category/0/`) is a `MoveCategory`.
    @Test func referencesAreNamedForTheKindTheirURLsName() async throws {
        let drafted = try await Drafted(Self.pokeAPI)
        try #require(drafted.build.status == 0, "\(drafted.build.stderr)")
        #expect(drafted.relationship("learnedByPokemon", of: "Move")?["to"] as? String == "Pokemon", "\(drafted.text)")
        #expect(drafted.relationship("pokemon", of: "TypePokemonEntry")?["to"] as? String == "Pokemon", "\(drafted.text)")
        #expect(drafted.relationship("metaCategory", of: "Move")?["to"] as? String == "MoveCategory", "\(drafted.text)")
        #expect(drafted.entities["LearnedByPokemon"] == nil && drafted.entities["Category"] == nil, "\(drafted.text)")
        let rows = try await InferCorpusTests.rows(drafted.workspace.path("seed.sqlite"))
        #expect(rows["Pokemon"] ?? 0 > 0, "\(rows)")
    }

    /// A move's `contest_combos` holds `normal` and `super`, each of `use_before` and `use_after`
    /// lists of other moves: to-manys of Move on the move itself, no table of combos.
    @Test func referencesInsideAnObjectAreRelationshipsOfItsRecord() async throws {
        let drafted = try await Drafted(Self.pokeAPI)
        try #require(drafted.build.status == 0, "\(drafted.build.stderr)")
        let before = drafted.relationship("contestCombosNormalUseBefore", of: "Move")
        #expect(
            before?["to"] as? String == "Move" && before?["from"] as? String == "contest_combos.normal.use_before.url", "\(drafted.text)")
        #expect(drafted.entities["ContestCombo"] == nil, "\(drafted.text)")
        let links = try sqliteRows(
            drafted.workspace.path("seed.sqlite"), "SELECT CAST(count(*) AS TEXT) FROM move_contest_combos_normal_use_before")
        #expect(links == [String(Self.references(in: "move", at: ["contest_combos", "normal", "use_before"]).count)])
    }

    /// `TYPE<-OTHER` for each reference under `damage_relations.KEY` in the fixture's types, sorted.
    static func damageFrom(in key: String) -> String {
        references(in: "type", at: ["damage_relations", key]).map { "\($0.record)<-\($0.id)" }.sorted().joined(separator: " ")
    }

    /// The references (`{name, url}`) at `path` in each record of the fixture's folder `kind`:
    /// the record's `id` and the id its URL ends in.
    static func references(in kind: String, at path: [String]) -> [(record: Int, id: Int)] {
        let folder = pokeAPI + "/" + kind
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return files.flatMap { file -> [(record: Int, id: Int)] in
            guard let data = FileManager.default.contents(atPath: folder + "/" + file),
                let record = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let id = record["id"] as? Int
            else { return [] }
            var value: Any? = record
            for key in path { value = (value as? [String: Any])?[key] }
            return (value as? [[String: Any]] ?? []).compactMap { reference in
                (reference["url"] as? String).flatMap { Int($0.split(separator: "/").last ?? "") }.map { (id, $0) }
            }
        }
    }

    /// Files named by their records (`type/bug.json`, as a fetch with `each` over names writes
    /// them) are one entity named for their folder; files at the top name their own kinds.
    @Test func filesNamedByTheirRecordsAreOneEntityOfTheFolder() async throws {
        let workspace = try Workspace()
        let names = ["1": "normal", "2": "fighting", "7": "bug"]
        for (id, name) in names {
            try workspace.write("dumps/type/\(name).json", try Data(contentsOf: URL(fileURLWithPath: Self.pokeAPI + "/type/\(id).json")))
        }
        try workspace.write("dumps/labels.json", #"[{"id": 1, "name": "bug"}]"#)
        try workspace.write("dumps/repo.json", #"{"id": 7, "full_name": "a/b"}"#)
        let drafted = try await Drafted(workspace.path("dumps"))
        #expect(drafted.build.status == 0, "\(drafted.build.stderr)")
        #expect(drafted.paths["Type"] == ["type/*.json"], "\(drafted.sources)")
        #expect(drafted.paths["Label"] == ["labels.json"] && drafted.paths["Repo"] == ["repo.json"], "\(drafted.sources)")
        #expect(drafted.entities["Bug"] == nil && drafted.entities["Normal"] == nil, "\(drafted.text)")
        let rows = try await InferCorpusTests.rows(drafted.workspace.path("seed.sqlite"))
        #expect(rows["Type"] == 3, "\(rows)")
    }

    /// Files named by their records' slugs are one group whatever the names say: digits in a
    /// slug (`mega-1.json`, `mega-2.json`, as PokéAPI's `zygarde-10` and `zygarde-50`) do not
    /// make numbered files of a kind of their own, and records laid out as folders named by
    /// slug (`kind/fire/index.json`) are the records of their parent folder.
    @Test func slugNamedFilesAreOneGroupOfTheFolder() async throws {
        let workspace = try Workspace()
        let copies = [
            "type/bug.json": "type/7", "type/mega-1.json": "type/1", "type/mega-2.json": "type/2",
            "ability/stench/index.json": "ability/1", "ability/drizzle/index.json": "ability/2",
            "ability/speed-boost/index.json": "ability/3",
        ]
        for (path, fixture) in copies {
            try workspace.write("dumps/" + path, try Data(contentsOf: URL(fileURLWithPath: Self.pokeAPI + "/\(fixture).json")))
        }
        let drafted = try await Drafted(workspace.path("dumps"))
        #expect(drafted.build.status == 0, "\(drafted.build.stderr)")
        #expect(drafted.paths["Type"] == ["type/*.json"] && drafted.paths["Ability"] == ["ability/*/index.json"], "\(drafted.sources)")
        for name in ["Mega", "Bug", "Stench", "Drizzle", "SpeedBoost"] {
            #expect(drafted.entities[name] == nil, "\(name): \(drafted.text)")
        }
        let rows = try await InferCorpusTests.rows(drafted.workspace.path("seed.sqlite"))
        #expect(rows["Type"] == 3 && rows["Ability"] == 3, "\(rows)")
    }

    /// A fetch's manifest says which files each source wrote: they are one source and one
    /// entity, though their records' keys differ too much for the folder rule; a manifest that
    /// is not one (not JSON, another shape, a link, paths outside) changes nothing.
    @Test func filesOfOneFetchedSourceAreOneEntity() async throws {
        let workspace = try Workspace()
        try workspace.write("dumps/things/a.json", #"{"id": 1, "name": "a", "weight": 3}"#)
        try workspace.write("dumps/things/b.json", #"{"id": 2, "colour": "red", "size": 4}"#)
        try workspace.write("dumps/things/c.json", #"{"id": 3, "height": 7, "size": 5}"#)
        let entry = #"{"source": "things/*.json", "url": "https://api.example/things/x", "sha256": "00", "size": 1}"#
        let manifest =
            #"{"format": 1, "files": {"things/a.json": \#(entry), "things/b.json": \#(entry), "things/c.json": \#(entry), "../../etc/passwd": \#(entry)}}"#
        try workspace.write("dumps/.seeder-fetch.json", manifest)
        let drafted = try await Drafted(workspace.path("dumps"))
        #expect(drafted.build.status == 0, "\(drafted.build.stderr)")
        #expect(drafted.paths == ["Thing": ["things/*.json"]], "\(drafted.sources)")
        await #expect(try InferCorpusTests.rows(drafted.workspace.path("seed.sqlite")) == ["Thing": 3])

        // Without a manifest it can read, the three files are three kinds, named by their files.
        for broken in ["not json", #"{"files": 3}"#, #"{"files": {"things/a.json": {"source": 7}}}"#] {
            try workspace.write("dumps/.seeder-fetch.json", broken)
            let fallback = try await Drafted(workspace.path("dumps"))
            #expect(fallback.build.status == 0, "\(fallback.build.stderr)")
            #expect(fallback.paths.keys.sorted() == ["A", "B", "C"], "\(broken): \(fallback.sources)")
        }
        try FileManager.default.removeItem(atPath: workspace.path("dumps/.seeder-fetch.json"))
        try workspace.write("elsewhere.json", manifest)
        try FileManager.default.createSymbolicLink(
            atPath: workspace.path("dumps/.seeder-fetch.json"), withDestinationPath: workspace.path("elsewhere.json"))
        #expect(try await Drafted(workspace.path("dumps")).paths.keys.sorted() == ["A", "B", "C"])
    }

    /// PokéAPI's api-data: a folder a record (`type/18/index.json`) beside the list
    /// (`type/index.json`, `results: [{name, url}]`): one entity, both its sources.
    @Test func folderOfRecordsIsOneEntityNamedForIt() async throws {
        let drafted = try await Drafted(repository + "/Tests/SeederCLITests/Fixtures/pokeapi/release-1")
        try #require(drafted.build.status == 0, "\(drafted.build.stderr)\n\(drafted.text)")
        #expect(drafted.paths["Type"] == ["type/*/index.json", "type/index.json"], "\(drafted.sources)")
        #expect(drafted.entities["Index"] == nil, "\(drafted.text)")
        let rows = try await InferCorpusTests.rows(drafted.workspace.path("seed.sqlite"))
        #expect(rows["Type"] == 3, "\(rows)")
    }
}

/// The first column of each row `sql` selects, as text.
func sqliteRows(_ seed: String, _ sql: String) throws -> [String] {
    try DatabaseQueue(path: seed).read { db in try String.fetchAll(db, sql: sql) }
}
