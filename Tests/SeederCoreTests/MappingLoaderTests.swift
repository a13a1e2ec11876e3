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

    struct Case: Sendable, CustomStringConvertible {
        var yaml: String
        var errors: [String]
        var description: String { errors.first ?? "" }
    }

    /// A minimal valid head, so each case's line numbers count from line 3.
    static let head = "seeder: 1\nentities:\n"

    static let cases: [Case] = [
        Case(
            yaml: head + "  User:\n    identiy: id\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:4:5: error: unknown key 'identiy' in entity 'User'; did you mean 'identity'?"]),
        Case(
            yaml: head + "  User:\n    attributes: { id: strng }\n",
            errors: [
                "mapping.yaml:4:23: error: unknown type 'strng' for 'id' (did you mean 'string'?); expected integer, real, decimal, boolean, string, date, url, uuid, data or json"
            ]),
        Case(
            yaml: head
                + "  User:\n    attributes: { id: integer }\n    relationships:\n      team: { to: Tean }\n  Team:\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:6:19: error: unknown entity 'Tean' in 'to' (did you mean 'Team'?)"]),
        Case(
            yaml: head + "  User:\n    identity: uid\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:4:15: error: identity attribute 'uid' is not declared in 'User.attributes' (did you mean 'id'?)"]),
        Case(
            yaml: head + "  Tag:\n    attributes: { name: string }\n",
            errors: [
                "mapping.yaml:3:3: error: entity 'Tag' has no attribute 'id': name its identity ('identity: slug', or a list) or say 'identity: none'"
            ]),
        Case(
            yaml: head
                + "  Project:\n    attributes: { id: integer }\n    relationships:\n      tasks: { to: Task, many: true, inverse: project }\n  Task:\n    attributes: { id: integer }\n",
            errors: [
                "mapping.yaml:6:47: error: inverse 'project' is not a relationship of Task; it must be a to-one from Task back to Project"
            ]),
        Case(
            yaml: head
                + "  Project:\n    attributes: { id: integer }\n    relationships:\n      tasks: { to: Task, many: true, inverse: tags }\n  Task:\n    attributes: { id: integer }\n    relationships:\n      tags: { to: Task, many: true }\n",
            errors: ["mapping.yaml:6:47: error: inverse 'tags' is not a to-one relationship from Task back to Project"]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer, first-name: string }\n",
            errors: [
                "mapping.yaml:4:32: error: attribute name 'first-name' is not an identifier (a letter or '_', then letters, digits or '_')"
            ]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer, firstName: string, first_name: string }\n",
            errors: [
                "mapping.yaml:4:51: error: attribute 'first_name' and attribute 'firstName' both become column 'first_name' of table 'user'"
            ]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\n  USER:\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:5:3: error: entity 'USER' and entity 'User' both become table 'user'"]),
        Case(
            yaml: head + "  SeedInfo:\n    attributes: { id: integer }\n",
            errors: [
                "mapping.yaml:3:3: error: table name 'seed_info' of entity 'SeedInfo' is reserved: names starting with 'sqlite_' or 'seed_' belong to SQLite and seeder"
            ]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer, rowid: integer }\n",
            errors: ["mapping.yaml:4:32: error: column name 'rowid' of table 'user' is reserved by SQLite"]),
        Case(
            yaml: head + "  User: &base\n    attributes: { id: integer }\n  Admin: *base\n",
            errors: ["mapping.yaml:3:9: error: anchors and aliases are not allowed in a mapping (found '&base')"]),
        Case(
            yaml: "entities:\n  User:\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:1:1: error: missing 'seeder: 1' (the mapping format version)"]),
        Case(
            yaml: "seeder: 2\nentities:\n  User:\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:1:9: error: unsupported mapping format 2; this seeder reads format 1"]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\n    onConflict: eror\n",
            errors: [
                "mapping.yaml:5:17: error: unknown value 'eror' for 'onConflict' (did you mean 'error'?); expected error, first or last"
            ]),
        Case(
            yaml: head + "  User:\n    attributes:\n      id: integer\n      n: { type: integer, default: abc }\n",
            errors: ["mapping.yaml:6:36: error: 'default' is \"abc\", expected integer"]),
        Case(
            yaml: head + "  User:\n    attributes:\n      id: integer\n      at: { type: string, format: unix }\n",
            errors: ["mapping.yaml:6:27: error: 'format' applies only to date attributes; 'at' is string"]),
        Case(
            yaml: head + "  User:\n    attributes:\n      id: integer\n      n: { type: integer, from: \"tasks.@cnt\" }\n",
            errors: ["mapping.yaml:6:33: error: unknown collection operator '@cnt' in 'tasks.@cnt' (did you mean '@count'?)"]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\n    relationships:\n      team: { to: User, ordered: true }\n",
            errors: ["mapping.yaml:6:25: error: 'ordered' applies only to a to-many relationship; 'team' is a to-one"]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\nsources:\n  - path: ../users.json\n    entity: User\n",
            errors: ["mapping.yaml:6:11: error: source path '../users.json' leaves the dumps directory ('..')"]),
        // The system would read `users.json` for either: a NUL ends a path.
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\nsources:\n  - path: \"users.json\\0.gz\"\n    entity: User\n",
            errors: ["mapping.yaml:6:11: error: source path holds a NUL character, which no file name may hold"]),
        Case(
            yaml: "seeder: 1\nschema: { template: \"app.sqlite\\0junk\" }\nentities:\n  User:\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:2:21: error: 'template' holds a NUL character, which no file name may hold"]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\nsources:\n  - path: users.json\n    entity: Usr\n",
            errors: ["mapping.yaml:7:13: error: unknown entity 'Usr' in 'entity' (did you mean 'User'?)"]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\nsources:\n  - path: users.csv\n    entity: User\n",
            errors: [
                "mapping.yaml:6:11: error: source path 'users.csv' is not a dump seeder reads: .json, .jsonl or .ndjson, each also with .gz or .zst"
            ]),
        Case(
            yaml: "seeder: 1\nentities:\n  User:\n    attributes: { id: integer\n",
            errors: ["mapping.yaml:5:1: error: invalid YAML: while parsing a flow mapping did not find expected ',' or '}'"]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\n    attributes: { id: string }\n",
            errors: ["mapping.yaml:5:5: error: duplicate key 'attributes' in a YAML mapping; the first one is at mapping.yaml:4:5"]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer, n: string, id: string, n: date }\n",
            errors: [
                "mapping.yaml:4:43: error: duplicate key 'id' in a YAML mapping; the first one is at mapping.yaml:4:19",
                "mapping.yaml:4:55: error: duplicate key 'n' in a YAML mapping; the first one is at mapping.yaml:4:32",
            ]),
        Case(
            yaml: head
                + "  User:\n    attributes:\n      id: integer\nsources:\n  - path: a.json\n    entity: User\n  - { path: b.json, path: c.json }\n",
            errors: ["mapping.yaml:9:21: error: duplicate key 'path' in a YAML mapping; the first one is at mapping.yaml:9:7"]),
        Case(
            yaml: head + "  User:\n    attributes:\n      id: integer\n      n\u{0}: string\n",
            errors: ["mapping.yaml:6:8: error: invalid YAML: control characters are not allowed"]),
        Case(
            yaml: "seeder: 1\ntimeZone: Mars/Olympus\nentities:\n  User:\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:2:11: error: unknown time zone 'Mars/Olympus'; use an IANA name such as 'UTC' or 'America/New_York'"]),
        Case(
            yaml: "seeder: 1\nschemaVersion: -1\nentities:\n  User:\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:2:16: error: 'schemaVersion' must be from 0 to 2147483647 (it becomes PRAGMA user_version)"]),
        Case(
            yaml: head + "  User:\n    attributes:\n      id: integer\n      s: { type: string, values: [a, b], default: c }\n",
            errors: ["mapping.yaml:6:51: error: 'default' \"c\" is not one of 'values'"]),
        Case(
            yaml: head + "  User:\n    attributes:\n      id: integer\n      s: { type: string, required: maybe }\n",
            errors: ["mapping.yaml:6:36: error: 'required' must be true or false, found 'maybe'"]),
        Case(
            yaml: head + "  User:\n    attributes:\n      id: integer\n      s: { required: true }\n",
            errors: [
                "mapping.yaml:6:7: error: attribute 'User.s' needs a 'type' (integer, real, decimal, boolean, string, date, url, uuid, data or json)"
            ]),
        Case(
            yaml: head + "  User:\n    attributes:\n      id: integer\n      at: { type: date, format: soon }\n",
            errors: [
                "mapping.yaml:6:33: error: unknown date format 'soon'; expected iso8601, unix, unix_ms, unix_us, unix_ns or a Unicode date pattern such as 'yyyy-MM-dd HH:mm:ss Z'"
            ]),
        Case(
            yaml: head + "  User:\n    attributes:\n      id: integer\n      at: { type: date, format: unix_nss }\n",
            errors: [
                "mapping.yaml:6:33: error: unknown date format 'unix_nss' (did you mean 'unix_ns'?); expected iso8601, unix, unix_ms, unix_us, unix_ns or a Unicode date pattern such as 'yyyy-MM-dd HH:mm:ss Z'"
            ]),
        Case(
            yaml: head + "  User:\n    identity: meta\n    attributes: { meta: json }\n",
            errors: ["mapping.yaml:4:15: error: identity attribute 'meta' is json; an identity must be a comparable value"]),
        Case(
            yaml: head
                + "  User:\n    attributes: { id: integer }\n    relationships:\n      tags: { to: User, many: true, required: true, column: x }\n",
            errors: [
                "mapping.yaml:6:37: error: 'required' applies only to a to-one relationship; 'tags' is a to-many",
                "mapping.yaml:6:53: error: 'column' applies only to a to-one relationship; 'tags' is a to-many",
            ]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\n    relationships:\n      team: { many: true }\n",
            errors: ["mapping.yaml:6:7: error: relationship 'User.team' needs 'to' (the target entity)"]),
        // Selectors (docs/mapping.md, Polymorphism).
        Case(
            yaml: head
                + "  User:\n    attributes: { id: integer }\n    relationships:\n      media: { to: { by: type, cases: { photo: Phot } } }\n"
                + "  Photo:\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:6:48: error: unknown entity 'Phot' in 'cases' (did you mean 'Photo'?)"]),
        Case(
            yaml: head
                + "  User:\n    attributes: { id: integer }\n    relationships:\n      media: { to: { cases: { photo: User }, defualt: User } }\n",
            errors: [
                "mapping.yaml:6:46: error: unknown key 'defualt' in the selector of 'to'; did you mean 'default'?",
                "mapping.yaml:6:20: error: a selector needs 'by' (the key whose value picks the entity)",
            ]),
        Case(
            yaml: head
                + "  User:\n    attributes: { id: integer }\n    relationships:\n"
                + "      feed: { to: { by: type, cases: { photo: Photo, video: Video } }, many: true, inverse: owner }\n"
                + "  Photo:\n    attributes: { id: integer }\n    relationships:\n      owner: { to: User }\n"
                + "  Video:\n    attributes: { id: integer }\n    relationships:\n      author: { to: User }\n",
            errors: [
                "mapping.yaml:6:93: error: inverse 'owner' is not a relationship of Video; it must be a to-one from Video back to User; "
                    + "a one-to-many to a selector needs the same 'inverse' on every entity the selector can choose"
            ]),
        Case(
            yaml: head
                + "  User:\n    attributes: { id: integer }\n    relationships:\n"
                + "      pinned: { to: { by: type, cases: { photo: Photo, note: Note } } }\n"
                + "  Photo:\n    attributes: { id: integer }\n  Note:\n    identity: none\n    attributes: { text: string }\n",
            errors: [
                "mapping.yaml:6:62: error: case 'note' of 'pinned' is Note, which has 'identity: none'; the cases of a to-one or a "
                    + "many-to-many are stored as (type, id) and need an identity"
            ]),
        Case(
            yaml: head
                + "  User:\n    attributes: { id: integer }\n    relationships:\n"
                + "      likes: { to: { by: type, cases: { photo: Photo, card: Card } }, many: true }\n"
                + "  Photo:\n    attributes: { id: integer }\n  Card:\n    identity: [suit, rank]\n    attributes: { suit: string, rank: integer }\n",
            errors: [
                "mapping.yaml:6:20: error: 'likes' stores one id column per identity attribute, but its selector's entities have "
                    + "identities of different sizes: Photo (1), Card (2)"
            ]),
        Case(
            yaml: head
                + "  User:\n    attributes: { id: integer }\nsources:\n  - path: users.json\n    entity: User\n    keyPath: data.@count\n",
            errors: ["mapping.yaml:8:14: error: 'keyPath' cannot use collection operators"]),
        Case(
            yaml: head
                + "  User:\n    attributes: { id: integer }\nsources:\n  - path: users.json\n    entity: User\n"
                + "    keyPath: data.@where(kind = user)\n",
            errors: [
                "mapping.yaml:8:14: error: 'keyPath' cannot use '@where(kind = user)' (an attribute's or a relationship's 'from' can)"
            ]),
        Case(
            yaml: head
                + "  User:\n    attributes: { id: integer, username: string }\nsources:\n  - path: users.json\n    entity: User\n"
                + "    keyedBy: usernme\n",
            errors: ["mapping.yaml:8:14: error: unknown attribute 'usernme' in 'keyedBy' of entity 'User' (did you mean 'username'?)"]),
        Case(
            yaml: head
                + "  User:\n    attributes: { id: integer, username: string }\n    relationships:\n"
                + "      lead: { to: User, keyedBy: username }\n      team: { to: User, many: true, keyedBy: usrname }\n",
            errors: [
                "mapping.yaml:6:25: error: 'keyedBy' applies only to a to-many relationship; 'lead' is a to-one",
                "mapping.yaml:7:46: error: unknown attribute 'usrname' in 'keyedBy' of entity 'User' (did you mean 'username'?)",
            ]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\nsources:\n  - path: users.json\n    entity: User\n    keyedBy: [id]\n",
            errors: ["mapping.yaml:8:14: error: 'keyedBy' must be a string, found a list"]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\nsources:\n  - path: /etc/users.json\n    entity: User\n",
            errors: ["mapping.yaml:6:11: error: source path '/etc/users.json' must be relative to the dumps directory"]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\nsources:\n  - path: users.csv.gz\n    entity: User\n",
            errors: [
                "mapping.yaml:6:11: error: source path 'users.csv.gz' is not a dump seeder reads: .json, .jsonl or .ndjson, each also with .gz or .zst"
            ]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\nsources:\n  - entity: User\n",
            errors: ["mapping.yaml:6:5: error: a source needs 'path' (a glob relative to the dumps directory)"]),
        Case(
            yaml: "seeder: 1\nentities: {}\n",
            errors: ["mapping.yaml:2:11: error: 'entities' is empty; a mapping declares at least one entity"]),
        Case(
            yaml: "seeder: 1\nentities: [User]\n",
            errors: ["mapping.yaml:2:11: error: 'entities' must be a mapping from entity names to their descriptions, found a list"]),
        Case(yaml: "", errors: ["mapping.yaml:1:1: error: the mapping file is empty; it needs at least 'seeder: 1' and 'entities:'"]),
        Case(
            yaml: head + "  User:\n    attributes: { id: integer }\n    relationships:\n      users: { to: User, many: true }\n",
            errors: ["mapping.yaml:6:7: error: the join table of 'User.users' would have two columns 'user_id'; rename the relationship"]),
        Case(
            yaml: head + "  User:\n    table: sqlite_users\n    attributes: { id: integer }\n",
            errors: [
                "mapping.yaml:4:12: error: table name 'sqlite_users' of entity 'User' is reserved: names starting with 'sqlite_' or 'seed_' belong to SQLite and seeder"
            ]),
        Case(
            yaml: head
                + "  Task:\n    attributes: { id: integer, projectPosition: integer }\n    relationships:\n      project: { to: Project }\n  Project:\n    attributes: { id: integer }\n    relationships:\n      tasks: { to: Task, many: true, inverse: project, ordered: true }\n",
            errors: [
                "mapping.yaml:10:7: error: the position of 'Project.tasks' and attribute 'projectPosition' both become column 'project_position' of table 'task'"
            ]),
    ]

    @Test(arguments: cases)
    func reportsEachProblemAtItsNode(_ case: Case) {
        let (mapping, diagnostics) = loadMapping(`case`.yaml)
        #expect(diagnostics == `case`.errors)
        #expect(mapping == nil)
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
