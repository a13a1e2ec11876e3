import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// What a source makes of what its key path reaches (docs/mapping.md, Sources): elements without
/// it, a key path that reaches nothing, bare ids, and objects whose keys are records (`keyedBy`).
struct SourceRulesTests {
    @Test func skipsAndCountsTheElementsThatLackTheKeyPath() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Friend:
                attributes: { id: integer, name: string }
            sources:
              - path: users.json
                entity: Friend
                keyPath: friend
              - path: more.ndjson
                entity: Friend
                keyPath: profile.friend
            """)
        try workspace.write(
            "dumps/users.json",
            #"[{"id": 10, "friend": {"id": 1, "name": "Ann"}}, {"id": 11}, {"id": 12, "friend": null}, {"friend": {"id": 2}}]"#)
        try workspace.write("dumps/more.ndjson", "{\"profile\": {}}\n{\"profile\": {\"friend\": {\"id\": 3}}}\n{\"name\": \"x\"}\n")
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(report.outcome == .success)
        #expect(try workspace.rows("SELECT * FROM friend") == [#"[id:1 name:"Ann"]"#, "[id:2 name:NULL]", "[id:3 name:NULL]"])
        let counts = report.entities[0].counts
        #expect((counts.recordsRead, counts.elementsSkipped, counts.nullsSkipped) == (3, 3, 1))
    }

    @Test func reportsAKeyPathThatReachesNothingInAWholeFile() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Pod:
                attributes: { id: integer }
            sources:
              - path: pages/*.json
                entity: Pod
                keyPath: result
              - path: lines.ndjson
                entity: Pod
                keyPath: data.pods
            """)
        try workspace.write("dumps/pages/1.json", #"{"result": [{"id": 1}]}"#)
        try workspace.write("dumps/pages/2.json", #"{"results": [{"id": 2}]}"#)
        // An empty array has nothing to reach: not a typo.
        try workspace.write("dumps/pages/3.json", "[]")
        try workspace.write("dumps/lines.ndjson", "{\"data\": {\"pod\": [{\"id\": 3}]}}\n{\"data\": 7}\n")
        let report = workspace.build(validate: true)
        #expect(report.outcome == .invalid)
        #expect(
            report.messages(workspace) == [
                "dumps/pages/2.json:1:1: error: keyPath 'result' reaches nothing in this file: no 'result' at /",
                "dumps/lines.ndjson:1:10: error: keyPath 'data.pods' reaches nothing in this file: 2 places lack 'pods', the first at /data",
            ])
        #expect(report.entities[0].counts.elementsSkipped == 0)
    }

    @Test func readsABareIdAsTheRecordOfItsIdentity() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Tag:
                attributes: { id: integer, name: string }
            sources:
              - path: ids.json
                entity: Tag
              - path: tags.json
                entity: Tag
            """)
        try workspace.write("dumps/ids.json", #"[1699, "1455", 7]"#)
        try workspace.write("dumps/tags.json", #"[{"id": 7, "name": "seven"}]"#)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(try workspace.rows("SELECT * FROM tag") == ["[id:7 name:\"seven\"]", "[id:1455 name:NULL]", "[id:1699 name:NULL]"])
        let counts = report.entities[0].counts
        #expect((counts.recordsRead, counts.rowsWritten, counts.occurrencesMerged) == (4, 3, 1))
    }

    @Test func refusesABareIdThatIsNoIdentity() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Tag:
                attributes: { id: integer }
              Card:
                identity: [suit, value]
                attributes: { suit: string, value: integer }
              Note:
                identity: none
                attributes: { text: string }
            sources:
              - { path: tags.json, entity: Tag }
              - { path: cards.json, entity: Card }
              - { path: notes.json, entity: Note }
            """)
        try workspace.write("dumps/tags.json", "[1,\n \"one\", true]")
        try workspace.write("dumps/cards.json", #"[{"suit": "hearts", "value": 1}, 4]"#)
        try workspace.write("dumps/notes.json", #"["hello"]"#)
        let report = workspace.build(validate: true)
        #expect(
            report.messages(workspace) == [
                #"dumps/tags.json:2:2: error: Tag: 'id' is "one", expected integer  [/1]"#,
                "dumps/tags.json:2:9: error: Tag: 'id' is true, expected integer  [/2]",
                "dumps/cards.json:1:34: error: expected a record (an object) for Card, found a number; a bare id is a record only "
                    + "for an entity whose identity is one attribute, and Card has a composite identity  [/1]",
                "dumps/notes.json:1:2: error: expected a record (an object) for Note, found a string; a bare id is a record only "
                    + "for an entity whose identity is one attribute, and Note has 'identity: none'  [/0]",
            ])
    }

    static let keyedMapping = """
        seeder: 1
        entities:
          User:
            identity: username
            attributes: { username: string, name: string }
          Score:
            attributes: { id: integer, points: integer }
            relationships:
              user: { to: User }
        sources:
          - path: users.json
            entity: User
            keyPath: users
            keyedBy: username
          - path: scores.ndjson
            entity: Score
            keyedBy: id
        """

    @Test func readsObjectsWhoseKeysAreRecords() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.keyedMapping)
        try workspace.write(
            "dumps/users.json",
            #"{"users": {"rachit": {"name": "Rachit"}, "blake": {"name": "Blake", "username": "blake"}, "gone": null}, "meta": 1}"#)
        try workspace.write(
            "dumps/scores.ndjson", "{\"2\": {\"points\": 5, \"user\": \"blake\"}, \"1\": {\"points\": 9, \"user\": \"rachit\"}}\n{}\n")
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        // Rows in the file's order (rows without an integer key are in insertion order).
        #expect(
            try workspace.rows("SELECT * FROM user ORDER BY rowid") == [
                #"[username:"rachit" name:"Rachit"]"#, #"[username:"blake" name:"Blake"]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM score") == [#"[id:1 points:9 user_id:"rachit"]"#, #"[id:2 points:5 user_id:"blake"]"#])
        #expect(report.entities.map(\.counts.recordsRead) == [2, 2])
        #expect(report.entities.map(\.counts.nullsSkipped) == [1, 0])
    }

    @Test func keysAnAttributeThatIsNotTheIdentity() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Setting:
                attributes: { id: integer, name: string, value: string }
            sources:
              - { path: settings.json, entity: Setting, keyedBy: name }
            """)
        try workspace.write("dumps/settings.json", #"{"theme": {"id": 2, "value": "dark"}, "lang": {"id": 1, "value": "en"}}"#)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(try workspace.rows("SELECT * FROM setting") == [#"[id:1 name:"lang" value:"en"]"#, #"[id:2 name:"theme" value:"dark"]"#])
        try workspace.write("dumps/settings.json", #"{"theme": {"id": 2, "name": "colour", "value": "x"}}"#)
        #expect(
            workspace.build(validate: true).messages(workspace) == [
                #"dumps/settings.json:1:29: error: Setting 2: 'name' is "colour" here, but the record's key is "theme"  [/theme]"#
            ])
    }

    /// A message after the load finds its record's JSON Pointer by reading the file again, as
    /// the load read it.
    @Test func findsThePointersOfKeyedRecordsAndBareIdsAfterTheLoad() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              User:
                identity: username
                attributes: { username: string, name: { type: string, required: true } }
            sources:
              - { path: users.json, entity: User, keyPath: users, keyedBy: username }
              - { path: ids.json, entity: User }
            """)
        try workspace.write("dumps/users.json", #"{"users": {"blake": {"name": "Blake"}, "rachit": {}}}"#)
        try workspace.write("dumps/ids.json", #"["blake", "jeff"]"#)
        #expect(
            workspace.build(validate: true).messages(workspace) == [
                "dumps/users.json:1:50: error: User rachit: 'name' is required, but no occurrence has it  [/users/rachit]",
                "dumps/ids.json:1:11: error: User jeff: 'name' is required, but no occurrence has it  [/1]",
            ])
    }

    /// `keyedBy` on a to-many: an object of records, each key the target's attribute.
    @Test func readsARelationshipWhoseKeysAreRecords() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Team:
                attributes: { id: integer }
                relationships:
                  members: { to: Membership, many: true, keyedBy: username, inverse: team, ordered: true }
                  admins: { to: User, many: true, keyedBy: id }
              Membership:
                identity: none
                attributes: { username: string, role: string }
                relationships:
                  team: { to: Team }
              User:
                attributes: { id: integer, name: string }
            """)
        try workspace.write(
            "dumps/teams.json",
            #"[{"id": 1, "members": {"rachit": {"role": "admin"}, "blake": {"role": "dev"}, "gone": null}, "admins": {"7": {"name": "R"}}}]"#
        )
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT * FROM membership") == [
                #"[_pk:1 username:"rachit" role:"admin" team_id:1 team_position:0]"#,
                #"[_pk:2 username:"blake" role:"dev" team_id:1 team_position:1]"#,
            ])
        #expect(try workspace.rows("SELECT * FROM user") == [#"[id:7 name:"R"]"#])
        #expect(try workspace.rows("SELECT * FROM team_admins") == ["[team_id:1 admin_id:7]"])
        try workspace.write(
            "dumps/teams.json", #"[{"id": 1, "members": {"blake": 5}, "admins": {"x": {}, "8": {"id": 9}}}, {"id": 2, "members": [1]}]"#)
        #expect(
            workspace.build(validate: true).messages(workspace) == [
                "dumps/teams.json:1:33: error: Team 1: 'members' is keyed by 'username'; expected a record (an object) of Membership, "
                    + "found a number  [/0/members/blake]",
                #"dumps/teams.json:1:48: error: User: 'id' is "x", expected integer  [/0/admins/x]"#,
                #"dumps/teams.json:1:69: error: User: 'id' is 9 here, but the record's key is "8"  [/0/admins/8]"#,
                "dumps/teams.json:1:97: error: Team 2: 'members' refers to Membership by id, but Membership has 'identity: none': "
                    + "it can only be embedded  [/1/members/0]",
                "mapping.yaml:14:32: warning: User.name: 'name' matched no key in 2 records",
            ])
    }

    @Test func reportsKeyedRecordsThatAreWrong() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.keyedMapping)
        try workspace.write(
            "dumps/users.json",
            """
            {"users": {"blake": {"name": "Blake", "username": "blake2"},
              "jeff": 5, "rachit": [1]}}
            """)
        try workspace.write(
            "dumps/scores.ndjson",
            "{\"x1\": {\"points\": 5, \"user\": \"blake\"}, \"3\": {\"id\": \"3\", \"points\": 1}}\n[{\"4\": {\"points\": 2}}]\n\"7\"\n")
        let report = workspace.build(validate: true)
        #expect(
            report.messages(workspace) == [
                #"dumps/users.json:1:51: error: User: 'username' is "blake2" here, but the record's key is "blake"  [/users/blake]"#,
                "dumps/users.json:2:11: error: expected a record (an object) for User, found a number  [/users/jeff]",
                "dumps/users.json:2:24: error: expected a record (an object) for User, found an array  [/users/rachit]",
                #"dumps/scores.ndjson:1:2: error: Score: 'id' is "x1", expected integer  [/x1]"#,
                "dumps/scores.ndjson:3:1: error: expected an object whose keys are Score records (keyedBy: id), found a string  [/]",
            ])
    }
}
