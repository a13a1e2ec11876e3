import Foundation
import GRDB
import SeederCore
import SeederFiles

/// The resolver's created rows, `onMissing: create` (docs/mapping.md, Relationships): each identity
/// that a reference of such a relationship names and no record provides becomes a row holding only
/// the identity, before any link is applied or checked, so that every later stage finds it as if a
/// record had provided it (its defaults are filled and its `required` values checked with the
/// others', `finishRows`).
///
/// The dangling references of each target go into a table of the working database
/// (`CreatedRows`), one row per identity, keeping the first reference in source order: its place,
/// its owner and its relationship. The rows are made from it in that order, each with a side row
/// whose place is that reference's, so that a message about a created row stands at the reference
/// and names it. Only a reference by identity can dangle (`LoadSummary`): a build whose
/// relationships never say `create`, or whose references all find their rows, does nothing here.
extension ReferenceResolver {
    func createMissingRows(_ links: [LinkLayout]) throws {
        var targets = Set<Int>()
        for layout in tables.layouts {
            for (index, relationship) in layout.entity.relationships.enumerated()
            where relationship.onMissing == .create && !relationship.isToMany
                && load[entity: layout.entityIndex, relationship: index].referencedByIdentity
            {
                for target in foreignKeyTargets(layout, relationship: index)
                where try collectDangling(layout, relationship: index, to: target) {
                    targets.insert(target.layout.entityIndex)
                }
            }
        }
        for link in links where link.relationship.onMissing == .create && load[link: link].hasLinkByIdentity {
            if try collectDangling(link) { targets.insert(link.relationship.target) }
        }
        for target in targets.sorted() {
            try createRows(CreatedRows(tables.layouts[target], ownerKeyCount: ownerKeyCount))
        }
    }

    /// The most key columns an owner has: the width of `CreatedRows`' owner key.
    var ownerKeyCount: Int { tables.layouts.map(\.keyColumns.count).max() ?? 1 }

