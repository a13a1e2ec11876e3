import Foundation
import SeederTestServer
import SeederTestSupport
import Testing

/// What the fetch tests share: a scratch repository with a mapping and a dumps folder, the real
/// binary, and DUMPS as bytes and modification
/// times, to prove a run changed nothing.
struct FetchHarness {
    let workspace: Workspace
    var mappingPath: String { workspace.path("mapping.yaml") }
    var dumps: String { workspace.path("dumps") }

    init(mapping: String) throws {
        workspace = try Workspace()
        try workspace.write("mapping.yaml", mapping)
    }

    /// `seeder fetch mapping.yaml dumps ARGUMENTS`.
    func fetch(_ arguments: [String] = [], environment: [String: String] = [:]) async throws -> Run {
        try await seeder(["fetch", "mapping.yaml", "dumps"] + arguments, in: workspace.root, environment: environment)
    }

    /// `seeder fetch mapping.yaml dumps`, started: for a test that signals it while it runs.
    func startFetch() throws -> RunningProgram {
        try RunningProgram(try seederBinary(), ["fetch", "mapping.yaml", "dumps"], in: workspace.root, environment: programEnvironment())
    }

    /// `seeder fetch mapping.yaml dumps` under time(1): what it printed, and its peak memory in kB
    /// (`Int.max` when time(1) said none).
    func fetchMeasuringPeak() async throws -> (run: Run, peak: Int) {
        let run = try await program(
            "/usr/bin/time", ["-f", "peak %M kB", try seederBinary(), "fetch", "mapping.yaml", "dumps"], in: workspace.root)
        let peak = Int(run.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }?.split(separator: " ")[1] ?? "") ?? .max
        return (run, peak)
    }

    /// Every file under DUMPS (hidden ones included): relative path -> bytes and modification time.
    func snapshot() throws -> [String: FileState] {
        var files: [String: FileState] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: dumps) else { return [:] }
        while let name = enumerator.nextObject() as? String {
            var status = stat()
            guard stat(dumps + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            files[name] = FileState(
                bytes: try Data(contentsOf: URL(fileURLWithPath: dumps + "/" + name)),
                modified: Int(status.st_mtim.tv_sec) * 1_000_000_000 + Int(status.st_mtim.tv_nsec))
        }
        return files
    }

    /// Every file and folder under `root`, with the bytes of the files.
    static func files(under root: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? [] {
            result[name] = FileManager.default.contents(atPath: root + "/" + name) ?? Data()
        }
        return result
    }

    /// The names beside DUMPS: no temporary folder may be left there.
    func besideDumps() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: workspace.root).sorted()
    }

    func text(_ relative: String) throws -> String {
        try String(contentsOfFile: dumps + "/" + relative, encoding: .utf8)
    }
}

struct FileState: Equatable {
    var bytes: Data
    var modified: Int
}

/// A paged list of `count` records, `size` a page: the records of page `page` (1-based).
func records(page: Int, size: Int, count: Int, prefix: String = "user") -> String {
    let first = (page - 1) * size + 1
    let last = min(page * size, count)
    guard first <= last else { return "[]" }
    return "[" + (first...last).map { #"{"id": \#($0), "name": "\#(prefix) \#($0)"}"# }.joined(separator: ", ") + "]"
}

/// A thread-safe counter for handlers.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    private var peak = 0
    private var current = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    /// Marks a request in flight; `end()` when it is answered. `peak` is the most at once.
    func begin() {
        lock.lock()
        current += 1
        peak = max(peak, current)
        lock.unlock()
    }

    func end() {
        lock.lock()
        current -= 1
        lock.unlock()
    }

    var mostAtOnce: Int {
        lock.lock()
        defer { lock.unlock() }
        return peak
    }
}
