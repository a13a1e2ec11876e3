import Foundation
import SeederCore
import SeederFiles

/// The body of the fuzz target `seed` (fuzz/README.md): any bytes written as an SQLite file and
/// read as `inspect` and `diff` read a seed. The one public entry point of this module for the
/// fuzz package, which links a build of it; the tests replay the corpus through it.
public enum SeedFileFuzzing {
    /// Writes `bytes` to a file of its own in the temporary directory, reads its catalog with row
    /// counts (`inspect`) and prints it as text, JSON and a diagram, twice, then compares the file
    /// with itself (`diff`) in one format, which the input's length picks (a read of SQLite under
    /// the sanitizers is slow: a run reads the file three times, not eight; fuzz/README.md), and
    /// removes the file; returns the invariants that broke, empty when all held: nothing
    /// traps, a file that cannot be read is a `SeedFileError` naming it with a reason, a file
    /// compared with itself holds the same records, and the same bytes give the same outcome twice.
    public static func run(_ bytes: [UInt8]) -> [String] {
        let directory = NSTemporaryDirectory() + "seeder-fuzz-seed-" + UUID().uuidString
        guard mkdir(directory, 0o700) == 0 else { return [] }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/seed.sqlite"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return [] }
        let format = DiffFormat.allCases[bytes.count % DiffFormat.allCases.count]
        let first = outcome(path, format: format)
        let second = inspect(path)
        var problems = first.problems
        if first.transcript.first != second.transcript.first {
            problems.append("another outcome the second time: \(first.transcript) then \(second.transcript)")
        }
        return problems
    }

    /// What reading the file at `path` did, as text, and the invariants it broke: `inspect`, then
    /// `diff` in `format`.
    static func outcome(_ path: String, format: DiffFormat) -> (transcript: [String], problems: [String]) {
        var (transcript, problems) = inspect(path)
        do {
            let output = open("/dev/null", O_WRONLY | O_CLOEXEC)
            defer { close(output) }
            let writer = try SeedDiffWriter(format: format, descriptor: output)
            let diff = try SeedDiffer(old: path, new: path).diff(writer.add)
            try writer.finish(diff)
            if !diff.holdsSameRecords { problems.append("diff \(format): the file differs from itself") }
            transcript.append("diff \(format): \(diff.tables.map { "\($0.name) \($0.counts.unchanged)" })")
        } catch {
            problems += check(error, path, "diff \(format)")
            transcript.append("diff \(format): \(error)")
        }
        return (transcript, problems)
    }

    /// The catalog as `inspect` prints it, in one entry: text, JSON and the diagram.
    static func inspect(_ path: String) -> (transcript: [String], problems: [String]) {
        do {
            let catalog = try SeedCatalog.read(path, countingRows: true)
            return ([catalog.text + catalog.json + SeedDiagram.mermaid(catalog)], [])
        } catch {
            return (["inspect: \(error)"], check(error, path, "inspect"))
        }
    }

    /// A failure must say which file and why: a `SeedFileError` naming `path` with a reason.
    static func check(_ error: any Error, _ path: String, _ stage: String) -> [String] {
        guard let failure = error as? SeedFileError else { return ["\(stage): not a SeedFileError: \(type(of: error)) \(error)"] }
        var problems: [String] = []
        if !failure.path.contains(path) { problems.append("\(stage): the error names \(failure.path), not the file") }
        if failure.reason.isEmpty { problems.append("\(stage): an error without a reason") }
        return problems
    }
}
