import Foundation
import GRDB
import SeederCore
import SeederFiles

/// The resolver's third stage: every reference names a row that exists, or follows `onMissing`
/// (docs/mapping.md, Relationships).
extension ReferenceResolver {
    /// Checks every to-one's foreign keys, then every many-to-many's links.
    func checkReferences(_ links: [LinkLayout]) throws {
        // Without an inverse, no claim is restored as a link row: a relationship the load wrote
        // none for has nothing to check (a big mapping has thousands, bench/README.md).
        let joinLinks = links.filter { link in
            switch link.kind {
            case .joinRows: load[link: link].hasLinkRows
            // A missing child is reported where the claims are applied (`applyInverseLinks`).
            case .claims: false
            }
        }
        let toOnes = tables.layouts.reduce(0) { $0 + $1.entity.relationships.count { !$0.isToMany } }
        // A big mapping's checks take seconds: the stage says how many it has, and counts them
        // (docs/ci.md, Progress in CI logs).
        var checked = 0
        let total = toOnes + joinLinks.count
        func report() {
            progress("reference checks", BuildProgress.Parts(done: checked, total: total, plural: "relationships"))
        }
        func count() {
            checked += 1
            if checked % SeedBuilder.partsPerReport == 0 { report() }
        }
        report()
        for layout in tables.layouts {
            for (index, relationship) in layout.entity.relationships.enumerated() where !relationship.isToMany {
                try checkForeignKey(layout, relationship: index)
                count()
            }
        }
        for layout in joinLinks {
            try checkJoinLinks(layout)
            count()
        }
    }

    /// A to-one's foreign keys must name rows that exist; others follow `onMissing`. Only one
    /// that a record names by identity can dangle (`LoadSummary.Relationship.referencedByIdentity`):
    /// the others were set from rows the load inserted, and are only counted.
    /// (`SeedChecks.check` still checks every key of the finished file.)
    ///
    /// The seed's index of the key is built now rather than after the load, when there is one
    /// (not in `validate`): the keys are counted from it, and each distinct value is looked up
    /// once (a graph's million tasks name 20,000 users); the index costs what it would have
    /// later.
    func checkForeignKey(_ layout: RowLayout, relationship index: Int) throws {
        for target in foreignKeyTargets(layout, relationship: index) {
            try checkForeignKey(layout, relationship: index, to: target)
        }
    }

