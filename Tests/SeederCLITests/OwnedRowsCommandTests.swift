import Foundation
import GRDB
import SeederTestSupport
import Testing

/// Rows that belong to their owner, keyed by a to-one in the identity (docs/mapping.md, Merging
/// (Identity)), through the binary: PokeAPI's numbered type slots nested under their pokemon,
/// an order's lines by key path, chains and references to such rows, the errors, and a second
/// release's diff and changeset.
struct OwnedRowsCommandTests {
    /// PokeAPI's pokemon records as `/api/v2/pokemon/{name}/` sends them, cut to the keys the
    /// mapping reads; bulbasaur again, as a second page would repeat it.
    static let pokemon = """
        [
          {"name": "bulbasaur", "height": 7, "types": [
            {"slot": 1, "type": {"name": "grass", "url": "https://pokeapi.co/api/v2/type/12/"}},
            {"slot": 2, "type": {"name": "poison", "url": "https://pokeapi.co/api/v2/type/4/"}}]},
          {"name": "charmander", "height": 6, "types": [
            {"slot": 1, "type": {"name": "fire", "url": "https://pokeapi.co/api/v2/type/10/"}}]},
          {"name": "bulbasaur", "types": [{"slot": 1, "type": {"name": "grass", "url": "https://pokeapi.co/api/v2/type/12/"}}]}
        ]
        """

    static let pokemonMapping = """
        seeder: 1
        entities:
          Pokemon:
            identity: name
            attributes:
              name: string
              height: integer
            relationships:
              types: { to: PokemonType, many: true, inverse: pokemon }
          PokemonType:
            identity: [pokemon, slot]
            attributes:
              slot: integer
            relationships:
              pokemon: { to: Pokemon }
              type: { to: Type }
          Type:
            identity: name
            attributes:
              name: string
              url: string
        sources:
          - path: pokemon.json
            entity: Pokemon

        """

    private func built(_ mapping: String, _ dumps: [String: String], output: String = "seed.sqlite") async throws -> (Workspace, Run) {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("mapping.yaml", mapping)
        for (name, text) in dumps { try scratch.write("dumps/" + name, text) }
        let run = try await seeder(["build", "mapping.yaml", "dumps", "-o", output, "--quiet"], in: scratch.root)
        return (scratch, run)
    }

