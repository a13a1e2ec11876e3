import Foundation
import SeederCore

/// Where the link rows of to-many relationships wait while a build runs: one table of the
/// working database per shape of link (the owner's key width, the target's), shared by every
/// relationship of that shape and keyed by its number (`_rel`, `LinkLayout.number`). A mapping
/// has a few shapes and may have tens of thousands of to-manys: every table or index SQLite makes
/// costs more than the one before it (bench/README.md, Big mappings).
///
/// The pair's index leads with the relationship, so that one relationship's links are read
/// without a scan of the others', then the target, for finding a child that two owners claim.
struct LinkTable: Hashable, Sendable {
    let ownerWidth: Int
    let targetWidth: Int

    /// `links_1_2`, and qualified: `"work"."links_1_2"`.
    var name: String { "links_\(ownerWidth)_\(targetWidth)" }
    var table: String { "\"work\"." + SQLText.quote(name) }
    var ownerColumns: [String] { (0..<ownerWidth).map { "o\($0)" } }
    var targetColumns: [String] { (0..<targetWidth).map { "t\($0)" } }

    /// The column of the relationship's number, which every row and the pair's index lead with.
    static let relationshipColumn = "_rel"

    /// The columns a link row is written with: the relationship's number first.
    var insertedColumns: [String] {
        [Self.relationshipColumn] + ownerColumns + targetColumns + ["_position", "_file", "_offset"]
    }

    /// The pair's columns, the conflict target of a write that unites links.
    var pairColumns: [String] { [Self.relationshipColumn] + targetColumns + ownerColumns }

    /// The tables the links of `links` need, each once, in a stable order.
    static func all(for links: [LinkLayout]) -> [LinkTable] {
        Set(links.map(\.stored)).sorted { ($0.ownerWidth, $0.targetWidth) < ($1.ownerWidth, $1.targetWidth) }
    }

    var createStatements: [String] {
        let columns =
            ["\"_seq\" INTEGER PRIMARY KEY", "\(SQLText.quote(Self.relationshipColumn)) INTEGER NOT NULL"]
            + (ownerColumns + targetColumns).map(SQLText.quote)
            + ["\"_position\" INTEGER NOT NULL", "\"_file\" INTEGER NOT NULL", "\"_offset\" INTEGER NOT NULL"]
        return [
            "CREATE TABLE \(table) (\(columns.joined(separator: ", ")))",
            "CREATE UNIQUE INDEX \"work\".\(SQLText.quote(name + "_pair")) ON \(SQLText.quote(name))(\(SQLText.list(pairColumns)))",
        ]
    }

    /// Writes a link row, `_rel` bound first (`insertedColumns`); a pair already there is kept.
    var insert: String {
        "INSERT OR IGNORE INTO \(table) (\(SQLText.list(insertedColumns))) VALUES (\(SQLText.placeholders(insertedColumns.count)))"
    }
}
