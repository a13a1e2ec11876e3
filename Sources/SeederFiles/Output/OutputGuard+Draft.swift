import Foundation
import SeederCore

extension OutputGuard {
    /// Checks the draft mapping `infer -o` writes: a regular file or nothing, not a dump file
    /// it reads, and not an existing file unless `force` (docs/commands.md, `seeder infer`).
    package static func checkDraft(_ output: String, dumps: [InputFile], force: Bool) throws(OutputError) {
        let guardian = OutputGuard(mapping: output, inputs: dumps)
        let status = PathStatus(output)
        try checkKind(status, "the output")
        if let identity = status.identity,
            let input = guardian.inputs.first(where: { PathStatus.Identity(device: $0.device, inode: $0.inode) == identity })
        {
            throw OutputError(.outputRefused, "the output \(output) is \(input.path), a dump file infer reads")
        }
        if status.exists, !force {
            throw OutputError(.outputRefused, "the output \(output) exists; --force replaces it")
        }
    }
}
