import Foundation
import GRDB
import SeederCore
import SeederFiles

/// The resolver's second stage: each one-to-many with `inverse` sets its children's foreign keys
/// (docs/mapping.md, Relationships), settling a child that two parents claim by `onConflict`.
extension ReferenceResolver {
    /// Applies the links of `linked`, the link tables that hold rows (an empty one sets nothing
    /// and misses nothing), in order. The to-manys that set one inverse (`tasks` and `archived`,
    /// both a Task's `project`) claim the same children: their links are applied together, in
    /// dump order, so that `onConflict` and a conflict's message follow the dumps, not the
    /// order the relationships are written in (docs/mapping.md, Merging).
    func applyInverseLinks(_ linked: [LinkLayout]) throws {
        var groups: [(shared: SharedInverse, links: [LinkLayout])] = []
        var groupOf: [SharedInverse: Int] = [:]
        for link in linked {
            let inverse: Int
            switch link.kind {
            case let .claims(claimed): inverse = claimed
            case .joinRows: continue
            }
            let shared = SharedInverse(link, inverse: inverse)
            if let group = groupOf[shared] {
                groups[group].links.append(link)
            } else {
                groupOf[shared] = groups.count
                groups.append((shared, [link]))
            }
        }
        for (index, group) in groups.enumerated() {
            guard group.links.count == 1 else {
                try applyInverseInOrder(group.links)
                continue
            }
            // A child's presence bit for its parent tells a later link to the same inverse that
            // the child is taken (links of another key width, which share no table); nothing
            // after the last such link reads it.
            let isRead = groups[(index + 1)...].contains {
                $0.shared.target == group.shared.target && $0.shared.inverse == group.shared.inverse
            }
            try applyInverse(group.links[0], marksChildren: isRead)
        }
    }

    /// The links that set one inverse and can be read as one list: the child entity and its
    /// inverse, and the widths of the owner's and the child's keys.
    private struct SharedInverse: Hashable {
        let target: Int
        let inverse: Int
        let ownerWidth: Int
        let targetWidth: Int

        init(_ link: LinkLayout, inverse: Int) {
            (target, self.inverse) = (link.relationship.target, inverse)
            (ownerWidth, targetWidth) = (link.ownerColumns.count, link.targetColumns.count)
        }
    }

