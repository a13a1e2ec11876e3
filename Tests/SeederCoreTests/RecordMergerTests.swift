import SeederTestSupport
import Testing

@testable import SeederCore

/// docs/mapping.md's merge and conflict rules, one by one, on records mapped from real JSON.
struct RecordMergerTests {
    static func mapping(onConflict: String = "error", nulls: String = "value") -> String {
        """
        seeder: 1
        onConflict: \(onConflict)
        nulls: \(nulls)
        entities:
          User:
            attributes:
              id: integer
              name: string
              email: { type: string, required: true }
              role: { type: string, default: member }
            relationships:
              team: { to: Team }
              projects: { to: Project, many: true }
          Team:
            attributes: { id: integer, name: string }
          Project:
            attributes: { id: integer }
        """
    }

    /// Maps each `(file, json)` occurrence of User and merges them in order.
    static func merge(_ occurrences: [(String, String)], mapping yaml: String = mapping())
        throws -> (row: Record, conflicts: [RecordMerger.Conflict], diagnostics: [String], merger: RecordMerger)
    {
        let sink = DiagnosticSink()
        let mapping = try validMapping(yaml)
        let mapper = Mapper(mapping: mapping)
        let merger = RecordMerger(entity: mapping.entities[0])
        var row: Record?
        var conflicts: [RecordMerger.Conflict] = []
        for (file, json) in occurrences {
            let record = mapper.records(from: try JSONDocument(parsing: json).root, entity: 0, file: file, diagnostics: sink)[0]
            if row == nil {
                row = record
            } else {
                #expect(row?.identity == record.identity)
                conflicts += merger.merge(record, into: &row!)
            }
        }
        for conflict in conflicts where !conflict.isResolved {
            sink.report(merger.diagnostic(for: conflict, identity: row?.identity))
        }
        let texts = Dictionary(uniqueKeysWithValues: occurrences)
        sink.resolveOffsets { file in texts[file].map(MemoryByteSource.init) }
        return (try #require(row), conflicts, sink.diagnostics.map(\.description), merger)
    }

    /// Whether merging `second` into `first` changes the row: the store writes a merged row
    /// only then.
    static func changes(_ first: String, _ second: String, onConflict: String = "error") throws -> Bool {
        let mapping = try validMapping(mapping(onConflict: onConflict))
        let mapper = Mapper(mapping: mapping)
        let sink = DiagnosticSink()
        var row = mapper.records(from: try JSONDocument(parsing: first).root, entity: 0, file: "a.json", diagnostics: sink)[0]
        let occurrence = mapper.records(from: try JSONDocument(parsing: second).root, entity: 0, file: "b.json", diagnostics: sink)[0]
        var changed = false
        _ = RecordMerger(entity: mapping.entities[0]).merge(occurrence, into: &row, changed: &changed)
        return changed
    }

    @Test func saysWhetherAnOccurrenceChangedTheRow() throws {
        let full = #"{"id": 1, "name": "Blake", "team": 5, "projects": [7]}"#
        #expect(try !Self.changes(full, full))
        #expect(try !Self.changes(full, #"{"id": 1, "name": "Blake"}"#))
        #expect(try !Self.changes(full, #"{"id": 1, "projects": [7]}"#))
        #expect(try Self.changes(full, #"{"id": 1, "email": "b@example.com"}"#))
        #expect(try Self.changes(full, #"{"id": 1, "projects": [8]}"#))
        #expect(try Self.changes(#"{"id": 1}"#, #"{"id": 1, "team": 5}"#))
        #expect(try !Self.changes(full, #"{"id": 1, "name": "B."}"#, onConflict: "first"))
        #expect(try !Self.changes(full, #"{"id": 1, "name": "B."}"#, onConflict: "error"))
        #expect(try Self.changes(full, #"{"id": 1, "name": "B."}"#, onConflict: "last"))
        #expect(try Self.changes(full, #"{"id": 1, "team": 6}"#, onConflict: "last"))
    }

    static func values(_ row: Record) -> [String] {
        row.fields.map { field in
            if case let .value(value) = field.value { return value.description }
            return "absent"
        }
    }

    @Test func fillsAttributesFromTheOccurrencesThatHaveThem() throws {
        let (row, conflicts, _, _) = try Self.merge([
            ("projects.json", #"{"id": 3, "name": "Blake"}"#),
            ("users.json", #"{"id": "3", "email": "b@x.test"}"#),
        ])
        #expect(conflicts.isEmpty)
        #expect(Self.values(row) == ["3", #""Blake""#, #""b@x.test""#, "absent"])
    }

    @Test func reportsUnequalValuesWithBothLocations() throws {
        let (row, conflicts, diagnostics, _) = try Self.merge([
            ("task_list.json", #"{"id": 3, "name": "Blake W."}"#),
            ("users.json", #"{"id": 3,  "name": "Blake"}"#),
        ])
        #expect(conflicts.count == 1 && !conflicts[0].isResolved)
        #expect(diagnostics == [#"users.json:1:20: error: User 3: 'name' conflicts: "Blake" here, "Blake W." at task_list.json:1:19"#])
        #expect(Self.values(row)[1] == #""Blake W.""#)
    }

    @Test func letsTheFirstOrTheLastOccurrenceWin() throws {
        let occurrences = [("a.json", #"{"id": 1, "name": "First"}"#), ("b.json", #"{"id": 1, "name": "Last"}"#)]
        let first = try Self.merge(occurrences, mapping: Self.mapping(onConflict: "first"))
        #expect(Self.values(first.row)[1] == #""First""# && first.conflicts.count == 1 && first.conflicts[0].isResolved)
        #expect(first.diagnostics.isEmpty)
        let last = try Self.merge(occurrences, mapping: Self.mapping(onConflict: "last"))
        #expect(Self.values(last.row)[1] == #""Last""# && last.conflicts.count == 1 && last.diagnostics.isEmpty)
    }

    @Test func treatsNullAsAValueUnlessTheMappingSaysAbsent() throws {
        let occurrences = [("a.json", #"{"id": 1, "name": null}"#), ("b.json", #"{"id": 1, "name": "x"}"#)]
        let strict = try Self.merge(occurrences)
        #expect(strict.diagnostics == [#"b.json:1:19: error: User 1: 'name' conflicts: "x" here, null at a.json:1:19"#])
        let lenient = try Self.merge(occurrences, mapping: Self.mapping(nulls: "absent"))
        #expect(lenient.conflicts.isEmpty && Self.values(lenient.row)[1] == #""x""#)
    }

    @Test func unitesToManyLinksAndComparesToOneTargets() throws {
        let (row, conflicts, diagnostics, _) = try Self.merge([
            ("a.json", #"{"id": 1, "projects": [1, 2], "team": 5}"#),
            ("b.json", #"{"id": 1, "projects": [], "team": {"id": 5}}"#),
            ("c.json", #"{"id": 1, "projects": [2, 3, 1], "team": 6}"#),
        ])
        #expect(row.links[1] == .many([1, 2, 3].map { .identity(IdentityKey([.integer($0)]), offset: offset(for: $0)) }))
        #expect(conflicts.count == 1)
        #expect(diagnostics == ["c.json:1:1: error: User 1: 'team' conflicts: 6 here, 5 at a.json:1:1"])

        func offset(for project: Int64) -> Int {
            guard case let .many(targets) = row.links[1] else { return -1 }
            for case let .identity(key, offset) in targets where key == IdentityKey([.integer(project)]) { return offset }
            return -1
        }
    }

    @Test func finishesARowWithDefaultsAndReportsWhatIsStillRequired() throws {
        var (row, _, _, merger) = try Self.merge([("a.json", #"{"id": 1, "name": "x"}"#)])
        #expect(merger.finish(&row) == ["email"])
        #expect(Self.values(row) == ["1", #""x""#, "absent", #""member""#])
    }

    @Test func namesEmbeddedTargetsByTheirIdentity() throws {
        let sink = DiagnosticSink()
        let mapping = try validMapping(Self.mapping())
        let batch = Mapper(mapping: mapping).records(
            from: try JSONDocument(parsing: #"{"id": 1, "team": {"id": 9, "extra": 1}, "projects": [{"id": 4, "x": 0}, 5]}"#).root,
            entity: 0, file: "a.json", diagnostics: sink)
        #expect(batch.count == 3)
        let named = batch[0].namingEmbeddedTargets(in: batch)
        #expect(named.links[0] == .one(.identity(IdentityKey([.integer(9)]), offset: batch[1].origin.offset)))
        guard case let .many(targets) = named.links[1] else { Issue.record("expected to-many links"); return }
        #expect(
            targets.map { target -> IdentityKey? in if case let .identity(key, _) = target { return key } else { return nil } }
                == [IdentityKey([.integer(4)]), IdentityKey([.integer(5)])])
    }
}
