import Foundation
import Testing

@testable import SeederCore

/// Loads a mapping and returns it with every diagnostic as its printed line.
func loadMapping(_ yaml: String) -> (Mapping?, [String]) {
    let sink = DiagnosticSink()
    let mapping = MappingLoader().load(yaml: yaml, file: "mapping.yaml", diagnostics: sink)
    return (mapping, sink.diagnostics.map(\.description))
}

/// The mapping loader: every problem of docs/mapping.md, each with its exact message and location.
struct MappingLoaderTests {
    static let tasklist = """
        seeder: 1
        output: tasklist.sqlite
        schemaVersion: 3

        entities:
          User:
            identity: id
            attributes:
              id: integer
              name: { type: string, required: true }
              email: string

          Project:
            attributes:
              id: integer
              name: string
              description: string
              taskCount: { type: integer, from: "tasks.@count" }
            relationships:
              user: { to: User }
              tasks: { to: Task, many: true, inverse: project }

          Task:
            attributes:
              id: integer
              name: string
            relationships:
              project: { to: Project }
              assignedUser: { to: User, from: assigned_user_id }

        sources:
          - path: users.json
            entity: User
          - path: task_list.json
            entity: Project
            keyPath: project
        """

    @Test func loadsTheSpecExample() throws {
        let (mapping, diagnostics) = loadMapping(Self.tasklist)
        #expect(diagnostics == [])
        let loaded = try #require(mapping)
        #expect(loaded.output == "tasklist.sqlite")
        #expect(loaded.schemaVersion == 3)
        #expect(loaded.entities.map(\.table) == ["user", "project", "task"])
        let project = loaded.entities[1]
        #expect(project.identity == .attributes([0]))
        #expect(project.attributes.map(\.column) == ["id", "name", "description", "task_count"])
        #expect(project.attributes[3].keyPath?.description == "tasks.@count")
        #expect(project.relationships[0].storage == .foreignKey(columns: ["user_id"]))
        #expect(project.relationships[1].storage == .inverse(positionColumn: nil))
        #expect(project.relationships[1].inverse == 0)
        let task = loaded.entities[2]
        #expect(task.relationships[1].storage == .foreignKey(columns: ["assigned_user_id"]))
        #expect(task.relationships[1].keyPath == KeyPath(literal: ["assigned_user_id"]))
        #expect(loaded.entities[0].attributes[0].isRequired)
        #expect(loaded.sources?.map(\.path) == ["users.json", "task_list.json"])
        #expect(loaded.sources?.map(\.keyPath) == [[], ["project"]])
        #expect(loaded.sources?.map(\.entity) == [0, 1])
    }