    /// A to-one's foreign keys that name no row, each at the place of its record's value; returns
    /// whether there was one.
    private func collectDangling(_ layout: RowLayout, relationship index: Int, to foreignKey: ForeignKeyTarget) throws -> Bool {
        let (target, columns) = (foreignKey.layout, foreignKey.columns)
        guard target.entity.identity != .none, !columns.isEmpty else { return false }
        let matches = SQLText.equal("x", target.keyColumns, "t", columns)
        let present = foreignKey.present
        let dangles = "\(present) AND NOT EXISTS (SELECT 1 FROM \(target.table) AS x WHERE \(matches))"
        // Asked first: the rows' places need their side rows in their table (`SideRowLog`).
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(layout.table) AS t WHERE \(dangles))") ?? false else {
            return false
        }
        let created = CreatedRows(target, ownerKeyCount: ownerKeyCount)
        try created.create(in: db)
        let upsert = try db.makeStatement(sql: created.upsert(values: nil))
        let keyCount = layout.keyColumns.count
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT \((layout.keyColumns + columns).map { "t.\(SQLText.quote($0))" }.joined(separator: ", ")),
                       s."_fields", s."_file", s."_offset"
                FROM \(layout.joinedInRowOrder(try tables.sideTable(of: layout))) WHERE \(dangles) ORDER BY \(RowLayout.firstSeen)
                """)
        let slot = layout.slot(relationship: index)
        while let row = try rows.next() {
            let base = keyCount + columns.count
            let fields: Data = row[base]
            let place = RowLayout.origin(ofSlot: slot, in: Array(fields), rowFile: row[base + 1], rowOffset: row[base + 2])
            // Appended one by one: appending an array of `DatabaseValue`s is a specialization the
            // compiler merges with the load's appending of `SQLValue`s, which then pays a thunk.
            var arguments: [DatabaseValue] = []
            for column in columns.indices { arguments.append(row[keyCount + column]) }
            arguments.append(layout.entityIndex.databaseValue)
            arguments.append(index.databaseValue)
            for column in 0..<created.ownerKeyCount { arguments.append(column < keyCount ? row[column] : .null) }
            arguments.append(place.file.databaseValue)
            arguments.append(place.offset.databaseValue)
            try upsert.execute(arguments: StatementArguments(arguments))
        }
        return true
    }

    /// A to-many's links whose target no row has, each at the place of its reference; returns
    /// whether there was one.
    private func collectDangling(_ link: LinkLayout) throws -> Bool {
        let target = tables.layouts[link.relationship.target]
        guard target.entity.identity != .none else { return false }
        let matches = SQLText.equal("x", target.keyColumns, "l", link.targetColumns)
        let dangles = "NOT EXISTS (SELECT 1 FROM \(target.table) AS x WHERE \(matches))"
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(link.table) AS l WHERE \(dangles))") ?? false else {
            return false
        }
        let created = CreatedRows(target, ownerKeyCount: ownerKeyCount)
        try created.create(in: db)
        let owner = (0..<created.ownerKeyCount).map { $0 < link.ownerColumns.count ? "l.\(SQLText.quote(link.ownerColumns[$0]))" : "NULL" }
        let selected =
            link.targetColumns.map { "l.\(SQLText.quote($0))" } + ["\(link.entityIndex)", "\(link.relationshipIndex)"] + owner
            + ["l.\"_file\"", "l.\"_offset\""]
        try db.execute(
            sql: created.upsert(
                values: """
                    SELECT \(selected.joined(separator: ", ")) FROM \(link.table) AS l WHERE \(dangles)
                    ORDER BY l."_file", l."_offset", l."_seq"
                    """))
        return true
    }

    /// Makes the rows `created` holds, in the order of their first references, each with its
    /// side row: the identity present, its place the reference's.
    private func createRows(_ created: CreatedRows) throws {
        let target = created.target
        try checkValues(created)
        let keys = SQLText.list(target.keyColumns)
        try db.execute(
            sql: """
                INSERT INTO \(target.table) (\(keys))
                SELECT \(SQLText.list(created.keyColumns)) FROM \(created.table) ORDER BY "_file", "_offset"
                """)
        let count = db.changesCount
        var masks = target.maskColumns.map { _ in Int64(0) }
        for attribute in target.entity.identityAttributes {
            let (column, bit) = RowLayout.maskIndex(target.slot(attribute: attribute))
            masks[column] |= bit
        }
        let side = try tables.sideTable(of: target)
        try db.execute(
            sql: """
                INSERT INTO \(side) ("_row", \(SQLText.list(target.sideColumns)))
                SELECT t."rowid", \(masks.map(String.init).joined(separator: ", ")), x'', c."_file", c."_offset"
                FROM \(created.table) AS c JOIN \(target.table) AS t ON \(created.matches("t", "c"))
                """)
        tally.counts[target.entityIndex].rowsCreated += count
        tally.counts[target.entityIndex].rowsWritten += count
        tables.noteSideRowsWentIn(of: target.entityIndex)
    }

    /// An identity outside its attribute's `values`, or `""` (no id, docs/mapping.md, Missing
    /// references), is an error at the reference (the row is still made, so that the reference
    /// is not reported missing as well).
    private func checkValues(_ created: CreatedRows) throws {
        let target = created.target
        for (part, attribute) in target.entity.identityAttributes.enumerated() {
            let allowed = target.entity.attributes[attribute].allowedValues
            let keys = SQLText.list(created.keyColumns)
            let column = "c.\(SQLText.quote(created.keyColumns[part]))"
            let outside = allowed.map { " OR \(column) NOT IN (\(SQLText.placeholders($0.count)))" } ?? ""
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(keys), \(created.referenceColumns.joined(separator: ", ")), "_file", "_offset" FROM \(created.table) AS c
                    WHERE \(column) = ''\(outside)
                    ORDER BY "_file", "_offset"
                    """, arguments: StatementArguments((allowed ?? []).map(\.databaseValue)))
            let base = target.keyColumns.count + created.referenceColumns.count
            let accepted = (allowed ?? []).map(\.description).joined(separator: ", ")
            for row in rows {
                let key = target.keyColumns.indices.map { row[$0] as DatabaseValue }
                let reference = createdRowReference(target, key: key, in: row, from: key.count) ?? label(target, key: key)
                let name = target.entity.attributes[attribute].name
                let value = SQLValue(key[part])
                let problem = value == .text("") ? "which is not an id" : "expected one of \(accepted)"
                missingReferences.append(
                    "\(reference), which no record provides; onMissing: create cannot make it: '\(name)' is \(value), \(problem)",
                    at: location(file: row[base], offset: row[base + 1]))
            }
            reportMissing()
        }
    }

    /// The reference a created row of `layout` was made for, in a row that selected
    /// `CreatedRows.referenceColumns` from `column`: "Post 1 references Tag 7 (tags)"; `nil` for
    /// a row a record provided.
    func createdRowReference(_ layout: RowLayout, key: [DatabaseValue], in row: Row, from column: Int) -> String? {
        guard let ownerIndex = row[column] as Int? else { return nil }
        let owner = tables.layouts[ownerIndex]
        let relationship = owner.entity.relationships[row[column + 1] as Int]
        let ownerKey = owner.keyColumns.indices.map { row[column + 2 + $0] as DatabaseValue }
        return "\(label(owner, key: ownerKey)) references \(label(layout, key: key)) (\(relationship.name))"
    }
}

