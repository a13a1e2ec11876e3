import SeederCore
import SeederFiles

/// A dump file read (docs/seed.md, Metadata), by its path in the dumps directory, with its
/// SHA-256, its size, and the records read from it: a row of the build report's `files`, and
/// what a `seed_source` row is made of.
struct SeedSource {
    var path: String
    /// Final once the reading thread has closed its pipeline (`DumpReader.join`).
    var digest: DigestPipeline.Digest
    var bytes: Int
    var records: Int

    /// The `seed_source` rows of a build that read `inputs` (the plan, in order), `files` (each
    /// file once, digests final) and `recordsByInput` (by the plan's index), as `provenance`
    /// says (docs/seed.md, Metadata).
    ///
    /// A row per source: keyed by the glob as written (sources that share a glob share a row, as
    /// a file read by two sources has one row per file), or by the file's path for a file that
    /// feeds an entity by its name. Its `sha256` is that of the text made, for each distinct file
    /// in read order, of the file's path, a line feed, its SHA-256 in hex, a line feed: the
    /// construction of `inputs_sha256`, so that per-file rows recompute it.
    static func rows(_ provenance: Provenance, inputs: [InputFile], files: [SeedSource], recordsByInput: [Int]) -> [SourceRow] {
        switch provenance {
        case .files:
            return files.map { SourceRow(path: $0.path, sha256: $0.digest.hex, bytes: $0.bytes, records: $0.records, scope: .file) }
        case .sources:
            let digests = Dictionary(files.map { ($0.path, $0.digest.hex) }, uniquingKeysWith: { first, _ in first })
            var order: [String] = []
            var groups: [String: (row: SourceRow, files: [(path: String, sha256: String)], paths: Set<String>)] = [:]
            for (index, input) in inputs.enumerated() {
                let key = input.glob ?? input.relativePath
                var group =
                    groups[key] ?? (SourceRow(path: key, files: 0, sha256: "", bytes: 0, records: 0, scope: .source), [], [])
                if groups[key] == nil { order.append(key) }
                if group.paths.insert(input.relativePath).inserted {
                    group.row.files += 1
                    group.row.bytes += input.size
                    group.files.append((input.relativePath, digests[input.relativePath] ?? ""))
                }
                group.row.records += recordsByInput[index]
                groups[key] = group
            }
            return order.map { key in
                var row = groups[key]!.row
                row.sha256 = digest(groups[key]!.files)
                return row
            }
        }
    }

    /// The digest of files by their paths and digests, in order (docs/seed.md, Metadata): the
    /// SHA-256 of the text made, for each file, of its path, a line feed, its SHA-256 in hex, a
    /// line feed. `inputs_sha256` and a source row's `sha256` both; the diff recomputes a source's
    /// from per-file rows with it.
    static func digest(_ files: [(path: String, sha256: String)]) -> String {
        var hasher = SHA256()
        for file in files { hasher.update("\(file.path)\n\(file.sha256)\n".utf8) }
        return hasher.finalizeHex()
    }
}
