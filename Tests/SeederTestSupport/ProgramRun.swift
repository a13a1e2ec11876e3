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
    /// Whether a signal ended it (`status` is then the signal's number).
    public var signalled: Bool
    /// When it ended, as its end was reported: to order the ends of programs run side by side,
    /// which the awaits that return them may not.
    public var ended: ContinuousClock.Instant
    /// When it started: `ended - started` is how long it ran, whatever its turn waited
    /// (`ProgramSlots`).
    public var started: ContinuousClock.Instant

    public init(
        status: Int32, stdout: String, stderr: String, signalled: Bool = false, started: ContinuousClock.Instant = .now,
        ended: ContinuousClock.Instant = .now
    ) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.signalled = signalled
        self.started = started
        self.ended = ended
    }
}

/// Runs `executable` with `arguments` to its end and returns what it printed: the tests' one way
/// to run a program (`RunningProgram` for one the test talks to while it runs).
///
/// - Parameters:
///   - directory: the working directory (the test's own when nil).
///   - environment: the whole environment (the test's own when nil).
///   - input: what the program reads on standard input (nothing: it reads the end at once).
///   - standardOutput: where standard output goes (a pipe the run's `stdout` holds).
///   - killAfter: seconds after which the program is killed (SIGKILL, which a blocked signal
///     mask cannot hold off), so that a hang fails the test rather than never ending it.
public func runProgram(
    _ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil, input: [UInt8] = [],
    standardOutput: ProgramOutput = .captured, killAfter: Double? = nil
) async throws -> ProgramRun {
    await ProgramSlots.shared.acquire()
    do {
        let program = try RunningProgram(
            executable, arguments, in: directory, environment: environment, input: input, standardOutput: standardOutput)
        let run = await program.finished(killAfter: killAfter)
        await ProgramSlots.shared.release()
        return run
    } catch {
        await ProgramSlots.shared.release()
        throw error
    }
}

/// How many programs `runProgram` runs at once: twice the cores. A test awaiting its program no
/// longer holds a thread, so without a bound every test of the suite would start its programs
/// at once, and a program whose test times what it does (a fetch that must reach its server
/// within seconds, a signal sent mid-run) would wait for a core past its test's limits.
actor ProgramSlots {
    static let shared = ProgramSlots(count: 2 * max(1, ProcessInfo.processInfo.activeProcessorCount))

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = count }

    func acquire() async {
        guard free == 0 else {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}

/// Where a program's standard output goes.
public enum ProgramOutput: Sendable {
    /// A pipe, read to its end: the run's `stdout`.
    case captured
    /// /dev/null.
    case discarded
    /// A file the test opened.
    case file(FileHandle)
    /// A pipe whose reading end is closed before the program starts: its first write fails
    /// with EPIPE.
    case unread
}

/// A started program, awaited without blocking a thread of Swift's cooperative pool: its pipes
/// are read by threads of their own and its end comes through `Process.terminationHandler`.
/// On 2 cores the pool has 2 threads; a test that waited for a child on one of them would hold
/// back every other test, and the test server's handlers, for as long as the child runs.
public final class RunningProgram: @unchecked Sendable {
    public let process: Process

    // Guarded by `lock`; every change looks at `waiters`.
    private let lock = NSLock()
    private var stdout: [UInt8] = []
    private var stderr: [UInt8] = []
    private var pipesOpen = 0
    private var stdoutOpen = false
    private var exited = false
    private var exitedAt = ContinuousClock.now
    private var startedAt = ContinuousClock.now
    private var waiters: [(ready: () -> Bool, resume: () -> Void)] = []

    /// Starts `executable` (the parameters are `runProgram`'s).
    public init(
        _ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil,
        input: [UInt8] = [], standardOutput: ProgramOutput = .captured
    ) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        switch standardOutput {
        case .captured: process.standardOutput = out
        case .discarded: process.standardOutput = FileHandle.nullDevice
        case let .file(handle): process.standardOutput = handle
        case .unread:
            process.standardOutput = out
            try out.fileHandleForReading.close()
        }
        process.standardError = err
        process.standardInput = stdin
        process.terminationHandler = { [weak self] _ in
            self?.change {
                self?.exitedAt = .now
                self?.exited = true
            }
        }
        var reads = [(err, false)]
        if case .captured = standardOutput { reads.append((out, true)) }
        pipesOpen = reads.count
        stdoutOpen = reads.count == 2
        startedAt = .now
        try process.run()
        for (pipe, isStdout) in reads {
            Thread.detachNewThread { self.drain(pipe.fileHandleForReading.fileDescriptor, isStdout: isStdout) }
        }
        // Written on a thread too: a program that does not read its input must not hold the test.
        Thread.detachNewThread {
            if !input.isEmpty { try? stdin.fileHandleForWriting.write(contentsOf: input) }
            try? stdin.fileHandleForWriting.close()
        }
    }

    /// Waits for the end of the program and of both its pipes; past `killAfter` seconds, kills it.
    public func finished(killAfter: Double? = nil) async -> ProgramRun {
        let timer = DispatchWorkItem { [process] in if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        if let killAfter { DispatchQueue.global().asyncAfter(deadline: .now() + killAfter, execute: timer) }
        defer { timer.cancel() }
        await wait { self.exited && self.pipesOpen == 0 }
        return lock.withLock {
            ProgramRun(
                status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                stderr: String(decoding: stderr, as: UTF8.self), signalled: process.terminationReason == .uncaughtSignal,
                started: startedAt, ended: exitedAt)
        }
    }

    /// Standard output so far, once `ready` holds for it or it has ended.
    public func output(until ready: @escaping @Sendable (String) -> Bool) async -> String {
        await wait { !self.stdoutOpen || ready(String(decoding: self.stdout, as: UTF8.self)) }
        return lock.withLock { String(decoding: stdout, as: UTF8.self) }
    }

    /// Whether the program is still running.
    public var isRunning: Bool { lock.withLock { !exited } }

    /// Sends `signal` to the program (SIGINT: as a terminal's ^C would).
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Resumes once `ready` holds; it is checked with the lock held, after every change.
    private func wait(until ready: @escaping () -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if ready() {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append((ready, { continuation.resume() }))
                lock.unlock()
            }
        }
    }

    /// Applies `update` and resumes the waiters it satisfied.
    private func change(_ update: () -> Void) {
        lock.lock()
        update()
        var resumed: [() -> Void] = []
        waiters.removeAll { waiter in
            guard waiter.ready() else { return false }
            resumed.append(waiter.resume)
            return true
        }
        lock.unlock()
        for resume in resumed { resume() }
    }

    /// Reads `descriptor` to its end into `stdout` or `stderr`, `read(2)` retried on `EINTR`, which
    /// `FileHandle.readDataToEndOfFile` traps on.
    private func drain(_ descriptor: Int32, isStdout: Bool) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            change {
                if isStdout { stdout += buffer[..<count] } else { stderr += buffer[..<count] }
            }
        }
        change {
            pipesOpen -= 1
            if isStdout { stdoutOpen = false }
        }
    }
}
