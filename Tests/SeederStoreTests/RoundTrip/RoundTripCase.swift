import Foundation
import GRDB
import SeederTestSupport

@testable import SeederStore

/// One round-trip case: from its seed, a model, dumps and a mapping in a scratch directory,
/// a seed built in-process, and what differs from the expected tables.
struct RoundTripCase {
    let seed: UInt64

    /// The seed as printed, to paste into `SEEDER_ROUNDTRIP_SEED`.
    var seedText: String { String(seed, radix: 16) }

    /// The dumps and mapping of the case (the same text for the same seed).
    func files() -> (model: RoundTripModel, mapping: String, dumps: [(path: String, text: String)]) {
        var generator = RoundTripModelGenerator(random: SplitMix64(seed: seed))
        var writer = RoundTripDumpWriter(model: generator.model(), seed: seed ^ 0xD0_0D5)
        let (model, dumps) = writer.write()
        return (model, RoundTripMappingText.yaml(model), dumps)
    }

    /// `nil` when the seed holds what the mapping promises; else what went wrong. `keep` leaves
    /// a failing case's scratch directory (its path is in the message).
    func failure(keep: Bool = false) throws -> String? {
        let root = NSTemporaryDirectory() + "seeder-roundtrip-" + seedText + "-" + UUID().uuidString
        let failure: String?
        do {
            failure = try self.failure(in: root, keep: keep)
        } catch {
            try? FileManager.default.removeItem(atPath: root)
            throw error
        }
        if failure == nil || !keep { try? FileManager.default.removeItem(atPath: root) }
        return failure
    }

    private func failure(in root: String, keep: Bool) throws -> String? {
        let (model, mapping, dumps) = files()
        try FileManager.default.createDirectory(atPath: root + "/dumps", withIntermediateDirectories: true)
        try Data(mapping.utf8).write(to: URL(fileURLWithPath: root + "/mapping.yaml"))
        for dump in dumps { try Data(dump.text.utf8).write(to: URL(fileURLWithPath: root + "/dumps/" + dump.path)) }

        var options = BuildOptions(mapping: root + "/mapping.yaml", dumps: root + "/dumps")
        options.output = root + "/seed.sqlite"
        let report = SeedBuilder.build(options)
        let errors = report.diagnostics.filter { $0.severity == .error }.map {
            $0.description.replacingOccurrences(of: root + "/", with: "")
        }
        var problems: [String] = []
        if report.outcome != .success || !errors.isEmpty {
            problems = ["the build ended \(report.outcome):"] + errors.prefix(10).map { "  " + $0 }
        } else {
            problems = try RoundTripChecker.problems(seed: root + "/seed.sqlite", model: model)
            // `onMissing: create` reports the rows it made, per target entity.
            for (index, entity) in model.entities.enumerated() {
                let made = model.records[index].filter(\.isCreated).count
                let reported = report.entities.first { $0.name == entity.name }?.counts.rowsCreated
                if reported != made {
                    problems.append("\(entity.name): rowsCreated \(reported.map(String.init) ?? "missing"), expected \(made)")
                }
            }
        }
        guard !problems.isEmpty else { return nil }
        return (problems + ["mapping:", mapping] + (keep ? ["files kept in \(root)"] : [])).joined(separator: "\n")
    }
}
