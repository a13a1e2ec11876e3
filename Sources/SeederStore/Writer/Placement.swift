import Foundation
import GRDB
import SeederCore
import SeederFiles

extension RowStore {
    /// Where a child goes as it is inserted: its parent's key in place of its inverse foreign key,
    /// the presence bit of that key when the link is final, and its position. All `nil` for a
    /// record that is not such a child (`RowEncoder.Parent`).
    struct Placement {
        var parentKey: (start: Int, values: [SQLValue])?
        var parentBit: (column: Int, bit: Int64)?
        var position: (column: Int, value: Int)?
    }

    /// Where a record of `layout` goes: its `parent` as `RowEncoder` found it, with the parent's key.
    func placement(
        _ layout: RowLayout, parent: (key: [SQLValue], parent: RowEncoder.Parent)?, batch: UnsafeBufferPointer<Record>
    ) -> Placement {
        var placement = Placement()
        guard let (ownerKey, parent) = parent else { return placement }
        // What `ReferenceResolver.applyInverse` would do for the link, done now; final, with its
        // presence bit, when the child takes its parent for good. The bit goes on the side row
        // only, which only a new row gets.
        let ownerEntity = batch[parent.owner].entity
        let inverse = mapping.entities[ownerEntity].relationships[parent.relationship].inverse!
        if takesParentAtInsert(parent, owner: ownerEntity, childIsNew: true) {
            placement.parentBit = RowLayout.maskIndex(layout.slot(relationship: inverse))
        }
        placement.parentKey = (layout.foreignKeyDataOffsets[inverse], ownerKey)
        if let column = layout.positionIndex(owner: ownerEntity, relationship: parent.relationship) {
            placement.position = (column, parent.position)
        }
        return placement
    }

    /// Whether a child takes `parent`, of entity `owner`, for good as its row goes in: its key,
    /// position and presence bit, and no link row. So when nothing else can claim the child
    /// (`RowEncoder.Parent.isFinal`), or when the relationship's claims stand where the child's
    /// record does (`LoadSummary.Relationship.claimsAtInsert`) and the child's row is new: a
    /// merged one's claim is a link row, settled by the resolver like any other.
    func takesParentAtInsert(_ parent: RowEncoder.Parent, owner: Int, childIsNew: Bool) -> Bool {
        parent.isFinal || (childIsNew && summary.relationships[owner][parent.relationship].claimsAtInsert)
    }
}
