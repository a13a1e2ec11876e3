import Foundation
import SeederTestSupport
import Testing

/// The catalog's kinds of compressed dumps (docs/mapping.md, Dump files): stored bytes that are
/// wrong are an error at the file, exit status 1 as malformed JSON is, and an error in the text
/// is located in the decompressed text.
extension BadInputCatalog {
    /// Compresses `dumps/users.json` with `compressor`, points the mapping at the compressed file,
    /// removes the text, then `corrupt`s the stored bytes.
    static func compressUsers(in scratch: String, with compressor: Compressor, _ corrupt: (inout Data) -> Void = { _ in }) async throws {
        let path = try await compressor.compress(scratch + "/dumps/users.json")
        try FileManager.default.removeItem(atPath: scratch + "/dumps/users.json")
        var stored = try Data(contentsOf: URL(fileURLWithPath: path))
        corrupt(&stored)
        try stored.write(to: URL(fileURLWithPath: path))
        try replace("path: users.json", with: "path: users.json" + compressor.suffix, in: scratch + "/tasklist.yaml")
    }

    static let compressedKinds: [BadInput] = [
        BadInput(
            name: "a gzipped dump with a wrong CRC",
            prepare: { try await compressUsers(in: $0, with: .gzip) { $0[$0.count - 8] ^= 0x01 } },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 1,
            stderr: .exact("dumps/users.json.gz: error: gzip data is corrupt (incorrect data check)\n" + failedWithErrors(1))
        ),
        BadInput(
            name: "a gzipped dump cut short",
            prepare: { try await compressUsers(in: $0, with: .gzip) { $0 = $0.prefix($0.count / 2) } },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 1,
            stderr: .lines(["dumps/users.json.gz: error: gzip data is truncated (unexpected end of file)"])
        ),
        BadInput(
            name: "a gzipped dump with trailing garbage",
            prepare: { try await compressUsers(in: $0, with: .gzip) { $0.append(contentsOf: Array("garbage".utf8)) } },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 1,
            stderr: .exact(
                "dumps/users.json.gz: error: gzip data is corrupt (trailing garbage after the last member)\n" + failedWithErrors(1))
        ),
        BadInput(
            name: "a Zstandard dump with a wrong checksum",
            prepare: { try await compressUsers(in: $0, with: .zstd) { $0[$0.count - 1] ^= 0x01 } },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 1,
            stderr: .exact(
                "dumps/users.json.zst: error: zstd data is corrupt (restored data doesn't match checksum)\n" + failedWithErrors(1))
        ),
        BadInput(
            name: "a Zstandard dump cut short",
            prepare: { try await compressUsers(in: $0, with: .zstd) { $0.removeLast(3) } },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 1,
            stderr: .exact("dumps/users.json.zst: error: zstd data is truncated (unexpected end of file)\n" + failedWithErrors(1))
        ),
        BadInput(
            name: "a Zstandard dump with trailing garbage",
            prepare: { try await compressUsers(in: $0, with: .zstd) { $0.append(contentsOf: Array("garbage".utf8)) } },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 1,
            stderr: .exact(
                "dumps/users.json.zst: error: zstd data is corrupt (trailing garbage after the last frame)\n" + failedWithErrors(1))
        ),
        BadInput(
            name: "a gzipped dump with errors in its text",
            prepare: {
                try replace(#""id": 2, "name": "Jeff Arena""#, with: #""id": 2, "name": ["Jeff"]"#, in: $0 + "/dumps/users.json")
                try replace(#""email": null}"#, with: #""email": null},"#, in: $0 + "/dumps/users.json")
                try await compressUsers(in: $0, with: .gzip)
            },
            arguments: ["build", "tasklist.yaml", "dumps"],
            status: 1,
            stderr: .exact(
                """
                dumps/users.json.gz:3:21: error: User 2: 'name' is ["Jeff"], expected string  [/1/name]
                dumps/users.json.gz:4:52: error: trailing comma

                """ + failedWithErrors(2))
        ),
    ]
}
