import SeederCore
import SeederFiles

/// What the resource objects of JSON:API documents held, per resource `type`: the evidence
/// `JSONAPIDrafting` drafts an entity per type from (docs/commands.md, JSON:API).
///
///     let observation = JSONAPIObservation()
///     observation.observe(resource)   // a value `JSONAPIDocument.isResource` accepts
public final class JSONAPIObservation {
    /// The keys of one member of the resources of a type (`attributes`, `links`, `meta`), each
    /// counted as a record's keys are.
    final class Members {
        private var named = Named<KeyStats>()
        var keys: [KeyStats] { named.values }
        /// Resource objects that had the member, as an object.
        private(set) var objects = 0

        func observe(_ object: JSONValue, scratch: ShapeCatalog) {
            objects += 1
            for member in object.members {
                named.value(member.key.string ?? "", making: KeyStats.init)
                    .observe(member.value, in: scratch, record: { 0 }, fromSource: false, soleMember: false)
            }
        }
    }

    /// Values by name, in the order the names were first seen.
    struct Named<Value: AnyObject> {
        private(set) var values: [Value] = []
        private var index: [String: Int] = [:]

        /// The value named `name`, made if new.
        mutating func value(_ name: String, making make: (String) -> Value) -> Value {
            if let found = index[name] { return values[found] }
            let value = make(name)
            index[name] = values.count
            values.append(value)
            return value
        }

        subscript(name: String) -> Value? { index[name].map { values[$0] } }
    }

    /// One relationship of the resources of a type: what its resource linkage (`data`) held.
    final class Linkage {
        let name: String
        /// Resource objects that had the relationship, and of those, with `data`.
        var present = 0
        var withData = 0
        /// Linkages that were one (an object or `null`) and that were a list (an array).
        var toOne = 0
        var toMany = 0
        /// The types linked to, in first-seen order, and each `(type, id)` linked to.
        private(set) var targetTypes: [String] = []
        private(set) var targets: Set<ResourceKey> = []
        /// Linkage elements without a string `type` and `id`.
        private(set) var unreadable = 0

        init(name: String) { self.name = name }

        func observe(_ relationship: JSONValue) {
            present += 1
            guard let data = relationship["data"] else { return }
            withData += 1
            switch data.kind {
            case .null:
                toOne += 1
            case .object:
                toOne += 1
                link(data)
            case .array:
                toMany += 1
                for element in data.elements { link(element) }
            default:
                // Not a linkage: counted as neither, which drafts the relationship as `json`.
                break
            }
        }

        private func link(_ identifier: JSONValue) {
            guard let type = identifier["type"]?.string, let id = identifier["id"]?.string else {
                unreadable += 1
                return
            }
            if !targetTypes.contains(type) { targetTypes.append(type) }
            targets.insert(ResourceKey(type: type, id: id))
        }
    }

    /// A resource's identity: its type and id together.
    struct ResourceKey: Hashable {
        let type: String
        let id: String
    }

    /// Everything seen of the resources of one type.
    final class Resources {
        let type: String
        /// Distinct ids, and resource objects (one resource may be in several places).
        private(set) var ids: Set<String> = []
        private(set) var occurrences = 0
        let attributes = Members()
        let links = Members()
        /// Resource objects with a `meta` member.
        private(set) var metas = 0
        private var linkages = Named<Linkage>()
        var relationships: [Linkage] { linkages.values }

        init(type: String) { self.type = type }

        func observe(_ resource: JSONValue, id: String, scratch: ShapeCatalog) {
            ids.insert(id)
            occurrences += 1
            if let attributes = resource["attributes"] { self.attributes.observe(attributes, scratch: scratch) }
            if let links = resource["links"], links.kind == .object { self.links.observe(links, scratch: scratch) }
            if resource["meta"] != nil { metas += 1 }
            guard let relationships = resource["relationships"] else { return }
            for member in relationships.members {
                self.linkages.value(member.key.string ?? "", making: Linkage.init).observe(member.value)
            }
        }
    }

    /// The types, in the order their first resource was seen.
    private var named = Named<Resources>()
    var types: [Resources] { named.values }
    /// Where nested objects of attributes go: they are drafted `json`, so nothing reads it.
    private let scratch = ShapeCatalog()

    public init() {}

    /// Whether any resource was observed.
    public var isEmpty: Bool { types.isEmpty }

    /// Counts `resource`, a value `JSONAPIDocument.isResource` accepts.
    public func observe(_ resource: JSONValue) {
        guard let type = resource["type"]?.string, let id = resource["id"]?.string else { return }
        named.value(type, making: Resources.init).observe(resource, id: id, scratch: scratch)
    }

    /// The resources of `type`, when any was seen.
    func resources(of type: String) -> Resources? { named[type] }
}
