import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

extension Workspace {
    /// A workspace with an empty `dumps` directory, for a mapping at `mapping.yaml`.
    static func withDumps() throws -> Workspace { try Workspace(directories: ["dumps"]) }

    func build(output: String = "seed.sqlite", validate: Bool = false, configure: (inout BuildOptions) -> Void = { _ in }) -> BuildReport {
        var options = BuildOptions(mapping: root + "/mapping.yaml", dumps: root + "/dumps")
        options.output = root + "/" + output
        options.writesOutput = !validate
        configure(&options)
        return SeedBuilder.build(options)
    }

    func rows(_ sql: String, in file: String = "seed.sqlite") throws -> [String] {
        let queue = try DatabaseQueue(path: root + "/" + file)
        return try queue.read { db in try Row.fetchAll(db, sql: sql).map(\.description) }
    }
}

extension BuildReport {
    /// Diagnostics as printed, with the scratch directory's path cut out.
    func messages(_ workspace: Workspace) -> [String] {
        diagnostics.map { $0.description.replacingOccurrences(of: workspace.root + "/", with: "") }
    }
}
