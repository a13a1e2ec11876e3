import Foundation

/// The `Link` header (RFC 8288): `<https://api.github.com/...&page=2>; rel="next", <...>; rel="last"`.
/// A response may send several `Link` headers; each may hold several links, and a link's
/// `rel` several space-separated relation types.
enum LinkHeader {
    /// The target of the first link whose relation types include `relation` (case-insensitive).
    static func target(rel relation: String, in values: [String]) -> String? {
        for value in values {
            for link in links(in: value) where link.relations.contains(relation.lowercased()) {
                return link.target
            }
        }
        return nil
    }

    /// The links of one header value, in order; a link that cannot be read is skipped.
    static func links(in value: String) -> [(target: String, relations: [String])] {
        var result: [(String, [String])] = []
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let target = String(rest[..<close])
            rest = rest[rest.index(after: close)...]
            // The parameters run to the next comma outside a quoted string.
            var parameters = ""
            var quoted = false
            var escaped = false
            while let character = rest.first {
                if !quoted, character == "," { break }
                rest.removeFirst()
                if escaped {
                    escaped = false
                } else if quoted, character == "\\" {
                    escaped = true
                    continue
                } else if character == "\"" {
                    quoted.toggle()
                    continue
                }
                parameters.append(character)
            }
            var relations: [String] = []
            for parameter in parameters.split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else { continue }
                relations = pair[1].trimmingCharacters(in: .whitespaces).lowercased().split(separator: " ").map(String.init)
            }
            result.append((target, relations))
        }
        return result
    }
}
