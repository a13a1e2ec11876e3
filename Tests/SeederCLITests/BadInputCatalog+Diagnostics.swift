import Foundation
import Testing

/// The catalog's kinds about data and mappings (docs/commands.md, Diagnostics): malformed JSON,
/// JSON Lines and YAML, bytes that are not text, very long lines, one mistake over many records.
/// Each is exit status 1 with every problem located, and the previous seed kept.
extension BadInputCatalog {
    static func failedWithErrors(_ errors: Int) -> String {
        "build failed: \(errors) \(errors == 1 ? "error" : "errors"), 0 warnings; nothing was written\n"
    }

    /// A mapping of users read from `users.jsonl`, for the JSON Lines kinds.
    static let linesMapping = """
        seeder: 1
        entities:
          User:
            attributes:
              id: integer
              name: string
              age: integer
        sources:
          - path: users.jsonl
            entity: User

        """

    static let diagnosticKinds: [BadInput] = [
        BadInput(
            name: "a dump with a trailing comma",
            prepare: { try replace(#""email": null}"#, with: #""email": null},"#, in: $0 + "/dumps/users.json") },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 1,
            stderr: .exact("dumps/users.json:4:52: error: trailing comma\n" + failedWithErrors(1))
        ),
        BadInput(
            name: "JSON Lines with errors after a line that is not JSON",
            prepare: {
                try writeLines(
                    [#"{"id": 1, "name": "Ann"}"#, #"{"id": 2, "name": "Bo",}"#, #"{"id": 3, "age": "old"}"#, #"{"id" 4}"#, #"{"id": 5}"#],
                    in: $0)
            },
            arguments: ["build", "lines.yaml", "lines", "-o", "tasklist.sqlite"],
            status: 1,
            stderr: .exact(
                """
                lines/users.jsonl:2:23: error: trailing comma
                lines/users.jsonl:3:18: error: User 3: 'age' is "old", expected integer  [/age]
                lines/users.jsonl:4:7: error: unexpected '4', expected ':' after the key

                """ + failedWithErrors(3))
        ),
        BadInput(
            name: "a mapping that is not YAML",
            prepare: {
                try "seeder: 1\nentities:\n  User:\n    attributes: [id\n".write(
                    toFile: $0 + "/tasklist.yaml", atomically: false, encoding: .utf8)
            },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 1,
            stderr: .exact(
                """
                tasklist.yaml:5:1: error: invalid YAML: while parsing a flow sequence did not find expected ',' or ']'

                ^

                """ + failedWithErrors(1))
        ),
        BadInput(
            name: "a mapping with a key twice",
            prepare: { try replace("      name: string\n", with: "      name: string\n      name: integer\n", in: $0 + "/tasklist.yaml") },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 1,
            stderr: .exact(
                """
                tasklist.yaml:18:7: error: duplicate key 'name' in a YAML mapping; the first one is at tasklist.yaml:17:7
                      name: integer
                      ^

                """ + failedWithErrors(1))
        ),
        BadInput(
            name: "a mapping that is not UTF-8",
            prepare: {
                try replaceBytes(Array("email".utf8), with: Array("em".utf8) + [0xFF] + Array("ail".utf8), in: $0 + "/tasklist.yaml")
            },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 1,
            stderr: .exact(
                """
                tasklist.yaml:12:9: error: the mapping file is not UTF-8 text (byte 0xFF)
                      em\u{FFFD}ail: string
                        ^

                """ + failedWithErrors(1))
        ),
        BadInput(
            name: "a mapping with a NUL byte",
            prepare: { try replaceBytes(Array("email".utf8), with: Array("em".utf8) + [0] + Array("ail".utf8), in: $0 + "/tasklist.yaml") },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 1,
            stderr: .exact(
                """
                tasklist.yaml:12:9: error: invalid YAML: control characters are not allowed
                      em\u{FFFD}ail: string
                        ^

                """ + failedWithErrors(1))
        ),
        BadInput(
            name: "an error on a 20 MB line of the mapping",
            prepare: { try longLine.write(toFile: $0 + "/tasklist.yaml", atomically: false, encoding: .utf8) },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 1,
            stderr: .exact(
                """
                tasklist.yaml:4:\(longLine.split(separator: "\n")[3].count - "strin}".count + 1): error: unknown type 'strin' for 'name' \
                (did you mean 'string'?); expected integer, real, decimal, boolean, string, date, url, uuid, data or json
                ...aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}, name: strin}
                \(String(repeating: " ", count: 63))^

                """ + failedWithErrors(1))
        ),
        BadInput(
            name: "one wrong type over many records",
            prepare: { try writeLines((1...40).map { #"{"id": \#($0), "name": "U\#($0)", "age": "\#($0) years"}"# }, in: $0) },
            arguments: ["build", "lines.yaml", "lines", "-o", "tasklist.sqlite"],
            status: 1,
            stderr: .exact(
                """
                lines/users.jsonl:1:32: error: User 1: 'age' is "1 years", expected integer  [/age]
                lines/users.jsonl:2:32: error: User 2: 'age' is "2 years", expected integer  [/age]
                lines/users.jsonl:3:32: error: User 3: 'age' is "3 years", expected integer  [/age]
                ... and 37 more like this

                """ + failedWithErrors(40))
        ),
        BadInput(
            name: "an attribute whose key matches nothing, with --strict",
            prepare: { try replace("dueAt: date", with: "dueAt: { type: date, from: due_ta }", in: $0 + "/tasklist.yaml") },
            arguments: ["build", "tasklist.yaml", "dumps", "--strict"],
            status: 1,
            stderr: .exact(
                """
                tasklist.yaml:24:3: error: 1 key is never mapped: Task.due_at
                  Task:
                  ^
                tasklist.yaml:28:7: error: Task.dueAt: 'due_ta' matched no key in 7 records (did you mean 'due_at'?)
                      dueAt: { type: date, from: due_ta }
                      ^
                build failed: 2 errors, 0 warnings; nothing was written

                """)
        ),
    ]

    /// Writes `lines.yaml` and `lines/users.jsonl`, its dumps.
    static func writeLines(_ lines: [String], in scratch: String) throws {
        try linesMapping.write(toFile: scratch + "/lines.yaml", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: scratch + "/lines", withIntermediateDirectories: false)
        try lines.joined(separator: "\n").write(toFile: scratch + "/lines/users.jsonl", atomically: false, encoding: .utf8)
    }

    /// A mapping with a mistake at the end of a line of 20 MB (a long default value).
    static let longLine =
        "seeder: 1\nentities:\n  User:\n    attributes: {id: integer, note: {type: string, default: \""
        + String(repeating: "a", count: 20_000_000) + "\"}, name: strin}\nsources: []\n"

    static func replace(_ text: String, with replacement: String, in path: String) throws {
        let contents = try String(contentsOfFile: path, encoding: .utf8)
        try #require(contents.contains(text), "'\(text)' is not in \(path)")
        try contents.replacingOccurrences(of: text, with: replacement).write(toFile: path, atomically: false, encoding: .utf8)
    }

    static func replaceBytes(_ bytes: [UInt8], with replacement: [UInt8], in path: String) throws {
        var contents = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let range = try #require(contents.firstRange(of: bytes), "the bytes are not in \(path)")
        contents.replaceSubrange(range, with: replacement)
        try Data(contents).write(to: URL(fileURLWithPath: path))
    }
}
