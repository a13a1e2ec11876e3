import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a program printed and how it ended.
public struct ProgramRun: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs `executable` with `arguments` to its end and returns what it printed: the tests' one way
/// to run a program. Both pipes are read at once, each on a thread of its own, so a program that
/// fills one while the other is still open cannot hang the test; the reads retry `EINTR`, which
/// `FileHandle.readDataToEndOfFile` traps on.
///
/// - Parameters:
///   - directory: the working directory (the test's own when nil).
///   - environment: the whole environment (the test's own when nil).
///   - input: what the program reads on standard input (nothing: it reads the end at once).
///   - standardOutput: a file for standard output instead of a pipe (`stdout` is then empty).
///   - killAfter: seconds after which the program is killed (SIGKILL, which a blocked signal
///     mask cannot hold off), so that a hang fails the test rather than never ending it.
public func runProgram(
    _ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil, input: [UInt8] = [],
    standardOutput: FileHandle? = nil, killAfter: Double? = nil
) throws -> ProgramRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    let stdin = Pipe()
    process.standardOutput = standardOutput ?? out
    process.standardError = err
    process.standardInput = stdin
    try process.run()
    let timer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    if let killAfter { DispatchQueue.global().asyncAfter(deadline: .now() + killAfter, execute: timer) }
    defer { timer.cancel() }
    let group = DispatchGroup()
    let stdout = PipeText()
    let stderr = PipeText()
    for (pipe, text) in standardOutput == nil ? [(out, stdout), (err, stderr)] : [(err, stderr)] {
        group.enter()
        Thread.detachNewThread {
            text.bytes = readToEnd(pipe.fileHandleForReading.fileDescriptor)
            group.leave()
        }
    }
    if !input.isEmpty { stdin.fileHandleForWriting.write(Data(input)) }
    try? stdin.fileHandleForWriting.close()
    group.wait()
    process.waitUntilExit()
    return ProgramRun(
        status: process.terminationStatus, stdout: String(decoding: stdout.bytes, as: UTF8.self),
        stderr: String(decoding: stderr.bytes, as: UTF8.self))
}

/// One pipe's bytes, written by its reading thread before the group is left.
private final class PipeText: @unchecked Sendable {
    var bytes: [UInt8] = []
}

/// Every byte until the end of `descriptor`, `read(2)` retried on `EINTR`.
public func readToEnd(_ descriptor: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        if count <= 0 { return bytes }
        bytes += buffer[..<count]
    }
}
