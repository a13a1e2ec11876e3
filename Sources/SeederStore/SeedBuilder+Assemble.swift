import Foundation
import GRDB
import SeederCore

/// The last stage: the seed file finished around its rows and renamed into place.
extension SeedBuilder {
    /// Join rows, metadata, constraints, indexes and checks (`SeedAssembler`); then the seed,
    /// synced, renamed over the output. A validation comes here only to fill the app's own
    /// schema, which is then left in the temporary files.
    static func assemble(
        _ loaded: LoadedRows, with assembler: SeedAssembler, mapping: LoadedMapping, fit: SchemaFit?, in seed: DatabaseQueue,
        files: BuildFiles,
        options: BuildOptions
    ) throws {
        let total = loaded.totalBytes
        // The dumps' records, as the reading and resolving phases count them.
        let records = loaded.sources.reduce(0) { $0 + $1.records }
        options.progress?(BuildProgress(phase: .writing, bytesRead: total, totalBytes: total, records: records))
        let metadata = metadata(mapping: mapping, fit: fit, sources: loaded.sources, sqliteVersion: loaded.sqliteVersion, options: options)
        let search = SearchIndexer(mapping: mapping.mapping, schema: assembler.schema)
        let vacuumed = try seed.inDatabase { db in
            try assembler.finish(
                db, metadata: metadata, sources: loaded.sources, vacuumPath: files.vacuum, checks: search.tables.isEmpty && fit == nil)
        }
        try seed.close()
        if let fit {
            // The app's schema, filled from the finished rows, is the seed (docs/mapping.md).
            let built = vacuumed ? files.vacuum : files.seed
            let filled = try SeedProjector(fit: fit).project(built: built, into: files.app, spare: vacuumed ? files.seed : files.vacuum)
            guard options.writesOutput else { return }
            try SeedAssembler.publish(filled, as: files.outputPath, shown: files.output, synced: filled == files.app)
            return
        }
        guard !search.tables.isEmpty else {
            // The seed itself was synced as it was checked; a vacuumed copy was not.
            try SeedAssembler.publish(vacuumed ? files.vacuum : files.seed, as: files.outputPath, shown: files.output, synced: !vacuumed)
            return
        }
        // Indexed once no rowid can move any more, and checked and synced then (docs/seed.md, Search).
        let indexed = try search.index(seedAt: vacuumed ? files.vacuum : files.seed, spare: vacuumed ? files.seed : files.vacuum)
        try SeedAssembler.publish(indexed, as: files.outputPath, shown: files.output, synced: true)
    }

    /// docs/seed.md's metadata keys, in key order.
    private static func metadata(
        mapping: LoadedMapping, fit: SchemaFit?, sources: [SeedSource], sqliteVersion: String, options: BuildOptions
    ) -> [(
        String, String
    )] {
        // inputs_sha256: one digest over every input's path and digest, in source order.
        let inputs = sources.map { "\($0.path)\n\($0.digest.hex)\n" }.joined()
        var rows: [(String, String)] = [
            ("format", "1"),
            ("inputs_sha256", SHA256.hex(Array(inputs.utf8))),
            ("mapping", MappingDescription.json(fit?.described ?? mapping.mapping, fit: fit)),
            ("mapping_sha256", SHA256.hex(mapping.bytes)),
            ("seeder_version", version),
            ("sqlite_version", sqliteVersion),
        ]
        if let epoch = options.sourceDateEpoch, let seconds = Int64(epoch) {
            rows.append(("built_at", DateCoding.iso8601Seconds(seconds)))
        }
        return rows.sorted { $0.0 < $1.0 }
    }
}