    /// A one-to-many with `inverse`: each link sets the child's foreign key to its parent (and
    /// its position when ordered). A child claimed by two parents is an identity conflict.
    ///
    /// Set-based when nothing conflicts, which is the usual case: one query looks for a child
    /// that a link's owner would take from another parent (its own record's, or another link's),
    /// and finding none, one `UPDATE ... FROM` sets every link. A conflict takes the links one by
    /// one, in dump order, as the rules are written. The check comes first because the working
    /// database runs with `journal_mode = OFF`, where a rollback cannot undo an update.
    /// `marksChildren` sets each linked child's presence bit for its parent, which only a later
    /// link to the same inverse reads.
    func applyInverse(_ link: LinkLayout, marksChildren: Bool) throws {
        let (child, _, foreignKey, maskColumn, bit, position) = inverseColumns(of: link)
        let side = try tables.sideTable(of: child)
        let mask = SQLText.quote(maskColumn)
        let joined = SQLText.equal("c", child.keyColumns, "l", link.targetColumns)
        let claimed = zip(foreignKey, link.ownerColumns).map { "c.\(SQLText.quote($0)) IS l.\(SQLText.quote($1))" }
            .joined(separator: " AND ")
        let unset = foreignKey.map { "c.\(SQLText.quote($0)) IS NULL" }.joined(separator: " AND ")
        let sameTarget = SQLText.equal("m", link.targetColumns, "l", link.targetColumns)
        let sameOwner = link.ownerColumns.map { "m.\(SQLText.quote($0)) IS l.\(SQLText.quote($0))" }.joined(separator: " AND ")

        let conflicting =
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM \(link.table) AS l JOIN \(child.table) AS c ON \(joined)
                                   JOIN \(side) AS cs ON cs."_row" = c."rowid"
                                   WHERE cs.\(mask) & \(bit) != 0 AND NOT (\(unset)) AND NOT (\(claimed)))
                        OR EXISTS (SELECT 1 FROM \(link.table) AS l JOIN \(link.table) AS m ON \(sameTarget)
                                   WHERE m."_seq" > l."_seq" AND NOT (\(sameOwner)))
                    """) ?? false
        guard !conflicting else { return try applyInverseInOrder([link]) }
        var assignments = zip(foreignKey, link.ownerColumns).map { "\(SQLText.quote($0)) = l.\(SQLText.quote($1))" }
        if let position { assignments.append("\(SQLText.quote(position)) = l.\"_position\"") }
        // Children inserted inside their parent already hold its key and position
        // (`RowEncoder.Parent`): only the others are written.
        let unchanged = [claimed] + (position.map { ["c.\(SQLText.quote($0)) IS l.\"_position\""] } ?? [])
        try db.execute(
            sql: """
                UPDATE \(child.table) AS c SET \(assignments.joined(separator: ", ")) FROM \(link.table) AS l
                WHERE \(joined) AND NOT (\(unchanged.joined(separator: " AND ")))
                """)
        if marksChildren {
            try db.execute(
                sql: """
                    UPDATE \(side) SET \(mask) = \(mask) | \(bit)
                    WHERE "_row" IN (SELECT c."rowid" FROM \(link.table) AS l JOIN \(child.table) AS c ON \(joined))
                    """)
        }
        // Links to embedded children name rows inserted with them: only a link by identity can
        // miss its child.
        guard load[link: link].hasLinkByIdentity else { return }
        let missing = try Row.fetchCursor(
            db,
            sql: """
                SELECT \(SQLText.list(link.ownerColumns + link.targetColumns)), "_file", "_offset" FROM \(link.table) AS l
                WHERE NOT EXISTS (SELECT 1 FROM \(child.table) AS c WHERE \(joined)) ORDER BY "_seq"
                """)
        while let row = try missing.next() {
            let (ownerKey, childKey) = keys(ofLink: row, link)
            let base = link.ownerColumns.count + link.targetColumns.count
            reportMissing(link, owner: ownerKey, child: childKey, at: location(file: row[base], offset: row[base + 1]))
        }
        reportMissing()
    }

    /// `applyInverse` one link at a time, in dump order, settling each conflict by `onConflict`:
    /// the links of `links`, which all set one inverse (`SharedInverse`), read as one list.
    func applyInverseInOrder(_ links: [LinkLayout]) throws {
        let (child, inverse, foreignKey, maskColumn, bit, _) = inverseColumns(of: links[0])
        let side = try tables.sideTable(of: child)
        // A cursor, not an array: the links of a large dump do not fit in flat memory.
        let union = links.enumerated().map { index, link in
            """
            SELECT \(SQLText.list(link.ownerColumns + link.targetColumns)), "_position", "_file", "_offset", "_seq", \(index) AS "_link"
            FROM \(link.table)
            """
        }
        let rows = try Row.fetchCursor(
            db, sql: "SELECT * FROM (\(union.joined(separator: " UNION ALL "))) ORDER BY \(LinkLayout.sourceOrder)")
        let select = try db.makeStatement(
            sql: """
                SELECT t."rowid", s.\(SQLText.quote(maskColumn)), \(foreignKey.map { "t.\(SQLText.quote($0))" }.joined(separator: ", ")),
                       s."_fields", s."_file", s."_offset"
                FROM \(child.joined(side)) WHERE \(child.keyCondition("t"))
                """)
        // Per link, the update of the child's key, and its position when that to-many is ordered.
        let updates = try links.map { link in
            var assignments = foreignKey.map { "\(SQLText.quote($0)) = ?" }
            let position = inverseColumns(of: link).position
            if let position { assignments.append("\(SQLText.quote(position)) = ?") }
            return (
                position: position != nil,
                statement: try db.makeStatement(
                    sql: "UPDATE \(child.table) SET \(assignments.joined(separator: ", ")) WHERE \"rowid\" = ?")
            )
        }
        // The claim's place goes with it, for the message of a later claim.
        let mask = SQLText.quote(maskColumn)
        let mark = try db.makeStatement(sql: "UPDATE \(side) SET \(mask) = \(mask) | \(bit), \"_fields\" = ? WHERE \"_row\" = ?")
        let slot = child.slot(relationship: inverse)
        // Where the columns after the keys start: the links of one `SharedInverse` have one width.
        let base = links[0].ownerColumns.count + links[0].targetColumns.count
        while let row = try rows.next() {
            let linkIndex: Int = row[base + 4]
            let link = links[linkIndex]
            let (ownerKey, childKey) = keys(ofLink: row, link)
            let linkLocation = location(file: row[base + 1], offset: row[base + 2])
            guard let current = try Row.fetchOne(select, arguments: StatementArguments(childKey)) else {
                reportMissing(link, owner: ownerKey, child: childKey, at: linkLocation)
                continue
            }
            let present = (current[1] as Int64) & bit != 0
            let existing = foreignKey.indices.map { current[2 + $0] as DatabaseValue }
            if present, !existing.allSatisfy({ $0 == .null }), existing != ownerKey {
                let policy = child.entity.onConflict
                if policy == .error {
                    let (here, there) = (IdentityKey(ownerKey.map(SQLValue.init)), IdentityKey(existing.map(SQLValue.init)))
                    var diagnostic = Diagnostic.error(
                        .conflict,
                        "\(label(child, key: childKey)): '\(child.entity.relationships[inverse].name)' conflicts: \(here) here, \(there)",
                        at: linkLocation)
                    diagnostic.relatedLocation = origin(ofSlot: child.slot(relationship: inverse), in: current, from: 2 + foreignKey.count)
                    diagnostics.report(diagnostic)
                    continue
                }
                tally.counts[child.entityIndex].conflictsResolved += 1
                if policy == .first { continue }
            }
            let update = updates[linkIndex]
            var arguments = ownerKey
            if update.position { arguments.append(row[base] as DatabaseValue) }
            arguments.append(current[0] as DatabaseValue)
            try update.statement.execute(arguments: StatementArguments(arguments))
            let origins = 2 + foreignKey.count
            let fields = RowLayout.replacingOrigin(
                ofSlot: slot, in: Array(current[origins] as Data), rowFile: current[origins + 1],
                rowOffset: current[origins + 2], with: (row[base + 1], row[base + 2]))
            try mark.execute(arguments: [Data(fields), current[0] as DatabaseValue])
        }
        reportMissing()
    }
}
