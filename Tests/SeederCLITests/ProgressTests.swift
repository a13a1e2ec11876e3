import Foundation
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore
@testable import seeder

/// Progress on standard error (docs/commands.md, Progress): the line on a terminal, plain lines
/// for CI logs, nothing in a pipe unless asked, and the current rate.
struct ProgressTests {
    /// Plain lines: one per phase at least, each ending in a line feed, no carriage return or
    /// escape code; `always` in a pipe is plain too, `auto` nothing.
    @Test(arguments: ["build", "validate"])
    func plainLinesInAPipe(_ command: String) throws {
        let scratch = try CommandTests.tasklist()
        for mode in ["plain", "always"] {
            let run = try seeder(
                [command, "tasklist.yaml", "dumps", "--progress", mode, "--quiet"].filter { command == "build" || $0 != "--quiet" },
                in: scratch.root)
            #expect(run.status == 0)
            let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.contains("resolving: 1 kB of 1 kB (100%), 6 records"), "\(run.stderr)")
            #expect(lines.first == "reading: 0 kB of 1 kB (0%), 0 records", "\(run.stderr)")
            if command == "build" { #expect(lines.contains("writing: 1 kB of 1 kB (100%), 6 records"), "\(run.stderr)") }
            #expect(!run.stderr.contains("\r") && !run.stderr.contains("\u{1B}"))
        }
        let auto = try seeder([command, "tasklist.yaml", "dumps", "--progress", "auto"], in: scratch.root)
        #expect(!auto.stderr.contains("records"))
    }

    @Test func inferShowsPlainLines() throws {
        let run = try seeder(["infer", "seeds/tasklist", "--progress", "plain"])
        #expect(run.status == 0)
        #expect(run.stderr.hasPrefix("reading: 1 kB of 1 kB (100%)"))
        #expect(!run.stderr.contains("\r"))
    }

    /// On a terminal (a pseudo-terminal `script` makes) the line is redrawn in place and erased
    /// at the end.
    @Test func theLineIsRedrawnOnATerminal() throws {
        let scratch = try CommandTests.tasklist()
        let binary = try seederBinary()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["script", "-qec", "\(binary) build tasklist.yaml dumps --quiet 2>progress.txt", "/dev/null"]
        process.currentDirectoryURL = URL(fileURLWithPath: scratch.root)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // `2>progress.txt` inside the pseudo-terminal: standard error is a file, so it is plain.
        let plain = try String(contentsOfFile: scratch.path("progress.txt"), encoding: .utf8)
        #expect(plain == "")
        let terminal = Process()
        terminal.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        terminal.arguments = ["script", "-qec", "\(binary) build tasklist.yaml dumps --quiet", scratch.path("typescript")]
        terminal.currentDirectoryURL = URL(fileURLWithPath: scratch.root)
        terminal.standardOutput = FileHandle.nullDevice
        try terminal.run()
        terminal.waitUntilExit()
        let shown = try String(contentsOfFile: scratch.path("typescript"), encoding: .utf8)
        #expect(shown.contains("\r\u{1B}[Kwriting: 1 kB of 1 kB (100%), 6 records"))
        #expect(shown.contains("records\r\u{1B}[K"))
    }

    /// The rate is the current one: records over the last window, not since the start.
    @Test func theRateIsTheCurrentOne() {
        var now = 0.0
        var written: [String] = []
        let display = ProgressDisplay(style: .plain, clock: { now }, write: { written.append($0) })
        func report(_ records: Int, at time: Double) {
            now = time
            display.update(BuildProgress(phase: .reading, bytesRead: records, totalBytes: 10_000_000, records: records))
        }
        report(0, at: 0)
        report(1_000_000, at: 4)  // not yet time for a line
        report(5_000_000, at: 5)  // 5,000,000 in 5 s
        report(5_100_000, at: 9)
        report(5_500_000, at: 10)  // 500,000 in the last 5 s: slow now
        display.update(BuildProgress(phase: .writing, bytesRead: 10, totalBytes: 10, records: 7))
        #expect(
            written == [
                "reading: 0 kB of 10 MB (0%), 0 records\n",
                "reading: 5000 kB of 10 MB (50%), 5,000,000 records, 1,000,000 records/s\n",
                "reading: 5500 kB of 10 MB (55%), 5,500,000 records, 100,000 records/s\n",
                "writing: 0 kB of 0 kB (100%), 7 records\n",
            ])
    }
}
