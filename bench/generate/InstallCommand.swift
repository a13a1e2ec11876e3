import Foundation
import SeedInstaller

/// `seeder-bench install SEED COPY [--changeset FILE]... [--on-conflict seed|app|abort]`: runs
/// `SeedInstaller.install()` and prints the outcome and the elapsed seconds, to time a patch
/// against a copy (bench/run, the changeset workload) and to be killed halfway by the tests.
func runInstall(_ arguments: [String]) -> Int32 {
    guard arguments.count >= 3 else {
        print("install SEED COPY [--changeset FILE]... [--on-conflict seed|app|abort]")
        return 64
    }
    var changesets: [String] = []
    var policy = SeedInstaller.ConflictPolicy.abort
    var index = 3
    while index < arguments.count {
        guard index + 1 < arguments.count else {
            print("\(arguments[index]) needs a value")
            return 64
        }
        switch (arguments[index], arguments[index + 1]) {
        case ("--changeset", let path): changesets.append(path)
        case ("--on-conflict", "seed"): policy = .seedWins
        case ("--on-conflict", "app"): policy = .appWins
        case ("--on-conflict", "abort"): policy = .abort
        default:
            print("unknown option \(arguments[index]) \(arguments[index + 1])")
            return 64
        }
        index += 2
    }
    let start = now()
    do {
        let outcome = try SeedInstaller(seed: arguments[1], workingCopy: arguments[2], changesets: changesets, onConflict: policy).install()
        let elapsed = String(format: "%.3f", now() - start)
        // bench/run reads the installer's own seconds from here.
        FileHandle.standardError.write(Data("timed-seconds: \(elapsed)\n".utf8))
        switch outcome {
        case .installed, .upToDate, .replaced: print("\(outcome)  elapsed: \(elapsed) s")
        case let .patched(report):
            let conflicts = report.conflicts.map { "\($0.table) \($0.kind) \($0.resolution) \($0.count)" }
            print("patched: \(report.appliedChanges) changes, conflicts: [\(conflicts.joined(separator: ", "))]  elapsed: \(elapsed) s")
        }
        return 0
    } catch {
        print("error: \(error)")
        return 1
    }
}
