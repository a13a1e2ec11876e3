import Foundation
import Testing

@testable import SeederCore

/// Each problem a mapping can have, as the loader reports it: its exact message at its node.
struct MappingProblemsTests {
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
}
