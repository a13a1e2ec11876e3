import Foundation
import SeederFiles

extension OutputGuard {
    /// Checks the seed `patch -o` writes, as a build's output is checked: a regular file or
    /// nothing, neither the seed it patches nor the changeset, an existing file only if it is a
    /// seed (or with `force`) and its `-wal` holds nothing (docs/commands.md, `seeder patch`).
    static func checkPatched(_ output: String, seed: String, changeset: String, force: Bool) throws(OutputError) {
        let status = PathStatus(output)
        try checkKind(status, "the output")
        if let identity = status.identity {
            for (input, role) in [(seed, "the seed it patches"), (changeset, "the changeset")] where PathStatus(input).identity == identity
            {
                throw OutputError(.outputRefused, "the output \(output) is \(role)")
            }
        }
        try checkReplaceable(status, force: force)
    }
}
