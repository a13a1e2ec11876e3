import SeederTestSupport
import Testing

@testable import SeederCore

/// Value-level rules of docs/mapping.md read through a whole mapping: the Boolean strings, the
/// finer unix dates.
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
}
