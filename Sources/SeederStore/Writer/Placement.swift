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
        // What `ReferenceResolver.applyInverse` would do for the link, done now. Final, with
        // its presence bit, when nothing else can claim the child, or when the claim stands
        // where the child's record does (`LoadSummary.Relationship.claimsAtInsert`): the bit goes on the side row
        // only, which only a new row gets.
        let ownerEntity = batch[parent.owner].entity
        let inverse = mapping.entities[ownerEntity].relationships[parent.relationship].inverse!
        if parent.isFinal || claimsAtInsert(entity: ownerEntity, relationship: parent.relationship) {
            placement.parentBit = RowLayout.maskIndex(layout.slot(relationship: inverse))
        }
        placement.parentKey = (layout.foreignKeyDataOffsets[inverse], ownerKey)
        if let column = layout.positionIndex(owner: ownerEntity, relationship: parent.relationship) {
            placement.position = (column, parent.position)
        }
        return placement
    }
}
