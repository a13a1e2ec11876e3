import SeederCore
import SeederFiles

/// JSON:API documents (jsonapi.org), as `seeder infer` tells them from other objects
/// (docs/commands.md, JSON:API): `{"data": ..., "included": [...], "links": ..., "meta": ...}`,
/// whose resource objects are `{"type", "id", "attributes", "relationships", "links", "meta"}`.
///
/// The test is strict on purpose: `{"data": [...]}` wraps the records of many APIs that are not
/// JSON:API, so only a root of JSON:API's members and resource objects of its members, each with
/// a string `type` and `id`, is one.
public enum JSONAPIDocument {
    /// Where a document's resource objects are: its primary data, then the resources it includes.
    public static let places = ["data", "included"]
    static let topLevelMembers: Set<String> = ["data", "included", "links", "meta", "jsonapi"]
    static let resourceMembers: Set<String> = ["type", "id", "attributes", "relationships", "links", "meta"]

    /// Whether a root object with these keys may be a document: it has `data`, and nothing JSON:API
    /// does not define.
    public static func mayBe(rootKeys keys: some Collection<String>) -> Bool {
        keys.contains("data") && keys.allSatisfy(topLevelMembers.contains)
    }

    /// Whether `root` is a document: `data` is `null`, a resource object or an array of them, and
    /// `included`, when there, an array of them.
    public static func isDocument(_ root: JSONValue) -> Bool {
        guard root.kind == .object, mayBe(rootKeys: root.members.map { $0.key.string ?? "" }) else { return false }
        for place in places {
            guard let value = root[place] else { continue }
            guard accepts(value, in: place) else { return false }
        }
        return true
    }

    /// Whether the value at `place` is what JSON:API puts there; its elements are checked too.
    static func accepts(_ value: JSONValue, in place: String) -> Bool {
        switch value.kind {
        case .null: return place == "data"
        case .object: return place == "data" && isResource(value)
        case .array: return value.elements.allSatisfy(isResource)
        default: return false
        }
    }

    /// A resource object: a string `type` and `id`, `attributes` and `relationships` objects, and
    /// no member JSON:API does not define.
    public static func isResource(_ value: JSONValue) -> Bool {
        guard value.kind == .object, value["type"]?.kind == .string, value["id"]?.kind == .string else { return false }
        for member in value.members {
            guard let key = member.key.string, resourceMembers.contains(key) else { return false }
            if key == "attributes" || key == "relationships", member.value.kind != .object { return false }
        }
        return true
    }
}
