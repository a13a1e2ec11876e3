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
            try checkForeignKeys(of: layout, checked: count)
        }
        let linkTallies = try tallyLinks(joinLinks.filter { !$0.isCaseView })
        for layout in joinLinks {
            try checkJoinLinks(layout, held: layout.isCaseView ? nil : linkTallies[layout.stored, default: LinkTally()])
            count()
        }
    }

    /// What a link table holds for each relationship (its `_rel`) before the check: how many
    /// links, and which relationships have a link that names no target row.
    struct LinkTally {
        var rows: [Int: Int] = [:]
        var dangling: Set<Int> = []
    }

    /// The `LinkTally` of each link table of `links` (none a case's view): the rows counted in one
    /// pass a table, through the pair index, which leads with `_rel`; the relationships with a
    /// dangling link found with one query for those of a table to one entity, whose links are
    /// then read one relationship at a time (`checkJoinLinks`), as many as that one has. A query
    /// a relationship was thousands in a big mapping (bench/README.md, Big mappings).
    private func tallyLinks(_ links: [LinkLayout]) throws -> [LinkTable: LinkTally] {
        var tallies: [LinkTable: LinkTally] = [:]
        let relationship = SQLText.quote(LinkTable.relationshipColumn)
        for table in Set(links.map(\.stored)) {
            // Read as they come: a big mapping's thousands of rows at once were megabytes.
            let rows = try Row.fetchCursor(db, sql: "SELECT \(relationship), COUNT(*) FROM \(table.table) GROUP BY \(relationship)")
            while let row = try rows.next() { tallies[table, default: LinkTally()].rows[row[0]] = row[1] }
        }
        let groups = Dictionary(grouping: links) { LinkGroup(table: $0.stored, target: $0.relationship.target) }
        for (group, links) in groups.sorted(by: { ($0.key.target, $0.key.table.name) < ($1.key.target, $1.key.table.name) }) {
            let numbers = links.map { String($0.number) }.joined(separator: ", ")
            let dangling = try Int.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT l.\(relationship) FROM \(group.table.table) AS l
                    WHERE l.\(relationship) IN (\(numbers)) AND \(namesNoRow(links[0]))
                    """)
            tallies[group.table, default: LinkTally()].dangling.formUnion(dangling)
        }
        return tallies
    }

    /// Links of one shape to one entity.
    private struct LinkGroup: Hashable {
        let table: LinkTable
        let target: Int
    }

    /// The condition that a link of `link`'s (as `l`) names no row of its target.
    private func namesNoRow(_ link: LinkLayout) -> String {
        let target = tables.layouts[link.relationship.target]
        return "NOT EXISTS (SELECT 1 FROM \(target.table) AS t WHERE \(SQLText.equal("t", target.keyColumns, "l", link.targetColumns)))"
    }

    /// Each to-one's foreign keys must name rows that exist; others follow `onMissing`. Only one
    /// that a record names by identity can dangle (`LoadSummary.Relationship.referencedByIdentity`):
    /// the others were set from rows the load inserted, and are only counted.
    /// (`SeedChecks.check` still checks every key of the finished file.) `checked` hears of each
    /// to-one once it is.
    ///
    /// The seed's index of a key is built now rather than after the load, when there is one
    /// (not in `validate`): the keys are counted from it, and each distinct value is looked up
    /// once (a graph's million tasks name 20,000 users); the index costs what it would have
    /// later. The keys without one are counted in one scan of the table for all of them: a
    /// statement each was thousands in a big mapping (bench/README.md, Big mappings).
    func checkForeignKeys(of layout: RowLayout, checked: () -> Void) throws {
        let toOnes = layout.entity.relationships.indices.filter { !layout.entity.relationships[$0].isToMany }
        // Each to-one's targets, with the seed's index of its columns where it gets one.
        let targets = toOnes.map { index in
            foreignKeyTargets(layout, relationship: index).filter { !$0.columns.isEmpty }.map { ($0, seedIndex(of: layout, $0)) }
        }
        let unindexed = zip(toOnes, targets).flatMap { index, targets in
            targets.filter { $0.1 == nil }.map { ($0.0, load[entity: layout.entityIndex, relationship: index]) }
        }
        var scanned = try scanCounts(layout, unindexed).makeIterator()
        // Together: each index's `CREATE` reads the whole schema, which a cache sized once holds.
        try SeedFinisher.createIndexes(targets.joined().compactMap(\.1), in: db)
        for (index, targets) in zip(toOnes, targets) {
            for (target, seedIndex) in targets {
                let counted = seedIndex == nil ? scanned.next() : nil
                try checkForeignKey(layout, relationship: index, to: target, counted: counted)
            }
            checked()
        }
    }

    /// How many of a to-one's keys are present, and of them how many name no row.
    typealias KeyCount = (keys: Int, dangling: Int)

    /// The index the seed gets on a to-one's columns and the resolver builds now, if any. A
    /// selector's columns have no index of their own (`SeedSchema`).
    private func seedIndex(of layout: RowLayout, _ target: ForeignKeyTarget) -> SeedSchema.Index? {
        target.chosen == nil ? indexes[Publication.IndexedColumns(table: layout.entity.table, columns: target.columns)] : nil
    }

    /// The `KeyCount` of each of `targets` (its dangling keys only where the load says a record
    /// named it by identity), from one scan of `layout`'s table a few hundred of them.
    private func scanCounts(_ layout: RowLayout, _ targets: [(ForeignKeyTarget, LoadSummary.Relationship)]) throws -> [KeyCount] {
        var counts: [KeyCount] = []
        // Two result columns each, well within SQLite's 2,000.
        for part in stride(from: 0, to: targets.count, by: 500) {
            var aggregates: [String] = []
            for (target, relationship) in targets[part..<min(part + 500, targets.count)] {
                let present = "(\(target.present))"
                aggregates.append("COALESCE(SUM(CASE WHEN \(present) THEN 1 ELSE 0 END), 0)")
                guard relationship.referencedByIdentity else {
                    aggregates.append("0")
                    continue
                }
                let matches = SQLText.equal("x", target.layout.keyColumns, "t", target.columns)
                let named = "EXISTS (SELECT 1 FROM \(target.layout.table) AS x WHERE \(matches))"
                aggregates.append("COALESCE(SUM(CASE WHEN \(present) AND NOT \(named) THEN 1 ELSE 0 END), 0)")
            }
            let row = try Row.fetchOne(db, sql: "SELECT \(aggregates.joined(separator: ", ")) FROM \(layout.table) AS t")
            for pair in 0..<aggregates.count / 2 {
                counts.append((row?[2 * pair] ?? 0, row?[2 * pair + 1] ?? 0))
            }
        }
        return counts
    }

    /// Checks one entity a to-one can name: with the counts `scanCounts` gave it, or, without
    /// them, through the seed's index of its columns, built by now (`checkForeignKeys`).
    private func checkForeignKey(_ layout: RowLayout, relationship index: Int, to target: ForeignKeyTarget, counted scanned: KeyCount?)
        throws
    {
        let columns = target.columns
        let matches = SQLText.equal("x", target.layout.keyColumns, "t", columns)
        let counted: KeyCount
        if let scanned {
            counted = scanned
        } else {
            let keys = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(layout.table) AS t WHERE \(target.present)") ?? 0
            guard load[entity: layout.entityIndex, relationship: index].referencedByIdentity else {
                tally.counts[layout.entityIndex].referencesResolved += keys
                return
            }
            let danglingKeys = SQLText.danglingKeys(layout.table, columns, parent: target.layout.table, target.layout.keyColumns)
            counted = (keys, try Int.fetchOne(db, sql: "SELECT COUNT(*) \(danglingKeys)") ?? 0)
        }
        // Only dangling keys need the rows' origins, and rows may share a dangling key.
        var dropped = 0
        if counted.dangling > 0 { dropped = try settleDangling(layout, relationship: index, to: target, matches: matches) }
        tally.counts[layout.entityIndex].referencesResolved += counted.keys - dropped
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

    /// A many-to-many's links must name target rows that exist. `held`: what its link table held
    /// before the checks (`tallyLinks`), or `nil` for the links to be read here.
    func checkJoinLinks(_ link: LinkLayout, held: LinkTally?) throws {
        let owner = tables.layouts[link.entityIndex]
        let target = tables.layouts[link.relationship.target]
        let dangling =
            held?.dangling.contains(link.number) == false
            ? []
            : try Row.fetchAll(
                db,
                sql: """
                    SELECT l."_seq", \(SQLText.list(link.ownerColumns + link.targetColumns)), l."_file", l."_offset"
                    FROM \(link.table) AS l WHERE \(namesNoRow(link)) ORDER BY l."_seq"
                    """)
        var dropped = 0
        for row in dangling {
            let (ownerKey, targetKey) = keys(ofLink: row, link, from: 1)
            let base = 1 + link.ownerColumns.count + link.targetColumns.count
            if link.relationship.onMissing == .null {
                dropped += 1
                try db.execute(sql: "DELETE FROM \(link.storedTable) WHERE \"_seq\" = ?", arguments: [row[0] as DatabaseValue])
            } else {
                missing(
                    label(owner, key: ownerKey), references: target.entity.name, targetKey, via: link.relationship,
                    at: location(file: row[base], offset: row[base + 1]))
            }
        }
        reportMissing()
        tally.counts[link.entityIndex].referencesDropped += dropped
        let rows = try held.map { $0.rows[link.number] ?? 0 } ?? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(link.table)") ?? 0
        tally.counts[link.entityIndex].referencesResolved += rows - dropped
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
