/// Polymorphism (docs/mapping.md, Polymorphism): the entity a selector picks for an object, by
/// the value at its `by`.
extension Mapper {
    /// The entity `selector` picks for `value`, a record of a source, or `nil` after an error at
    /// it. A bare id (not an object) has no `by` to read: it is the default's.
    public func entity(of value: JSONValue, chosenBy selector: EntitySelector, file: String, diagnostics: DiagnosticSink) -> Int? {
        let isObject = value.kind == .object
        let choice = choose(selector, in: isObject ? value : nil)
        if let entity = choice.entity { return entity }
        let location = SourceLocation(file: file, offset: choice.value?.fileOffset ?? value.fileOffset)
        let message =
            isObject
            ? choice.message(by: selector, of: "the source")
            : "a bare id has no '\(selector.by)' to pick its entity, and the source has no default (cases: \(selector.caseValues))"
        diagnostics.error(.selector, message, at: location, jsonPath: (choice.value ?? value).pointer.description)
        return nil
    }

    /// The entity `selector` picks for `object` (the object being mapped, or for a bare id the
    /// record holding it), or `nil` after an error about the record.
    func entity(chosenBy selector: EntitySelector, in object: JSONValue?, for relationship: String, context: inout RecordContext) -> Int? {
        let choice = choose(selector, in: object)
        if let entity = choice.entity { return entity }
        context.error(.selector, choice.message(by: selector, of: "'\(relationship)'"), at: choice.value ?? object)
        return nil
    }

    /// The value at `by` in `object`, and the entity it picks.
    private func choose(_ selector: EntitySelector, in object: JSONValue?) -> SelectorChoice {
        var reached: JSONValue?
        if let object, case let .json(value)? = try? selector.by.evaluate(on: object) { reached = value }
        guard let reached, !reached.isNull else {
            return SelectorChoice(entity: selector.defaultEntity, value: reached, text: nil)
        }
        let text: String?
        switch reached.kind {
        case .string: text = reached.string
        case .number: text = reached.numberText
        case .true: text = "true"
        case .false: text = "false"
        default: text = nil
        }
        // An object or an array picks nothing, even with a default: it is not a value of `by`.
        guard let text else { return SelectorChoice(entity: nil, value: reached, text: nil) }
        return SelectorChoice(entity: selector.entity(forValue: text), value: reached, text: text)
    }

    /// One target of a relationship to a selector: an embedded record of the entity its object
    /// picks, or a reference, whose key ends with the entity's name (`RecordReference`). An
    /// object holding only that entity's identity and the `by` key is a reference; a bare id
    /// reads `by` in the record that holds it, as Rails stores `commentable_type` beside
    /// `commentable_id`.
    @inline(never)
    func target(
        for item: MappedValue, chosenBy selector: EntitySelector, relationship: UnsafePointer<Relationship>, batch: inout [Record],
        context: inout RecordContext
    ) -> RecordReference? {
        let name = relationship.pointee.name
        if case let .json(value) = item, value.kind == .object {
            guard let entity = entity(chosenBy: selector, in: value, for: name, context: &context) else { return nil }
            if isIdentityStub(value, target: entity, besides: selector.by.keys.first) {
                return typed(reference(item, relationship: relationship, target: entity, context: &context), entity)
            }
            let origin = Record.Origin(file: context.origin.file, offset: value.fileOffset)
            return map(
                value, entity: entity, origin: origin, owner: ownerKey(for: relationship, target: entity, context: context),
                diagnostics: context.diagnostics, into: &batch
            ).map(RecordReference.embedded)
        }
        if item.isNull { return nil }
        if case .absent = item { return nil }
        guard let entity = entity(chosenBy: selector, in: context.record, for: name, context: &context) else { return nil }
        return typed(reference(item, relationship: relationship, target: entity, context: &context), entity)
    }

    /// A reference through a selector: its key with the entity's name after it.
    private func typed(_ reference: RecordReference?, _ entity: Int) -> RecordReference? {
        guard case let .identity(key, offset) = reference else { return reference }
        return .identity(IdentityKey(key.values + [.text(entities[entity].entity.name)]), offset: offset)
    }

    /// The index, on `entity`, of the attribute that `keyedBy` names by its index on `first` (a
    /// selector's first entity): every entity a selector can choose declares it.
    public func keyedAttribute(_ attribute: Int, of first: Int, on entity: Int) -> Int {
        guard entity != first else { return attribute }
        return entities[entity].entity.attributeIndex(named: entities[first].attributes[attribute].name) ?? attribute
    }
}

/// What a selector made of an object: the entity, or why there is none.
private struct SelectorChoice {
    var entity: Int?
    /// The value at `by`, if the object has one.
    var value: JSONValue?
    /// The value as the cases spell it; `nil` when missing, null, or an object or array.
    var text: String?

    /// Why no entity was chosen: `'type' is "gif", which no case of 'feed' names (cases: link, photo, video)`.
    func message(by selector: EntitySelector, of owner: String) -> String {
        var cases = "(cases: \(selector.caseValues))"
        // A value close to a case is most often a typo on one side or the other.
        if let text, let near = closestMatch(to: text, in: selector.cases.map(\.value)) {
            cases = "(cases: \(selector.caseValues); \(Wording.question(suggesting: near)))"
        }
        guard let value else { return "'\(selector.by)' is missing, and \(owner) has no default \(cases)" }
        if value.isNull { return "'\(selector.by)' is null, and \(owner) has no default \(cases)" }
        guard let text else { return "'\(selector.by)' is \(describeKind(value.kind)); expected a value naming a case \(cases)" }
        let shown = value.kind == .string ? quoted(text) : text
        return "'\(selector.by)' is \(shown), which no case of \(owner) names \(cases)"
    }
}
