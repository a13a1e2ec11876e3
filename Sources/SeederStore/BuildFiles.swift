import Foundation
import SeederCore
import SeederFiles

/// The files a build writes besides its output: the seed being built, the working database, the
/// vacuumed copy renamed over the output when the seed needs one, and the file side rows spill
/// to (docs/commands.md, Files a command touches). Beside the output for `build` (same file
/// system, so the rename is atomic); in the temporary directory, unique to the process and to
/// the validation, for `validate` (two validations at once in one process, as the tests run
/// them, would share the files and fail with "database is locked").
struct BuildFiles {
    /// The output as the user named it.
    let output: String
    /// The output's absolute path, which the finished seed is renamed to.
    let outputPath: String
    let writesOutput: Bool
    let seed: String
    let work: String
    let vacuum: String
    let spill: String
    /// The copy of the app's own schema that the seed's rows fill (`schema:`).
    let app: String

    init(output: String, writesOutput: Bool) {
        self.output = output
        self.writesOutput = writesOutput
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        outputPath = outputURL.path
        let directory = writesOutput ? outputURL.deletingLastPathComponent().path : NSTemporaryDirectory()
        let unique = writesOutput ? "" : "-\(getpid())-\(Self.validations.next())"
        func beside(_ role: String) -> String {
            Self.file(
                PathText.hiddenName(beside: Substring(outputURL.lastPathComponent), suffix: ".seeder-" + role + unique), in: directory)
        }
        seed = beside("assembly")
        work = beside("work")
        vacuum = beside("tmp")
        spill = beside("spill")
        app = beside("app")
    }

    /// The file `name` in `directory`.
    private static func file(_ name: String, in directory: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + name
    }

    /// The one of `seed` and `vacuum` that `path` is not: where a stage that may vacuum the file
    /// at `path` writes its copy.
    func spare(besides path: String) -> String {
        path == seed ? vacuum : seed
    }

    /// Every temporary file, which the build removes before it starts and whatever happens.
    var temporaries: [String] { [seed, work, vacuum, spill, app] }

    /// The lock file of a build of the output (`OutputLock`), beside it and named as its
    /// temporary files are.
    var lock: String {
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        return Self.file(
            PathText.hiddenName(beside: Substring(outputURL.lastPathComponent), suffix: ".seeder-lock"),
            in: outputURL.deletingLastPathComponent().path)
    }

    /// How messages name the file at `path` beside the output: in the output's directory as the
    /// user named it (`out/.seed.sqlite.seeder-assembly`), not as an absolute path. A validation's
    /// files, in the temporary directory, are named as they are.
    func shown(_ path: String) -> String {
        guard writesOutput else { return path }
        let directory = PathText.directory(of: output)
        let name = (path as NSString).lastPathComponent
        return directory.isEmpty ? name : (directory as NSString).appendingPathComponent(name)
    }

    /// Numbers the validations of this process, for their temporary files' names.
    private static let validations = Counter()

    /// A number that goes up by one on each `next()`, from any thread. (A lock, not
    /// `Synchronization.Atomic`: that needs macOS 15, and the package supports macOS 13.)
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        func next() -> Int {
            lock.withLock {
                count += 1
                return count
            }
        }
    }
}

extension SeedBuilder {
    /// The output a build writes when the options name none: the mapping's `output:`, else
    /// `<mapping file stem>.sqlite`, relative to the current directory.
    static func defaultOutput(for options: BuildOptions, mapping: Mapping?) -> String {
        options.output ?? mapping?.output
            ?? (((options.mapping as NSString).lastPathComponent as NSString).deletingPathExtension + ".sqlite")
    }

    /// Checks the report of a run that stopped before it checked it (a mapping that could not be
    /// read or loaded, a dumps directory that could not): the dump files are then not known,
    /// so the report may be none of the files under the dumps directory. Reports a refusal to
    /// `diagnostics`; returns whether the report may be written.
    static func checkReportOfFailedRun(_ path: String, options: BuildOptions, diagnostics: DiagnosticSink) -> Bool {
        let root = URL(fileURLWithPath: options.dumps).standardizedFileURL.resolvingSymlinksInPath().path
        var failures: [WalkFailure] = []
        let files = InputPlanner.dumpFiles(under: root, failures: &failures).compactMap { relative -> InputFile? in
            var info = stat()
            guard stat(root + "/" + relative, &info) == 0 else { return nil }
            let shown = (options.dumps as NSString).appendingPathComponent(relative)
            return InputFile(
                path: shown, relativePath: relative, absolutePath: root + "/" + relative, entity: 0, keyPath: [], format: .json,
                size: Int(info.st_size), device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
        do {
            let guarded = OutputGuard(
                mapping: options.mapping, inputs: files,
                inputsDescription: "in the dumps directory, any file of which a build may read (the mapping was not loaded)")
            try guarded.checkReport(path, output: options.writesOutput ? defaultOutput(for: options, mapping: nil) : nil)
            return true
        } catch {
            diagnostics.error(error.code, error.message)
            return false
        }
    }
}
