import SeederFiles

/// One row of `seed_source` (docs/seed.md): a dump file read, by its path in the dumps
/// directory, with its SHA-256, its size, and the records read from it.
struct SeedSource {
    var path: String
    /// Final once the reading thread has closed its pipeline (`DumpReader.join`).
    var digest: DigestPipeline.Digest
    var bytes: Int
    var records: Int
}
