import Foundation
import GRDB
import SeederCore
import SeederFiles

/// The last stage: the seed file finished around its rows and renamed into place.
extension SeedBuilder {
    /// The rows finished into a seed file (`SeedFinisher`) and made final (`FinishedFile`); then,
    /// as `publication` says, search tables added (`SearchIndexer`) or the app's own schema filled
    /// (`SeedProjector`), and the last file renamed over the output. A validation comes here only
    /// to fill the app's own schema, which is then left in the temporary files.
    static func assemble(
        _ loaded: LoadedRows, with layout: SeedLayout, as publication: Publication, mapping: LoadedMapping, in seed: DatabaseQueue,
        files: BuildFiles, options: BuildOptions
    ) throws {
        let total = loaded.totalBytes
        // The dumps' records, as the reading and resolving phases count them.
        let records = loaded.sources.reduce(0) { $0 + $1.records }
        func begin(_ phase: BuildProgress.Phase) {
            options.progress?(BuildProgress(phase: phase, bytesRead: total, totalBytes: total, records: records))
        }
        begin(.writing)
        let metadata = metadata(
            mapping: mapping, fit: publication.fit, sources: loaded.sources, sqliteVersion: loaded.sqliteVersion, options: options)
        var file = try seed.inDatabase { db in
            try SeedFinisher(layout: layout).finish(
                db, metadata: metadata, sources: loaded.sourceRows,
                indexes: publication.finishedIndexes,
                indexed: { made, indexes in
                    // Thousands of indexes take minutes (bench/README.md, Big mappings).
                    guard made % partsPerReport == 0 else { return }
                    var progress = BuildProgress(phase: .indexing, bytesRead: total, totalBytes: total, records: records)
                    if made > 0 { progress.parts = .init(done: made, total: indexes, plural: "indexes") }
                    options.progress?(progress)
                })
            begin(.finishing)
            return try FinishedFile.compact(
                db, at: files.seed, spare: files.vacuum, checking: publication.rowsFileIsFinal, after: publication.earlySync?.begun)
        }
        try seed.close()
        switch publication.finish {
        case .plain:
            break
        case let .searchable(search):
            // Indexed once no rowid can move any more (docs/seed.md, Search).
            file = try search.index(file, spare: files.spare(besides: file.path))
        case let .fitted(fit):
            // The app's schema, filled from the finished rows, is the seed (docs/mapping.md).
            file = try SeedProjector(fit: fit).project(built: file, into: files.app, spare: files.spare(besides: file.path))
        }
        guard publication.writesOutput else { return }
        try file.publish(as: files.outputPath, shown: files.output)
    }

    /// docs/seed.md's metadata keys, in key order.
    private static func metadata(
        mapping: LoadedMapping, fit: SchemaFit?, sources: [SeedSource], sqliteVersion: String, options: BuildOptions
    ) -> [(
        String, String
    )] {
        var rows: [(String, String)] = [
            ("format", "1"),
            // One digest over every input's path and digest, in source order.
            ("inputs_sha256", SeedSource.digest(sources.map { ($0.path, $0.digest.hex) })),
            ("mapping", MappingDescription.json(fit?.described ?? mapping.mapping, fit: fit)),
            ("mapping_sha256", mapping.sha256),
            ("seeder_version", version),
            ("sqlite_version", sqliteVersion),
        ]
        if let epoch = options.sourceDateEpoch, let seconds = Int64(epoch) {
            rows.append(("built_at", DateCoding.iso8601Seconds(seconds)))
        }
        return rows.sorted { $0.0 < $1.0 }
    }
}
