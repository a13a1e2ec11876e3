import Foundation
import SeederCore

extension SeedBuilder {
    /// The lock file of a build of `output` (`OutputLock`), beside it and named as its temporary
    /// files are.
    static func lockPath(output: String) -> String {
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        return outputURL.deletingLastPathComponent().appendingPathComponent("." + outputURL.lastPathComponent + ".seeder-lock").path
    }

    /// How messages name the temporary file `path` of a build of `output`: in the output's
    /// directory as the user named it (`out/.seed.sqlite.seeder-assembly`), not as an absolute path.
    static func displayPath(_ path: String, output: String) -> String {
        let directory = (output as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return directory.isEmpty ? name : (directory as NSString).appendingPathComponent(name)
    }
}

extension SeedBuilder {
    /// Checks the report of a run that stopped before it checked it (a mapping that could not be
    /// read or loaded, a dumps directory that could not): the dump files are then not known,
    /// so the report may be none of the files under the dumps directory. Reports a refusal to
    /// `diagnostics`; returns whether the report may be written.
    static func checkReportOfFailedRun(_ path: String, options: BuildOptions, diagnostics: DiagnosticSink) -> Bool {
        let root = URL(fileURLWithPath: options.dumps).standardizedFileURL.resolvingSymlinksInPath().path
        var failures: [(path: String, reason: String)] = []
        let files = InputPlanner.dumpFiles(under: root, failures: &failures).compactMap { relative -> InputFile? in
            var info = stat()
            guard stat(root + "/" + relative, &info) == 0 else { return nil }
            let shown = (options.dumps as NSString).appendingPathComponent(relative)
            return InputFile(path: shown, relativePath: relative, absolutePath: root + "/" + relative, entity: 0, keyPath: [], format: .json,
                             size: Int(info.st_size), device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
        do {
            let guarded = OutputGuard(mapping: options.mapping, inputs: files,
                                      inputsDescription: "in the dumps directory, any file of which a build may read (the mapping was not loaded)")
            try guarded.checkReport(path, output: options.writesOutput ? defaultOutput(for: options, mapping: nil) : nil)
            return true
        } catch {
            diagnostics.error(error.message)
            return false
        }
    }
}
