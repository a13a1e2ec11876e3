/// A diagnostic as the JSON documents give it (docs/json.md, Diagnostics): what the printed line
/// says, in parts, with the code tools filter on.
extension Diagnostic {
    /// Writes the diagnostic as one object, members in a fixed order.
    public func write(to json: inout JSONStreamWriter) {
        json.object { json in
            json.member("severity", severity.rawValue)
            json.member("code", code.rawValue)
            json.member("message", message)
            json.member("location") { Self.write(location, to: &$0) }
            json.member("related") { Self.write(relatedLocation, to: &$0) }
            json.member("jsonPath", jsonPath)
            json.member("text", description)
        }
    }

    private static func write(_ location: SourceLocation?, to json: inout JSONStreamWriter) {
        guard let location else { return json.null() }
        json.object { json in
            json.member("file", location.file)
            switch location.position {
            case .file: break
            case let .lineColumn(line, column):
                json.member("line", line)
                json.member("column", column)
            case let .offset(offset): json.member("offset", offset)
            }
        }
    }
}
