import SeederCore
import SeederFiles

/// `seeder infer --json`: the draft and what it was drafted from, as one document
/// (docs/json.md, infer).
extension InferReport {
    /// The document; `output` is the file the draft was written to, if any.
    public func json(dumps: String, output: String?) -> String {
        var json = JSONStreamWriter()
        json.object { json in
            JSONDocumentKind.infer.writeHeader(to: &json)
            outcome.write(to: &json)
            json.member("output", output)
            json.member("dumps", dumps)
            json.member("inputs") { $0.array(inputs.map(\.path)) }
            json.member("records", records)
            json.lineBreak()
            json.member("entities", objects: mapping?.entities ?? []) { Self.write($1, to: &$0) }
            json.lineBreak()
            json.member("sources", objects: mapping?.sources ?? []) { json, source in
                json.member("path", source.path)
                json.member("entity", source.selector == nil ? source.entity : nil)
                json.member("selector") { Self.write(source.selector, to: &$0) }
                json.member("keyPath") { $0.array(source.keyPath) }
                json.member("keyedBy", source.keyedBy)
            }
            json.lineBreak()
            json.member("diagnostics") { json in
                json.array { json in
                    for diagnostic in diagnostics { diagnostic.write(to: &json) }
                }
            }
            json.lineBreak()
            json.member("draft", draft)
        }
        return json.text
    }

    /// An entity's members: what the draft says of it, in short.
    private static func write(_ entity: InferredMapping.Entity, to json: inout JSONStreamWriter) {
        json.member("name", entity.name)
        json.member("records", entity.records)
        if let owned = entity.ownedIdentity {
            json.member("identity") { $0.array(owned) }
        } else {
            json.member("identity", entity.identity)
        }
        json.member("attributes", objects: entity.attributes) { json, attribute in
            json.member("name", attribute.name)
            json.member("type", attribute.type.rawValue)
            json.member("required", attribute.required)
        }
        json.member("relationships", objects: entity.relationships) { json, relationship in
            json.member("name", relationship.name)
            json.member("to", relationship.selector == nil ? relationship.target : nil)
            json.member("selector") { Self.write(relationship.selector, to: &$0) }
            json.member("many", relationship.many)
        }
    }

    /// `{"by": "type", "cases": {"apps": "App"}}`, or `null` for one entity.
    private static func write(_ selector: InferredMapping.Selector?, to json: inout JSONStreamWriter) {
        guard let selector else { return json.null() }
        json.object { json in
            json.member("by", selector.by)
            json.member("cases") { json in
                json.object { json in for choice in selector.cases { json.member(choice.value, choice.entity) } }
            }
        }
    }
}
