import SeederTestSupport
import Testing

@testable import SeederCore

/// Value-level rules of docs/mapping.md read through a whole mapping: the Boolean strings, the
/// finer unix dates, `emptyAsNull`.
struct ValueRulesTests {
    @Test func readsBooleanLettersAndFinerUnixDatesThroughAMapping() throws {
        let yaml = """
            seeder: 1
            dates: unixepoch_ms
            entities:
              Event:
                attributes:
                  id: integer
                  done: boolean
                  atUs: { type: date, format: unix_us }
                  atNs: { type: date, format: unix_ns, storage: iso8601 }
            """
        let json = """
            [{"id": 1, "done": "T", "at_us": 1310291463123999, "at_ns": "1310291463123999999.5"},
             {"id": 2, "done": "n", "at_us": "-1500", "at_ns": -1},
             {"id": 3, "done": "x", "at_us": "soon", "at_ns": 1e40}]
            """
        let (records, diagnostics, mapper) = try mapRecords(yaml, json, entity: "Event")
        #expect(
            records.map { describeFields($0, mapper) } == [
                #"id=1 done=1 atUs=1310291463123 atNs="2011-07-10T09:51:03.123Z""#,
                #"id=2 done=0 atUs=-2 atNs="1969-12-31T23:59:59.999Z""#,
                "id=3",
            ])
        #expect(
            diagnostics == [
                #"dump.json:3:20: error: Event 3: 'done' is "x", expected boolean (true, false, yes, no, t, f, y, n, 1 or 0)  [/2/done]"#,
                #"dump.json:3:34: error: Event 3: 'atUs' is "soon", expected a unix time in microseconds  [/2/at_us]"#,
                #"dump.json:3:51: error: Event 3: 'atNs' is 1e40, out of the range of dates  [/2/at_ns]"#,
            ])
    }

    static let empties = """
        seeder: 1
        emptyAsNull: true
        entities:
          Company:
            attributes:
              id: integer
              name: string
              homepage: url
              employees: integer
              founded: { type: date, format: unix }
              tags: json
              motto: { type: string, emptyAsNull: false }
              legalName: { type: string, required: true }
          Plain:
            emptyAsNull: false
            attributes:
              id: integer
              name: string
              size: { type: integer, emptyAsNull: true }
          Keyed:
            identity: code
            attributes:
              code: string
          Loose:
            nulls: absent
            attributes:
              id: integer
              legalName: { type: string, required: true }
        """

    /// `""` is null for the document's attributes, an entity's and one attribute's (the nearest
    /// says); only a value that is itself `""`; a required one fails as a null does.
    @Test func readsEmptyStringsAsNullWhereTheMappingSays() throws {
        let json = #"""
            [{"id": 1, "name": "", "homepage": "", "employees": "", "founded": "", "tags": ["", "a"], "motto": "", "legal_name": "Acme"},
             {"id": 2, "name": " ", "legal_name": ""},
             {"id": 3, "name": " ", "employees": "12", "legal_name": null}]
            """#
        let (records, diagnostics, mapper) = try mapRecords(Self.empties, json, entity: "Company")
        #expect(
            records.map { describeFields($0, mapper) } == [
                #"id=1 name=null homepage=null employees=null founded=null tags="[\"\",\"a\"]" motto="" legalName="Acme""#,
                #"id=2 name=" ""#,
                #"id=3 name=" " employees=12"#,
            ])
        #expect(
            diagnostics == [
                #"dump.json:2:39: error: Company 2: 'legalName' is "" (null by 'emptyAsNull'), but it is required  [/1/legal_name]"#,
                #"dump.json:3:58: error: Company 3: 'legalName' is null, but it is required  [/2/legal_name]"#,
            ])
        let plain = try mapRecords(Self.empties, #"{"id": 1, "name": "", "size": ""}"#, entity: "Plain")
        #expect(plain.records.map { describeFields($0, plain.mapper) } == [#"id=1 name="" size=null"#])
        #expect(plain.diagnostics == [])
    }

    /// An identity's `""` is a missing identity, reported as a null one is; under
    /// `nulls: absent` a `""` is a missing key.
    @Test func readsEmptyIdentitiesAndAbsentNullsAsNullsAre() throws {
        let keyed = try mapRecords(Self.empties, #"[{"code": ""}, {"code": null}, {"code": "x"}]"#, entity: "Keyed")
        #expect(keyed.records.map { describeFields($0, keyed.mapper) } == [#"code="x""#])
        #expect(
            keyed.diagnostics == [
                #"dump.json:1:11: error: Keyed: 'code' is "" (null by 'emptyAsNull'), but it is required  [/0/code]"#,
                #"dump.json:1:25: error: Keyed: 'code' is null, but it is required  [/1/code]"#,
            ])
        let loose = try mapRecords(Self.empties, #"{"id": 1, "legal_name": ""}"#, entity: "Loose")
        #expect(loose.records[0].fields.map(\.value) == [.value(.integer(1)), .absent])
        #expect(loose.diagnostics == [])
    }

    @Test(arguments: [
        (
            "seeder: 1\nemptyAsNul: true\nentities:\n  User: { attributes: { id: integer } }\n",
            "mapping.yaml:2:1: error: unknown key 'emptyAsNul' in the mapping file; did you mean 'emptyAsNull'?"
        ),
        (
            "seeder: 1\nentities:\n  User:\n    emptyAsNul: true\n    attributes: { id: integer }\n",
            "mapping.yaml:4:5: error: unknown key 'emptyAsNul' in entity 'User'; did you mean 'emptyAsNull'?"
        ),
        (
            "seeder: 1\nentities:\n  User:\n    attributes:\n      id: integer\n      s: { type: string, emptyAsNul: true }\n",
            "mapping.yaml:6:26: error: unknown key 'emptyAsNul' in attribute 'User.s'; did you mean 'emptyAsNull'?"
        ),
        (
            "seeder: 1\nentities:\n  User:\n    attributes:\n      id: integer\n      s: { type: string, emptyAsNull: often }\n",
            "mapping.yaml:6:39: error: 'emptyAsNull' must be true or false, found 'often'"
        ),
    ])
    func reportsEmptyAsNullTyposWithASuggestion(_ yaml: String, _ error: String) {
        let (mapping, diagnostics) = loadMapping(yaml)
        #expect(diagnostics == [error])
        #expect(mapping == nil)
    }

    static let channels = """
        seeder: 1
        entities:
          Channel:
            attributes:
              id: integer
              contents: { type: json, from: "mediaGroups.@unionOfArrays.contents" }
              distinctContents: { type: json, from: "mediaGroups.@distinctUnionOfArrays.contents" }
              contentIds: { type: json, from: "mediaGroups.@unionOfArrays.contents.id" }
              tags: { type: json, from: "mediaGroups.@distinctUnionOfArrays.tags" }
        """

    /// The unions of arrays concatenate what the key reaches in each element (one level), leave
    /// nulls out, and keep the first of equal values; anything but an array is an error there.
    @Test func unitesArraysOfArrays() throws {
        let json = #"""
            [{"id": 1, "mediaGroups": [
               {"contents": [{"id": 1}, {"id": 2}], "tags": ["news", "live", 1]},
               {"contents": [null, {"id": 2}, [3]], "tags": ["live", 1.0, "1"]},
               {"contents": null}, {"tags": []}]},
             {"id": 2, "mediaGroups": []},
             {"id": 3},
             {"id": 4, "mediaGroups": [{"contents": [], "tags": ["a"]}, {"contents": "none", "tags": {"b": 1}}]}]
            """#
        let (records, diagnostics, mapper) = try mapRecords(Self.channels, json, entity: "Channel")
        #expect(
            records.map { describeFields($0, mapper) } == [
                #"id=1 contents="[{\"id\":1},{\"id\":2},{\"id\":2},[3]]" distinctContents="[{\"id\":1},{\"id\":2},[3]]" contentIds="[1,2,2,[null]]" tags="[\"news\",\"live\",1,\"1\"]""#,
                #"id=2 contents="[]" distinctContents="[]" contentIds="[]" tags="[]""#,
                "id=3",
                // `.id` on a string reaches nothing (Key paths), so "none" adds nothing there.
                #"id=4 contentIds="[]""#,
            ])
        #expect(
            diagnostics == [
                #"dump.json:7:74: error: Channel 4: 'mediaGroups.@unionOfArrays.contents': '@unionOfArrays.contents' needs arrays, found "none"  [/3/mediaGroups/1/contents]"#,
                #"dump.json:7:74: error: Channel 4: 'mediaGroups.@distinctUnionOfArrays.contents': '@distinctUnionOfArrays.contents' needs arrays, found "none"  [/3/mediaGroups/1/contents]"#,
                #"dump.json:7:90: error: Channel 4: 'mediaGroups.@distinctUnionOfArrays.tags': '@distinctUnionOfArrays.tags' needs arrays, found {"b":1}  [/3/mediaGroups/1/tags]"#,
            ])
    }
}
