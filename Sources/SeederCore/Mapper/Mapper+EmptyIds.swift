/// An empty string where an id is expected (docs/mapping.md, Missing references): no id. It is
/// a null, no link, when the target's identity attribute reads `""` as null (`emptyAsNull`);
/// otherwise the reference is an error at it (`Mapper.reference`), so that `onMissing` never
/// drops it or makes a row of it.
extension Mapper {
    /// `true` for a `""` that the target's identity attribute reads as null.
    func isNullId(_ value: JSONValue, relationship: UnsafePointer<Relationship>) -> Bool {
        guard value.isEmptyString else { return false }
        let key = keyAttributes[relationship.pointee.target]
        return key.count == 1 && key[0].pointee.emptyAsNull
    }
}