    @Test func namesJoinTablesAndCompositeKeysAsTheSpecSays() throws {
        let (mapping, diagnostics) = loadMapping(
            """
            seeder: 1
            entities:
              Product:
                attributes: { id: integer }
              ProductReview:
                attributes: { id: integer, bodyText: string }
                relationships:
                  products: { to: Product, many: true, ordered: true }
              User:
                attributes: { id: integer }
                relationships:
                  friends: { to: User, many: true }
                  favouriteCard: { to: Card }
              Card:
                identity: [suit, value]
                attributes: { suit: string, value: integer }
              Child:
                attributes: { id: integer }
                relationships:
                  parent: { to: Parent }
              Parent:
                attributes: { id: integer }
                relationships:
                  children: { to: Child, many: true, inverse: parent, ordered: true }
            """)
        #expect(diagnostics == [])
        let entities = try #require(mapping).entities
        #expect(entities[1].table == "product_review")
        #expect(entities[1].attributes[1].column == "body_text")
        #expect(
            entities[1].relationships[0].storage
                == .joinTable(
                    JoinTable(
                        name: "product_review_products", ownerColumns: ["product_review_id"], targetColumns: ["product_id"],
                        positionColumn: "position")))
        #expect(
            entities[2].relationships[0].storage
                == .joinTable(
                    JoinTable(
                        name: "user_friends", ownerColumns: ["user_id"], targetColumns: ["friend_id"], positionColumn: nil)))
        #expect(entities[2].relationships[1].storage == .foreignKey(columns: ["favourite_card_suit", "favourite_card_value"]))
        #expect(entities[3].primaryKeyColumns == ["suit", "value"])
        #expect(entities[5].relationships[0].storage == .inverse(positionColumn: "parent_position"))
    }

    @Test func keepsNamesAsWrittenWhenAsked() throws {
        let (mapping, diagnostics) = loadMapping(
            """
            seeder: 1
            naming: { database: as_is }
            entities:
              ArticleComment:
                attributes: { id: integer, bodyText: string }
                relationships:
                  assignedUser: { to: User }
                  tags: { to: Tag, many: true }
              User:
                attributes: { id: integer }
              Tag:
                identity: name
                attributes: { name: string }
            """)
        #expect(diagnostics == [])
        let entity = try #require(mapping).entities[0]
        #expect(entity.table == "ArticleComment")
        #expect(entity.attributes.map(\.column) == ["id", "bodyText"])
        #expect(entity.relationships[0].storage == .foreignKey(columns: ["assignedUserId"]))
        #expect(
            entity.relationships[1].storage
                == .joinTable(
                    JoinTable(
                        name: "ArticleComment_tags", ownerColumns: ["articleCommentId"], targetColumns: ["tagId"], positionColumn: nil)))
    }

    @Test func readsEveryAttributeOption() throws {
        let (mapping, diagnostics) = loadMapping(
            """
            seeder: 1
            dates: unixepoch_ms
            timeZone: America/New_York
            onConflict: last
            nulls: absent
            entities:
              Event:
                table: events
                onConflict: first
                attributes:
                  id: uuid
                  status: { type: string, values: [open, closed], default: open, index: true }
                  code: { type: integer, unique: true, column: event_code }
                  at: { type: date, format: "yyyy-MM-dd HH:mm:ss Z", timeZone: Europe/Paris, storage: iso8601 }
                  day: { type: date, format: unix }
                  image: { type: url, from: [image, "full.url"], required: yes }
                  extra: { type: json, default: { a: [1, true, null] } }
            """)
        #expect(diagnostics == [])
        let loaded = try #require(mapping)
        let event = loaded.entities[0]
        #expect(event.table == "events")
        #expect(event.onConflict == .first)
        #expect(event.nulls == .absent)
        #expect(event.identity == .attributes([0]))
        let status = event.attributes[1]
        #expect(status.allowedValues == [.text("open"), .text("closed")])
        #expect(status.defaultValue == .text("open"))
        #expect(status.isIndexed)
        #expect(event.attributes[2].isUnique && event.attributes[2].column == "event_code")
        #expect(event.attributes[3].dateFormat == .pattern("yyyy-MM-dd HH:mm:ss Z"))
        #expect(event.attributes[3].timeZone.identifier == "Europe/Paris")
        #expect(event.attributes[3].dateStorage == .iso8601)
        #expect(event.attributes[4].dateFormat == .unix)
        #expect(event.attributes[4].timeZone.identifier == "America/New_York")
        #expect(event.attributes[4].dateStorage == .unixepochMilliseconds)
        #expect(event.attributes[5].keyPath == KeyPath(literal: ["image", "full.url"]) && event.attributes[5].isRequired)
        #expect(event.attributes[6].defaultValue == .text(#"{"a":[1,true,null]}"#))
    }

    /// `onMissing` on a relationship beats its entity's, which beats the document's.
    @Test func takesOnMissingFromTheRelationshipThenItsEntityThenTheDocument() throws {
        let yaml = """
            seeder: 1
            onMissing: create
            entities:
              Post:
                onMissing: "null"
                attributes: { id: integer }
                relationships:
                  tags: { to: Tag, many: true }
                  author: { to: Author, onMissing: error }
              Comment:
                attributes: { id: integer }
                relationships:
                  tags: { to: Tag, many: true }
                  author: { to: Author, onMissing: "null" }
              Tag:
                attributes: { id: integer }
              Author:
                attributes: { id: integer }
            """
        let (mapping, diagnostics) = loadMapping(yaml)
        #expect(diagnostics == [])
        let policies = try #require(mapping).entities.map { $0.relationships.map(\.onMissing) }
        #expect(policies == [[.null, .error], [.create, .null], [], []])
        let (plain, _) = loadMapping(yaml.replacingOccurrences(of: "onMissing: create\n", with: ""))
        #expect(try #require(plain).entities[1].relationships.map(\.onMissing) == [.error, .null])
        let (_, typos) = loadMapping(yaml.replacingOccurrences(of: "onMissing: create", with: "onMissing: creat"))
        #expect(
            typos == [
                "mapping.yaml:2:12: error: unknown value 'creat' for 'onMissing' (did you mean 'create'?); expected error, null or create"
            ])
    }

    @Test func reportsEveryProblemInOneRun() {
        let (_, diagnostics) = loadMapping(
            """
            seeder: 1
            entites: {}
            entities:
              User:
                attributes: { id: integr, name: { type: string, requried: true } }
                relationships:
                  team: { to: Tem }
            """)
        #expect(
            diagnostics == [
                "mapping.yaml:2:1: error: unknown key 'entites' in the mapping file; did you mean 'entities'?",
                "mapping.yaml:5:23: error: unknown type 'integr' for 'id' (did you mean 'integer'?); expected integer, real, decimal, boolean, string, date, url, uuid, data or json",
                "mapping.yaml:5:53: error: unknown key 'requried' in attribute 'User.name'; did you mean 'required'?",
                "mapping.yaml:7:19: error: unknown entity 'Tem' in 'to'",
            ])
    }

    @Test func tellsDatePatternsFromTypos() {
        #expect(LoadContext.isDatePattern("yyyy-MM-dd HH:mm:ss Z"))
        #expect(LoadContext.isDatePattern("MM/dd/yyyy"))
        #expect(LoadContext.isDatePattern("yyyy-MM-dd'T'HH:mm:ssXXX"))
        #expect(!LoadContext.isDatePattern("soon"))
        #expect(!LoadContext.isDatePattern("iso8061"))
        #expect(!LoadContext.isDatePattern("'quoted only'"))
    }

    @Test func refusesAnAliasBombWithoutExpandingIt() {
        var yaml = "seeder: 1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1..<12 {
            yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        let (mapping, diagnostics) = loadMapping(yaml)
        #expect(mapping == nil)
        #expect(diagnostics == ["mapping.yaml:2:5: error: anchors and aliases are not allowed in a mapping (found '&a0')"])
    }

    /// The bytes of a mapping file that is not UTF-8: the first byte that is not is located, in
    /// scalars as libyaml counts columns.
    @Test func locatesTheFirstByteThatIsNotUTF8() {
        let bytes = Array("seeder: 1\nentities:\n  Usé:\n    attributes: { é: integer }".utf8)
        for (offset, expected) in [(24, "3:5"), (44, "4:17"), (48, "4:20"), (0, "1:1")] {
            var broken = bytes
            broken.insert(0xC3, at: offset)  // a lead byte with no continuation after it
            let sink = DiagnosticSink()
            #expect(MappingLoader().load(bytes: broken, file: "m.yaml", diagnostics: sink) == nil)
            #expect(sink.diagnostics.map(\.description) == ["m.yaml:\(expected): error: the mapping file is not UTF-8 text (byte 0xC3)"])
        }
        let sink = DiagnosticSink()
        #expect(MappingLoader().load(bytes: bytes, file: "m.yaml", diagnostics: sink) == nil)
        #expect(!sink.diagnostics.contains { $0.message.contains("UTF-8") })
    }
}