    private func rows(_ sql: String, in path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in try Row.fetchAll(db, sql: sql).map(\.description) }
    }

    @Test func pokeAPISlotsNestedUnderTheirPokemonAreKeyedByIt() async throws {
        let (scratch, run) = try await built(Self.pokemonMapping, ["pokemon.json": Self.pokemon])
        #expect(run.status == 0, "\(run.stderr)")
        let seed = scratch.path("seed.sqlite")
        // The same slot under the same pokemon merged; slot 1 under two pokemon is two rows.
        #expect(
            try rows("SELECT * FROM pokemon_type ORDER BY pokemon_id, slot", in: seed) == [
                "[slot:1 pokemon_id:\"bulbasaur\" type_id:\"grass\"]", "[slot:2 pokemon_id:\"bulbasaur\" type_id:\"poison\"]",
                "[slot:1 pokemon_id:\"charmander\" type_id:\"fire\"]",
            ])
        // The primary key: the to-one's column, then the attribute, in the identity's order.
        #expect(
            try rows("SELECT name, \"notnull\", pk FROM pragma_table_info('pokemon_type') ORDER BY cid", in: seed) == [
                "[name:\"slot\" notnull:1 pk:2]", "[name:\"pokemon_id\" notnull:1 pk:1]", "[name:\"type_id\" notnull:0 pk:0]",
            ])
        #expect(try rows("SELECT count(*) AS n FROM pragma_table_info('pokemon_type') WHERE name = '_pk'", in: seed) == ["[n:0]"])
    }

    static let ordersMapping = """
        seeder: 1
        entities:
          Order:
            attributes: { id: integer, customer: string }
          Line:
            identity: [order, position]
            attributes:
              position: integer
              sku: string
            relationships:
              order: { to: Order }
              notes: { to: LineNote, many: true, inverse: line }
          LineNote:
            identity: [line, n]
            attributes: { n: integer, text: string }
            relationships:
              line: { to: Line }
          Refund:
            attributes: { id: integer }
            relationships:
              line: { to: Line }
        sources:
          - path: orders.json
            entity: Order
          - path: lines.json
            entity: Line
          - path: refunds.json
            entity: Refund

        """

    /// The owner by key path (an id, the `_id` convention, an embedded object), a chain (a note
    /// keyed by its line, itself keyed by its order), and references to lines by their composite
    /// key (an array, an object).
    @Test func linesKeyedByTheirOrderThroughKeyPathsChainsAndReferences() async throws {
        let (scratch, run) = try await built(
            Self.ordersMapping,
            [
                "orders.json": #"[{"id": 1, "customer": "ada"}]"#,
                "lines.json": """
                [{"order": 1, "position": 1, "sku": "A", "notes": [{"n": 1, "text": "gift"}]},
                 {"order_id": 1, "position": 2, "sku": "B"},
                 {"order": {"id": 2, "customer": "bob"}, "position": 1, "sku": "C"},
                 {"order": 1, "position": 1, "sku": "A"}]
                """,
                "refunds.json": #"[{"id": 9, "line": [1, 2]}, {"id": 10, "line": {"order": 2, "position": 1}}]"#,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        let seed = scratch.path("seed.sqlite")
        #expect(
            try rows("SELECT * FROM line ORDER BY order_id, position", in: seed) == [
                "[position:1 sku:\"A\" order_id:1]", "[position:2 sku:\"B\" order_id:1]", "[position:1 sku:\"C\" order_id:2]",
            ])
        #expect(try rows("SELECT * FROM line_note", in: seed) == ["[n:1 text:\"gift\" line_order_id:1 line_position:1]"])
        #expect(
            try rows("SELECT name, pk FROM pragma_table_info('line_note') WHERE pk > 0 ORDER BY pk", in: seed) == [
                "[name:\"line_order_id\" pk:1]", "[name:\"line_position\" pk:2]", "[name:\"n\" pk:3]",
            ])
        #expect(
            try rows("SELECT * FROM refund ORDER BY id", in: seed) == [
                "[id:9 line_order_id:1 line_position:2]", "[id:10 line_order_id:2 line_position:1]",
            ])
        #expect(
            try rows("SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list('refund') ORDER BY seq", in: seed) == [
                "[table:\"line\" from:\"line_order_id\" to:\"order_id\"]", "[table:\"line\" from:\"line_position\" to:\"position\"]",
            ])
    }

    @Test func anIdentityToOneMissingInAnOccurrenceIsAnErrorAtTheRecord() async throws {
        let (_, run) = try await built(
            Self.ordersMapping,
            [
                "orders.json": #"[{"id": 1, "customer": "ada"}]"#,
                "lines.json": #"[{"position": 3, "sku": "Z"}, {"order": null, "position": 4}, {"order": 1, "position": 5}]"#,
                "refunds.json": "[]",
            ])
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix(
                """
                dumps/lines.json:1:2: error: Line: identity relationship 'order' is not set: give its key in the record, or nest the record under Order through a to-many with 'inverse: order'  [/0]
                dumps/lines.json:1:31: error: Line: identity relationship 'order' is null  [/1]

                """), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("build failed: 2 errors, 1 warning; nothing was written\n"), "\(run.stderr)")
    }

    /// A record nested under one owner that names another as its own.
    @Test func aNestedRecordNamingAnotherOwnerIsAnError() async throws {
        let (_, run) = try await built(
            Self.pokemonMapping,
            ["pokemon.json": #"[{"name": "bulbasaur", "types": [{"slot": 1, "pokemon": "ivysaur", "type": "grass"}]}]"#])
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix(
                "dumps/pokemon.json:1:34: error: PokemonType: identity relationship 'pokemon' is Pokemon ivysaur, "
                    + "but the record is nested under Pokemon bulbasaur  [/0/types/0]\n"), "\(run.stderr)")
    }

    /// A mapping error: the pokemon mapping with some lines replaced, and the first message.
    struct MappingError: CustomTestStringConvertible, Sendable {
        var name: String
        var replacements: [(String, String)]
        var message: String
        var testDescription: String { name }
    }

    static let slotIdentity = "identity: [pokemon, slot]"
    static let typeLine = "      type: { to: Type }"
    static let typesLine = "      types: { to: PokemonType, many: true, inverse: pokemon }"

    static let mappingErrors: [MappingError] = [
        MappingError(
            name: "a to-many",
            replacements: [
                (typeLine, typeLine + "\n      forms: { to: Type, many: true }"), (slotIdentity, "identity: [pokemon, forms, slot]"),
            ],
            message: "mapping.yaml:11:25: error: identity names 'forms', a to-many; only a to-one can stand in an identity, "
                + "for the one key it stores"),
        MappingError(
            name: "a target with identity: none",
            replacements: [
                (slotIdentity, "identity: [pokemon, type, slot]"), ("  Type:\n    identity: name", "  Type:\n    identity: none"),
            ],
            message: "mapping.yaml:11:25: error: identity names 'type', but its target Type has 'identity: none': "
                + "it has no key to stand for"),
        MappingError(
            name: "a selector",
            replacements: [
                (typeLine, "      type: { to: { by: kind, cases: { a: Type, b: Pokemon } } }"),
                (slotIdentity, "identity: [pokemon, type, slot]"),
            ],
            message: "mapping.yaml:11:25: error: identity names 'type', a relationship to a selector; its key holds the chosen "
                + "entity's name beside the id, which an identity cannot stand on: name a to-one to one entity"),
        MappingError(
            name: "a typo",
            replacements: [(slotIdentity, "identity: [pokemn, slot]")],
            message: "mapping.yaml:11:16: error: identity attribute 'pokemn' is not declared in 'PokemonType.attributes' or "
                + "'PokemonType.relationships' (did you mean 'pokemon'?)"),
        MappingError(
            name: "a cycle",
            replacements: [
                (
                    "identity: name\n    attributes:\n      name: string\n      height",
                    "identity: [best, name]\n    attributes:\n      name: string\n      height"
                ),
                (typesLine, typesLine + "\n      best: { to: PokemonType }"),
            ],
            message: "mapping.yaml:4:15: error: the identity of 'Pokemon' names itself through its to-ones; an owner's key must "
                + "not depend on its own rows"),
        MappingError(
            name: "onMissing: create",
            replacements: [(typesLine, typesLine + "\n      first: { to: PokemonType, onMissing: create }")],
            message: "mapping.yaml:10:7: error: 'Pokemon.first' has 'onMissing: create', but PokemonType's identity names a to-one: "
                + "a row made from a reference would belong to no owner's row; use 'error' or 'null'"),
        // The issue's workaround: the owner's key copied into the to-one's column.
        MappingError(
            name: "an attribute in the to-one's column",
            replacements: [
                (
                    slotIdentity + "\n    attributes:",
                    "identity: [owner, slot]\n    attributes:\n      owner: { type: string, column: pokemon_id }"
                )
            ],
            message: "mapping.yaml:16:7: error: relationship 'pokemon' and attribute 'owner' both become column 'pokemon_id' of "
                + "table 'pokemon_type'; to key the rows by relationship 'pokemon', name it in 'identity' instead of an attribute "
                + "holding its key"),
    ]

    @Test(arguments: mappingErrors)
    func identityNamesOnlyToOnesToEntitiesWithAKey(_ error: MappingError) async throws {
        var mapping = Self.pokemonMapping
        for (old, new) in error.replacements {
            #expect(mapping.contains(old))
            mapping = mapping.replacingOccurrences(of: old, with: new)
        }
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("mapping.yaml", mapping)
        try scratch.write("dumps/pokemon.json", "[]")
        let run = try await seeder(["validate", "mapping.yaml", "dumps"], in: scratch.root)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix(error.message + "\n"), "\(run.stderr)")
    }

    /// A second release where one slot's type changed: one changed row, keyed by its owner and
    /// slot; the same release again: an empty diff; its changeset patches the first into it.
    @Test func aSecondReleaseDiffsByOwnerAndSlot() async throws {
        let (scratch, first) = try await built(Self.pokemonMapping, ["pokemon.json": Self.pokemon], output: "v1.sqlite")
        #expect(first.status == 0, "\(first.stderr)")
        try scratch.write(
            "dumps/pokemon.json",
            Self.pokemon.replacingOccurrences(
                of: #"{"name": "poison", "url": "https://pokeapi.co/api/v2/type/4/"}"#,
                with: #"{"name": "flying", "url": "https://pokeapi.co/api/v2/type/3/"}"#))
        let second = try await seeder(["build", "mapping.yaml", "dumps", "-o", "v2.sqlite", "--quiet"], in: scratch.root)
        #expect(second.status == 0, "\(second.stderr)")
        let diff = try await seeder(
            ["diff", "v1.sqlite", "v2.sqlite", "--entity", "PokemonType"], in: scratch.root)
        #expect(diff.status == 1)
        #expect(
            diff.stdout.contains(
                """
                entity       added  removed  changed  unchanged
                PokemonType      0        0        1          2

                PokemonType: 1 changed
                  ~ PokemonType (bulbasaur, 2)
                      type_id: "poison" -> "flying"
                """), "\(diff.stdout)")
        let again = try await seeder(["build", "mapping.yaml", "dumps", "-o", "v2-again.sqlite", "--quiet"], in: scratch.root)
        #expect(again.status == 0)
        let same = try await seeder(["diff", "v2.sqlite", "v2-again.sqlite"], in: scratch.root)
        #expect(same.status == 0, "\(same.stdout)")
        #expect(same.stdout.hasSuffix("the seeds hold the same records\n"), "\(same.stdout)")
        let all = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "all.changeset"], in: scratch.root)
        #expect(all.status == 1)
        let patch = try await seeder(["patch", "v1.sqlite", "all.changeset", "-o", "patched.sqlite"], in: scratch.root)
        #expect(patch.status == 0, "\(patch.stderr)")
        #expect(patch.stderr == "wrote patched.sqlite: all.changeset: 5 changes applied, no conflicts\n")
        let patched = try await seeder(["diff", "patched.sqlite", "v2.sqlite"], in: scratch.root)
        #expect(patched.stdout.hasSuffix("the seeds hold the same records\n"), "\(patched.stdout)")
    }

    /// Records nested through a to-many to a selector take their owner's key as records nested
    /// through one to an entity do: each case's inverse is the to-one of its identity.
    @Test func recordsNestedThroughASelectorAreKeyedByTheirOwner() async throws {
        let (scratch, run) = try await built(
            """
            seeder: 1
            entities:
              Feed:
                attributes: { id: integer }
                relationships:
                  items: { to: { by: type, cases: { photo: Photo, video: Video } }, many: true, inverse: feed }
              Photo:
                identity: [feed, slot]
                attributes: { slot: integer, url: string }
                relationships: { feed: { to: Feed } }
              Video:
                identity: [feed, slot]
                attributes: { slot: integer, length: integer }
                relationships: { feed: { to: Feed } }
            sources:
              - path: feeds.json
                entity: Feed
            """,
            [
                "feeds.json": """
                [{"id": 1, "items": [{"type": "photo", "slot": 1, "url": "a"}, {"type": "video", "slot": 2, "length": 5}]},
                 {"id": 2, "items": [{"type": "photo", "slot": 1, "url": "b"}]}]
                """
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try rows("SELECT feed_id, slot, url FROM photo ORDER BY feed_id", in: scratch.path("seed.sqlite"))
                == [#"[feed_id:1 slot:1 url:"a"]"#, #"[feed_id:2 slot:1 url:"b"]"#])
        #expect(try rows("SELECT feed_id, slot, length FROM video", in: scratch.path("seed.sqlite")) == ["[feed_id:1 slot:2 length:5]"])
        #expect(
            try rows("SELECT name FROM pragma_table_info('photo') WHERE pk > 0 ORDER BY pk", in: scratch.path("seed.sqlite"))
                == [#"[name:"feed_id"]"#, #"[name:"slot"]"#])
    }

    /// The same rows in an app's own schema (a GRDB migrator's) whose tables are keyed by row
    /// numbers: the owner's key stored is the pokemon's `id`, not its name, and a second release
    /// that puts a pokemon first (every row number after it moves) still diffs by owner and slot,
    /// and patches to the new seed.
    @Test func anAppSchemaOfRowNumbersKeepsTheOwnersIdentity() async throws {
        let scratch = try Workspace(directories: ["dumps"])
        try await DatabaseQueue(path: scratch.path("app.sqlite")).write { db in
            try db.execute(
                sql: """
                    CREATE TABLE pokemon (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, height INTEGER);
                    CREATE TABLE type (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, url TEXT);
                    CREATE TABLE pokemon_type (id INTEGER PRIMARY KEY AUTOINCREMENT, pokemon_id INTEGER NOT NULL REFERENCES pokemon(id),
                                               slot INTEGER NOT NULL, type_id INTEGER REFERENCES type(id), UNIQUE (pokemon_id, slot));
                    """)
        }
        try scratch.write(
            "mapping.yaml",
            Self.pokemonMapping.replacingOccurrences(of: "seeder: 1\n", with: "seeder: 1\nschema: { template: app.sqlite }\n"))
        try scratch.write("dumps/pokemon.json", Self.pokemon)
        let first = try await seeder(["build", "mapping.yaml", "dumps", "-o", "v1.sqlite", "--quiet"], in: scratch.root)
        #expect(first.status == 0 && first.stderr == "", "\(first.stderr)")
        #expect(
            try rows(
                "SELECT p.name, t.slot, y.name FROM pokemon_type t JOIN pokemon p ON p.id = t.pokemon_id JOIN type y ON y.id = t.type_id ORDER BY t.id",
                in: scratch.path("v1.sqlite"))
                == [
                    #"[name:"bulbasaur" slot:1 name:"grass"]"#, #"[name:"bulbasaur" slot:2 name:"poison"]"#,
                    #"[name:"charmander" slot:1 name:"fire"]"#,
                ])

        try scratch.write(
            "dumps/pokemon.json",
            Self.pokemon.replacingOccurrences(
                of: "[\n  {\"name\": \"bulbasaur\"",
                with:
                    "[\n  {\"name\": \"aardvark\", \"height\": 3, \"types\": [{\"slot\": 1, \"type\": {\"name\": \"grass\", \"url\": \"https://pokeapi.co/api/v2/type/12/\"}}]},\n  {\"name\": \"bulbasaur\""
            ).replacingOccurrences(
                of: #"{"name": "poison", "url": "https://pokeapi.co/api/v2/type/4/"}"#,
                with: #"{"name": "fire", "url": "https://pokeapi.co/api/v2/type/10/"}"#))
        let second = try await seeder(["build", "mapping.yaml", "dumps", "-o", "v2.sqlite", "--quiet"], in: scratch.root)
        #expect(second.status == 0, "\(second.stderr)")
        let diff = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--entity", "PokemonType"], in: scratch.root)
        #expect(diff.status == 1)
        #expect(
            diff.stdout.hasPrefix(
                """
                entity       added  removed  changed  unchanged
                PokemonType      1        0        1          2

                PokemonType: 1 added, 1 changed
                  + PokemonType (aardvark, 1): type_id "grass"
                  ~ PokemonType (bulbasaur, 2)
                      type_id: "poison" -> "fire"
                """), "\(diff.stdout)")
        let changeset = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "c.changeset"], in: scratch.root)
        #expect(changeset.status == 1, "\(changeset.stderr)")
        let patch = try await seeder(["patch", "v1.sqlite", "c.changeset", "-o", "patched.sqlite"], in: scratch.root)
        #expect(patch.status == 0, "\(patch.stderr)")
        let patched = try await seeder(["diff", "patched.sqlite", "v2.sqlite"], in: scratch.root)
        #expect(patched.stdout.hasSuffix("the seeds hold the same records\n"), "\(patched.stdout)")
    }

    /// The example of docs/mapping.md, Merging (Identity), builds as the page shows.
    @Test func theDocsExampleBuildsAsShown() async throws {
        let page = try String(contentsOfFile: repository + "/docs/mapping.md", encoding: .utf8)
        let section = try #require(page.range(of: "### A to-one in the identity")).upperBound
        func block(_ fence: String) throws -> String {
            let start = try #require(page.range(of: "```" + fence + "\n", range: section..<page.endIndex)).upperBound
            let end = try #require(page.range(of: "```", range: start..<page.endIndex)).lowerBound
            return String(page[start..<end])
        }
        let (scratch, run) = try await built(try block("yaml"), ["pokemon.json": try block("json")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try rows("SELECT slot, pokemon_id, type_id FROM pokemon_type", in: scratch.path("seed.sqlite")) == [
                "[slot:1 pokemon_id:\"bulbasaur\" type_id:\"grass\"]", "[slot:2 pokemon_id:\"bulbasaur\" type_id:\"poison\"]",
                "[slot:1 pokemon_id:\"charmander\" type_id:\"fire\"]",
            ])
        #expect(page.contains("PRIMARY KEY (\"pokemon_id\", \"slot\")"))
    }
}
