import Foundation
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// docs/mapping.md, Merging: occurrences of one identity that embed an `identity: none` record in
/// a to-one (a customer with its address, embedded again in each charge) compare the copies by
/// content. Equal copies are one row, the first, and the others are not written; unequal ones
/// are a conflict, and the row the merge keeps is the one the foreign key names.
struct EmbeddedCopiesTests {
    static func mapping(onConflict: String = "error", address: String = "") -> String {
        """
        seeder: 1
        entities:
          Customer:
            onConflict: \(onConflict)
            attributes: { id: string, name: string }
            relationships: { address: { to: Address } }
          Address:
            identity: none
            attributes: { city: string }
            relationships: { geo: { to: Geo }, country: { to: Country }\(address) }
          Geo:
            identity: none
            attributes: { lat: real }
          Country:
            attributes: { id: string, name: string }
          Line:
            identity: none
            attributes: { text: string }
          Charge:
            attributes: { id: string }
            relationships: { customer: { to: Customer }, payer: { to: Customer } }
        sources:
          - { path: customers.json, entity: Customer }
          - { path: charges.json, entity: Charge }
        """
    }

    /// A workspace whose customer c1 is in `customers.json` with `first`, and again in each
    /// charge of `charges.json` with each of `copies` (JSON objects or `null`).
    static func workspace(_ first: String, _ copies: [String], mapping: String = mapping()) throws -> Workspace {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", mapping)
        try workspace.write("dumps/customers.json", #"[{"id": "c1", "name": "A", "address": \#(first)}]"#)
        let charges = copies.enumerated().map { #"{"id": "ch\#($0 + 1)", "customer": {"id": "c1", "address": \#($1)}}"# }
        try workspace.write("dumps/charges.json", "[" + charges.joined(separator: ",\n ") + "]")
        return workspace
    }

    static let paris = #"{"city": "Paris"}"#

    /// The errors of a build (the mapping declares more than each test's dumps use).
    static func errors(_ report: BuildReport, _ workspace: Workspace) -> [String] {
        report.messages(workspace).filter { $0.contains(" error: ") }
    }

    /// The user trial's dumps: equal copies are no conflict, and the one row is the first copy's.
    @Test func equalCopiesAreOneRowTheFirst() throws {
        let workspace = try Self.workspace(Self.paris, [Self.paris, Self.paris])
        let report = workspace.build()
        #expect(report.outcome == .success && Self.errors(report, workspace) == [])
        #expect(try workspace.rows("SELECT * FROM address") == [#"[_pk:1 city:"Paris" geo_id:NULL country_id:NULL]"#])
        #expect(try workspace.rows("SELECT * FROM customer") == [#"[id:"c1" name:"A" address_id:1]"#])
        let address = report.entities[1].counts
        #expect(address.recordsRead == 3 && address.rowsWritten == 1 && address.occurrencesMerged == 2)
        #expect(report.entities[0].counts.conflictsResolved == 0)
        // Under `last` too: equal copies do not conflict.
        let last = workspace.build { $0.onConflict = .last }
        #expect(last.outcome == .success && last.entities[0].counts.conflictsResolved == 0)
        #expect(try workspace.rows("SELECT * FROM address") == [#"[_pk:1 city:"Paris" geo_id:NULL country_id:NULL]"#])
        #expect(try workspace.rows("SELECT * FROM customer") == [#"[id:"c1" name:"A" address_id:1]"#])
    }

    /// `first` links the first copy and writes none of the later ones; `last` links the last copy
    /// (copies written before it stay, linked from nowhere).
    @Test func firstAndLastLinkThatCopy() throws {
        let workspace = try Self.workspace(Self.paris, [#"{"city": "Lyon"}"#, #"{"city": "Rome"}"#])
        let first = workspace.build { $0.onConflict = .first }
        #expect(first.outcome == .success)
        #expect(try workspace.rows("SELECT * FROM address") == [#"[_pk:1 city:"Paris" geo_id:NULL country_id:NULL]"#])
        #expect(try workspace.rows("SELECT * FROM customer") == [#"[id:"c1" name:"A" address_id:1]"#])
        #expect(first.entities[0].counts.conflictsResolved == 2)
        #expect(first.entities[1].counts.occurrencesMerged == 2)

        let last = workspace.build { $0.onConflict = .last }
        #expect(last.outcome == .success)
        #expect(try workspace.rows("SELECT city FROM address ORDER BY _pk") == [#"[city:"Paris"]"#, #"[city:"Lyon"]"#, #"[city:"Rome"]"#])
        #expect(try workspace.rows("SELECT * FROM customer") == [#"[id:"c1" name:"A" address_id:3]"#])
        #expect(last.entities[0].counts.conflictsResolved == 2)
    }

    /// Unequal copies are an error that shows both, each located at its copy.
    @Test func aConflictShowsBothCopies() throws {
        let workspace = try Self.workspace(Self.paris, [Self.paris, #"{"city": "Lyon"}"#])
        let report = workspace.build()
        #expect(
            Self.errors(report, workspace) == [
                #"dumps/charges.json:2:52: error: Customer c1: 'address' conflicts: an embedded Address {"city":"Lyon"} here, another {"city":"Paris"} at dumps/customers.json:1:39"#
            ])
        #expect(report.outcome == .invalid)
        // Against a null, and a null against a copy.
        let null = try Self.workspace("null", [Self.paris])
        let againstNull = null.build()
        #expect(
            againstNull.messages(null).first
                == #"dumps/charges.json:1:52: error: Customer c1: 'address' conflicts: an embedded Address {"city":"Paris"} here, null at dumps/customers.json:1:2"#
        )
        let copyFirst = try Self.workspace(Self.paris, ["null"])
        #expect(
            copyFirst.build().messages(copyFirst).first
                == #"dumps/charges.json:1:28: error: Customer c1: 'address' conflicts: null here, an embedded Address {"city":"Paris"} at dumps/customers.json:1:39"#
        )
        // `first` keeps the null and writes no copy; `last` links the copy.
        #expect(null.build { $0.onConflict = .first }.outcome == .success)
        #expect(try null.rows("SELECT count(*) AS n FROM address") == ["[n:0]"])
        #expect(try null.rows("SELECT address_id FROM customer") == ["[address_id:NULL]"])
        #expect(null.build { $0.onConflict = .last }.outcome == .success)
        #expect(try null.rows("SELECT address_id FROM customer") == ["[address_id:1]"])
    }

    /// Copies in one record (a customer who also pays) compare the same, before the first copy's
    /// foreign key is set.
    @Test func copiesInOneRecordCompareTheSame() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.mapping())
        try workspace.write("dumps/customers.json", "[]")
        func charge(_ payer: String) throws {
            try workspace.write(
                "dumps/charges.json",
                #"[{"id": "ch1", "customer": {"id": "c1", "address": {"city": "Paris"}}, "payer": {"id": "c1", "address": \#(payer)}}]"#)
        }
        try charge(Self.paris)
        let report = workspace.build()
        #expect(report.outcome == .success)
        #expect(try workspace.rows("SELECT _pk, city FROM address") == [#"[_pk:1 city:"Paris"]"#])
        #expect(try workspace.rows("SELECT * FROM customer") == [#"[id:"c1" name:NULL address_id:1]"#])

        try charge(#"{"city": "Lyon"}"#)
        #expect(
            workspace.build().messages(workspace).first
                == #"dumps/charges.json:1:105: error: Customer c1: 'address' conflicts: an embedded Address {"city":"Lyon"} here, another {"city":"Paris"} at dumps/charges.json:1:52"#
        )
        #expect(workspace.build { $0.onConflict = .first }.outcome == .success)
        #expect(try workspace.rows("SELECT _pk, city FROM address") == [#"[_pk:1 city:"Paris"]"#])
        #expect(try workspace.rows("SELECT address_id FROM customer") == ["[address_id:1]"])
        #expect(workspace.build { $0.onConflict = .last }.outcome == .success)
        #expect(try workspace.rows("SELECT _pk, city FROM address") == [#"[_pk:1 city:"Paris"]"#, #"[_pk:2 city:"Lyon"]"#])
        #expect(try workspace.rows("SELECT address_id FROM customer") == ["[address_id:2]"])
    }

    /// A copy's content takes in the `identity: none` records it embeds in to-ones, by their
    /// content, and the records with an identity, by it; these still merge as occurrences.
    @Test func copiesCompareWhatTheyEmbed() throws {
        let address = #"{"city": "Paris", "geo": {"lat": 48.85}, "country": {"id": "fr", "name": "France"}}"#
        let workspace = try Self.workspace(address, [address, #"{"city": "Paris", "geo": {"lat": 48.85}, "country": "fr"}"#])
        let report = workspace.build()
        #expect(report.outcome == .success)
        #expect(try workspace.rows("SELECT * FROM address") == [#"[_pk:1 city:"Paris" geo_id:1 country_id:"fr"]"#])
        #expect(try workspace.rows("SELECT * FROM geo") == ["[_pk:1 lat:48.85]"])
        #expect(try workspace.rows("SELECT * FROM country") == [#"[id:"fr" name:"France"]"#])
        #expect(report.entities[2].counts.recordsRead == 3 && report.entities[2].counts.occurrencesMerged == 2)
        #expect(report.entities[3].counts.recordsRead == 2 && report.entities[3].counts.occurrencesMerged == 1)

        // An embedded country of the copy not kept still merges: its conflict is reported.
        let other = try Self.workspace(
            address, [#"{"city": "Paris", "geo": {"lat": 48.86}, "country": {"id": "fr", "name": "Frankreich"}}"#])
        #expect(
            Self.errors(other.build(), other) == [
                #"dumps/charges.json:1:52: error: Customer c1: 'address' conflicts: an embedded Address {"city":"Paris","geo":{"lat":48.86},"country":"fr"} here, another {"city":"Paris","geo":{"lat":48.85},"country":"fr"} at dumps/customers.json:1:39"#,
                #"dumps/charges.json:1:125: error: Country fr: 'name' conflicts: "Frankreich" here, "France" at dumps/customers.json:1:112"#,
            ])
        let firstWins = other.build { $0.onConflict = .first }
        #expect(firstWins.outcome == .success && firstWins.entities[3].counts.conflictsResolved == 1)
        #expect(try other.rows("SELECT count(*) AS n FROM geo") == ["[n:1]"])
    }

    /// A copy with a to-many (its own, or an embedded record's) is not compared: its links are
    /// stored apart until every input is read. Copies conflict; the merge still links the row
    /// it keeps.
    @Test func aCopyWithAToManyIsNotCompared() throws {
        let mapping = Self.mapping(address: ", lines: { to: Line, many: true }")
        let address = #"{"city": "Paris", "lines": [{"text": "1 rue"}]}"#
        let workspace = try Self.workspace(address, [address], mapping: mapping)
        #expect(
            Self.errors(workspace.build(), workspace) == [
                #"dumps/charges.json:1:52: error: Customer c1: 'address' conflicts: an embedded Address {"city":"Paris"} here, another {"city":"Paris"} (Address.lines is a to-many: such copies are not compared) at dumps/customers.json:1:39"#
            ])
        #expect(workspace.build { $0.onConflict = .first }.outcome == .success)
        #expect(try workspace.rows("SELECT address_id FROM customer") == ["[address_id:1]"])
        #expect(try workspace.rows("SELECT count(*) AS n FROM address") == ["[n:2]"])
    }
}