    private func checkForeignKey(_ layout: RowLayout, relationship index: Int, to target: ForeignKeyTarget) throws {
        let columns = target.columns
        guard !columns.isEmpty else { return }
        let matches = SQLText.equal("x", target.layout.keyColumns, "t", columns)
        let present = target.present
        // A selector's columns have no index of their own (`SeedSchema`).
        let seedIndex =
            target.chosen == nil ? indexes[Publication.IndexedColumns(table: layout.entity.table, columns: columns)] : nil
        if let seedIndex { try SeedFinisher.createIndexes([seedIndex], in: db) }
        let count = "SELECT COUNT(*) FROM \(layout.table) AS t WHERE \(present)"
        guard load[entity: layout.entityIndex, relationship: index].referencedByIdentity else {
            tally.counts[layout.entityIndex].referencesResolved += try Int.fetchOne(db, sql: count) ?? 0
            return
        }
        let keys: Int
        let dangling: Int
        if seedIndex != nil {
            keys = try Int.fetchOne(db, sql: count) ?? 0
            let danglingKeys = SQLText.danglingKeys(layout.table, columns, parent: target.layout.table, target.layout.keyColumns)
            dangling = try Int.fetchOne(db, sql: "SELECT COUNT(*) \(danglingKeys)") ?? 0
        } else {
            // One scan counts the keys and the dangling ones.
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*), COALESCE(SUM(NOT EXISTS (SELECT 1 FROM \(target.layout.table) AS x WHERE \(matches))), 0)
                    FROM \(layout.table) AS t WHERE \(present)
                    """)
            (keys, dangling) = (row?[0] ?? 0, row?[1] ?? 0)
        }
        // Only dangling keys need the rows' origins, and rows may share a dangling key.
        var dropped = 0
        if dangling > 0 { dropped = try settleDangling(layout, relationship: index, to: target, matches: matches) }
        tally.counts[layout.entityIndex].referencesResolved += keys - dropped
    }

    /// The foreign keys of a to-one to `target`, present and not `matches`-ing a target row, in
    /// first-seen order: dropped under `onMissing: null`, else errors. Returns the keys dropped.
    private func settleDangling(_ layout: RowLayout, relationship index: Int, to target: ForeignKeyTarget, matches: String) throws -> Int {
        let relationship = layout.entity.relationships[index]
        let columns = target.columns
        let dangling = try Row.fetchAll(
            db,
            sql: """
                SELECT t."rowid", \(layout.keyColumns.map { "t.\(SQLText.quote($0))" }.joined(separator: ", ")),
                       \(columns.map { "t.\(SQLText.quote($0))" }.joined(separator: ", ")), s."_fields", s."_file", s."_offset"
                FROM \(layout.joinedInRowOrder(try tables.sideTable(of: layout)))
                WHERE \(target.present) AND NOT EXISTS (SELECT 1 FROM \(target.layout.table) AS x WHERE \(matches))
                ORDER BY \(RowLayout.firstSeen)
                """)
        let keyCount = layout.keyColumns.count
        for row in dangling {
            let key = (0..<keyCount).map { row[1 + $0] as DatabaseValue }
            let reference = columns.indices.map { row[1 + keyCount + $0] as DatabaseValue }
            if relationship.onMissing == .null {
                tally.counts[layout.entityIndex].referencesDropped += 1
                // Every column of the link: a selector's entity name too.
                let assignments = layout.foreignKeyColumns[index].map { "\(SQLText.quote($0)) = NULL" }.joined(separator: ", ")
                try db.execute(sql: "UPDATE \(layout.table) SET \(assignments) WHERE \"rowid\" = ?", arguments: [row[0] as DatabaseValue])
            } else {
                missing(
                    label(layout, key: key), references: target.layout.entity.name, reference, via: relationship,
                    at: origin(ofSlot: layout.slot(relationship: index), in: row, from: 1 + keyCount + columns.count))
            }
        }
        reportMissing()
        return relationship.onMissing == .null ? dangling.count : 0
    }

    /// The entities a to-one's foreign key can name: its target, or each entity its selector
    /// can choose, whose rows are those whose entity-name column names it (docs/mapping.md,
    /// Polymorphism).
    func foreignKeyTargets(_ layout: RowLayout, relationship index: Int) -> [ForeignKeyTarget] {
        let relationship = layout.entity.relationships[index]
        let columns = layout.foreignKeyColumns[index]
        guard relationship.selector != nil, let type = columns.last else {
            return [ForeignKeyTarget(layout: tables.layouts[relationship.target], columns: columns, chosen: nil)]
        }
        return relationship.targets.map { entity in
            let target = tables.layouts[entity]
            let chosen = "t.\(SQLText.quote(type)) = \(SQLText.literal(target.entity.name))"
            return ForeignKeyTarget(layout: target, columns: Array(columns.dropLast()), chosen: chosen)
        }
    }

    /// A many-to-many's links must name target rows that exist.
    func checkJoinLinks(_ link: LinkLayout) throws {
        let owner = tables.layouts[link.entityIndex]
        let target = tables.layouts[link.relationship.target]
        let matches = SQLText.equal("t", target.keyColumns, "l", link.targetColumns)
        let dangling = try Row.fetchAll(
            db,
            sql: """
                SELECT l."_seq", \(SQLText.list(link.ownerColumns + link.targetColumns)), l."_file", l."_offset"
                FROM \(link.table) AS l
                WHERE NOT EXISTS (SELECT 1 FROM \(target.table) AS t WHERE \(matches))
                ORDER BY l."_seq"
                """)
        for row in dangling {
            let (ownerKey, targetKey) = keys(ofLink: row, link, from: 1)
            let base = 1 + link.ownerColumns.count + link.targetColumns.count
            if link.relationship.onMissing == .null {
                tally.counts[link.entityIndex].referencesDropped += 1
                try db.execute(sql: "DELETE FROM \(link.storedTable) WHERE \"_seq\" = ?", arguments: [row[0] as DatabaseValue])
            } else {
                missing(
                    label(owner, key: ownerKey), references: target.entity.name, targetKey, via: link.relationship,
                    at: location(file: row[base], offset: row[base + 1]))
            }
        }
        reportMissing()
        tally.counts[link.entityIndex].referencesResolved += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(link.table)") ?? 0
    }
}

/// An entity a to-one's foreign key can name (`ReferenceResolver.foreignKeyTargets`): its rows,
/// the owner's key columns for it, and through a selector the condition on the owner's row (as
/// `t`) that it chose this entity.
struct ForeignKeyTarget {
    let layout: RowLayout
    let columns: [String]
    let chosen: String?

    /// The condition on the owner's row (as `t`) that it names a row of this entity.
    var present: String {
        SQLText.notNull("t", columns) + (chosen.map { " AND \($0)" } ?? "")
    }
}
