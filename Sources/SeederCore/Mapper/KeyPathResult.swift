/// The one JSON value a key path reaches in a document, for code that reads a value out of JSON
/// rather than mapping records: a page's next URL (`links.next`), its cursor (`data.@last.id`),
/// its total (`data.total`).
///
///     let path = try KeyPath(parsing: "data.@last.id")
///     switch path.jsonValue(in: page.root) {
///     case let .value(id): cursor = id.string ?? id.numberText
///     case .absent, .null: cursor = nil                          // no further page
///     case let .failure(message, _): throw PageError(message)    // `data` is not an array
///     }
public enum KeyPathResult: Sendable {
    /// Nothing: a key is missing, or a key met a string, a number or a boolean (Key-Value
    /// Coding's rule, docs/mapping.md, Key paths).
    case absent
    /// `null`: the value reached is JSON `null`, a key met `null`, or `@first` or `@last` met an
    /// empty array (or an array whose first or last element is `null`).
    case null
    /// The value reached, never JSON `null`: a value of the document searched, so its
    /// `fileOffset` and `pointer` say where it stands.
    case value(JSONValue)
    /// The key path cannot reach one value here. `message` says why, as a mapping's messages say
    /// it (`'@last' needs an array, found an object`); `at` is the value at fault, when there is
    /// one. A key applied to an array reaches one value per element, not one; `@first` and
    /// `@last` need an array; the other operators and `@file.N` give no value of the document
    /// (`reachesJSONValue` tells them apart before any document is read).
    case failure(message: String, at: JSONValue?)
}

extension KeyPath {
    /// `true` when `jsonValue(in:)` can reach a value: keys, with at most `@first` or `@last` for
    /// an operator, and not `@file.N`. What a loader of key paths meant for `jsonValue(in:)`
    /// checks, to report the others at their node.
    public var reachesJSONValue: Bool {
        guard fileStar == nil, !isRest else { return false }
        return collectionOperator == nil || collectionOperator == .first || collectionOperator == .last
    }

    /// The JSON value the key path reaches from `root`, with the semantics of a mapping's key
    /// paths (docs/mapping.md, Key paths): each key reads an object's member; `null` gives
    /// `null`; a missing key, or a key on a string, number or boolean, gives `.absent`. `@first.K`
    /// and `@last.K` take the first or last element of the array the keys before them reach,
    /// then follow K in it. A key applied to an array, which a mapping reads as one value per
    /// element, is a `.failure` here, as is any key path for which `reachesJSONValue` is
    /// `false`.
    ///
    ///     // {"data": [{"id": "cus_1"}, {"id": "cus_2"}], "has_more": true}
    ///     try KeyPath(parsing: "data.@last.id").jsonValue(in: body)    // .value("cus_2")
    ///     try KeyPath(parsing: "links.next").jsonValue(in: body)       // .absent
    public func jsonValue(in root: JSONValue) -> KeyPathResult {
        if let fileStar {
            return .failure(message: "'@file.\(fileStar)' reads a record's file name, not a value of the document", at: nil)
        }
        if isRest { return .failure(message: "'@rest' gathers a record's members, not a value of the document", at: nil) }
        if let collectionOperator, !reachesJSONValue {
            return .failure(
                message:
                    "'@\(collectionOperator.rawValue)' computes a value that is not in the document; only '@first' and '@last' reach one",
                at: nil)
        }
        let reached: MappedValue
        do {
            reached = try evaluate(on: root)
        } catch {
            return .failure(message: error.message, at: error.value)
        }
        switch reached {
        case .absent: return .absent
        case .null: return .null
        case let .json(value): return value.isNull ? .null : .value(value)
        case .list: return .failure(message: "'\(self)' reaches a value per element of an array, not one value", at: nil)
        case .number, .fileText: return .failure(message: "'\(self)' gives no value of the document", at: nil)
        }
    }
}
