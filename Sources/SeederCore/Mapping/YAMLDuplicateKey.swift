import CYaml

/// Where a YAML mapping repeats a key.
///
/// Yams refuses a mapping with a repeated key but names only the first occurrence; an editor
/// should land on the repetition. This walks libyaml's events again, on the error path only,
/// and finds the first mapping (in the order mappings end, as Yams checks them) that repeats
/// one of the keys Yams named.
struct YAMLDuplicateKey {
    /// The key as written.
    let key: String
    /// Where the repetition is.
    let line: Int
    let column: Int
    /// Where the key first appears in the same mapping.
    let firstLine: Int
    let firstColumn: Int

    /// The repetitions of `keys` in the first mapping that has any; empty if none is found.
    static func locate(_ keys: Set<String>, in yaml: String) -> [YAMLDuplicateKey] {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return [] }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(yaml.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return walk(&parser, keys)
        }
    }

    /// A mapping being read: the keys seen with their marks, its repetitions, and whether the
    /// next node is a key.
    private struct OpenMapping {
        var seen: [String: (line: Int, column: Int)] = [:]
        var repeated: [YAMLDuplicateKey] = []
        var expectsKey = true
    }

    private static func walk(_ parser: inout yaml_parser_t, _ keys: Set<String>) -> [YAMLDuplicateKey] {
        // One entry per open collection; sequences hold nil.
        var open: [OpenMapping?] = []
        var event = yaml_event_t()
        while yaml_parser_parse(&parser, &event) == 1 {
            defer { yaml_event_delete(&event) }
            let type = event.type
            let line = Int(event.start_mark.line) + 1
            let column = Int(event.start_mark.column) + 1
            // A node that starts here is a key when its parent is a mapping expecting one.
            let isKey = open.last.flatMap { $0?.expectsKey } ?? false
            switch type {
            case YAML_STREAM_END_EVENT:
                return []
            case YAML_SCALAR_EVENT, YAML_ALIAS_EVENT:
                if isKey, type == YAML_SCALAR_EVENT {
                    let value = String(
                        decoding: UnsafeBufferPointer(start: event.data.scalar.value, count: event.data.scalar.length), as: UTF8.self)
                    if let first = open[open.count - 1]!.seen[value] {
                        if keys.contains(value) {
                            open[open.count - 1]!.repeated.append(
                                YAMLDuplicateKey(key: value, line: line, column: column, firstLine: first.line, firstColumn: first.column))
                        }
                    } else {
                        open[open.count - 1]!.seen[value] = (line, column)
                    }
                }
                toggle(&open)
            case YAML_MAPPING_START_EVENT:
                open.append(OpenMapping())
            case YAML_SEQUENCE_START_EVENT:
                open.append(nil)
            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                if let mapping = open.removeLast(), !mapping.repeated.isEmpty { return mapping.repeated }
                toggle(&open)
            default:
                break
            }
        }
        return []
    }

    /// A node ended inside the innermost collection: a mapping now expects the other half.
    private static func toggle(_ open: inout [OpenMapping?]) {
        guard let last = open.indices.last, open[last] != nil else { return }
        open[last]!.expectsKey.toggle()
    }
}