/// The table of the working database that holds, per identity of an entity that
/// `onMissing: create` makes rows of, the first reference that named it: `"work"."c<entity>"`,
/// with the identity (`k0`...), the owner's entity and relationship (`_owner`, `_relationship`),
/// the owner's key (`o0`..., as wide as the widest key) and the reference's place.
struct CreatedRows {
    let target: RowLayout
    let ownerKeyCount: Int

    init(_ target: RowLayout, ownerKeyCount: Int) {
        self.target = target
        self.ownerKeyCount = ownerKeyCount
    }

    /// The table of `entity`'s created rows (`ReferenceResolver.createMissingRows`).
    static func table(of entity: Int) -> String { "\"work\".\"c\(entity)\"" }

    var table: String { Self.table(of: target.entityIndex) }
    var keyColumns: [String] { target.keyColumns.indices.map { "k\($0)" } }
    var ownerColumns: [String] { (0..<ownerKeyCount).map { "o\($0)" } }
    /// What `ReferenceResolver.createdRowReference` reads, from the table as `c`.
    var referenceColumns: [String] { (["_owner", "_relationship"] + ownerColumns).map { "c.\(SQLText.quote($0))" } }
    private var columns: [String] { keyColumns + ["_owner", "_relationship"] + ownerColumns + ["_file", "_offset"] }

    /// `t.key = c.k0 AND ...`: a row of the target table as `row` and this table as `created`.
    func matches(_ row: String, _ created: String) -> String {
        zip(target.keyColumns, keyColumns).map { "\(row).\(SQLText.quote($0)) = \(created).\(SQLText.quote($1))" }
            .joined(separator: " AND ")
    }

    func create(in db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS \(table) (\(columns.map(SQLText.quote).joined(separator: ", ")),
                                                     PRIMARY KEY (\(SQLText.list(keyColumns))))
                """)
    }

    /// Adds references, from `values` (a `SELECT` of `columns`), else one from the statement's
    /// arguments; an identity already held keeps whichever reference stands first in source order.
    func upsert(values: String?) -> String {
        let assignments = (["_owner", "_relationship"] + ownerColumns + ["_file", "_offset"]).map {
            "\(SQLText.quote($0)) = excluded.\(SQLText.quote($0))"
        }
        return """
            INSERT INTO \(table) (\(SQLText.list(columns))) \(values ?? "VALUES (\(SQLText.placeholders(columns.count)))")
            ON CONFLICT (\(SQLText.list(keyColumns))) DO UPDATE SET \(assignments.joined(separator: ", "))
            WHERE (excluded."_file", excluded."_offset") < ("_file", "_offset")
            """
    }
}
