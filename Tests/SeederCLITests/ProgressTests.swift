import Foundation
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore
@testable import seeder

/// Progress on standard error (docs/commands.md, Progress): the line on a terminal, plain lines
/// for CI logs, nothing in a pipe unless asked, and the current rate.
struct ProgressTests {
    /// Plain lines: one at the start of every phase and resolving stage, as docs/ci.md (Progress
    /// in CI logs) shows them, each ending in a line feed, no carriage return or escape code;
    /// `always` in a pipe is plain too, `auto` nothing. A validation stops after resolving.
    @Test(arguments: ["build", "validate"])
    func plainLinesInAPipe(_ command: String) async throws {
        let docs = try String(contentsOfFile: repository + "/docs/ci.md", encoding: .utf8)
        let section = try #require(docs.components(separatedBy: "## Progress in CI logs").dropFirst().first)
        let shown = try WhereCommandTests.block("", in: try #require(section.components(separatedBy: "(`seeds/tasklist`) prints:").last))
        var expected = shown.split(separator: "\n").map(String.init)
        if command == "validate" { expected.removeAll { $0.hasPrefix("writing") || $0.hasPrefix("indexing") || $0.hasPrefix("finishing") } }
        let scratch = try CommandTests.tasklist()
        for mode in ["plain", "always"] {
            let run = try await seeder(
                [command, "tasklist.yaml", "dumps", "--progress", mode, "--quiet"].filter { command == "build" || $0 != "--quiet" },
                in: scratch.root)
            #expect(run.status == 0)
            let lines = run.stderr.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("validation") }
            #expect(lines == expected, "\(run.stderr)")
            #expect(!run.stderr.contains("\r") && !run.stderr.contains("\u{1B}"))
        }
        let auto = try await seeder([command, "tasklist.yaml", "dumps", "--progress", "auto"], in: scratch.root)
        #expect(!auto.stderr.contains("records"))
    }

    @Test func inferShowsPlainLines() async throws {
        let run = try await seeder(["infer", "seeds/tasklist", "--progress", "plain"])
        #expect(run.status == 0)
        #expect(run.stderr.hasPrefix("reading: 1 kB of 1 kB (100%)"))
        #expect(!run.stderr.contains("\r"))
    }

    /// On a terminal (a pseudo-terminal `script` makes) the line is redrawn in place and erased
    /// at the end.
    @Test func theLineIsRedrawnOnATerminal() async throws {
        let scratch = try CommandTests.tasklist()
        let binary = try seederBinary()
        let plainRun = try await runProgram(
            "/usr/bin/env", ["script", "-qec", "\(binary) build tasklist.yaml dumps --quiet 2>progress.txt", "/dev/null"], in: scratch.root,
            standardOutput: .discarded)
        #expect(plainRun.status == 0)
        // `2>progress.txt` inside the pseudo-terminal: standard error is a file, so it is plain.
        let plain = try String(contentsOfFile: scratch.path("progress.txt"), encoding: .utf8)
        #expect(plain == "")
        _ = try await runProgram(
            "/usr/bin/env", ["script", "-qec", "\(binary) build tasklist.yaml dumps --quiet", scratch.path("typescript")], in: scratch.root,
            standardOutput: .discarded)
        let shown = try String(contentsOfFile: scratch.path("typescript"), encoding: .utf8)
        #expect(shown.contains("\r\u{1B}[Kwriting: 1 kB of 1 kB (100%), 6 records"))
        #expect(shown.contains("\r\u{1B}[Kloading: tasklist.yaml, "))
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

    /// The phases before the dumps name what they work on; each resolving stage is a line of its
    /// own, though it comes within the 5 seconds of the one before.
    @Test func everyPhaseAndStageIsNamedAsItBegins() {
        var written: [String] = []
        let display = ProgressDisplay(style: .plain, clock: { 0 }, write: { written.append($0) })
        display.update(.before(.loading, "big.yaml, 5,724,112 bytes"))
        display.update(.before(.planning, "1,041 entities, 31,811 relationships, 1,041 sources"))
        display.update(BuildProgress(phase: .resolving, bytesRead: 2_000_000, totalBytes: 2_000_000, records: 3123, step: "inverse links"))
        display.update(BuildProgress(phase: .resolving, bytesRead: 2_000_000, totalBytes: 2_000_000, records: 3123, step: "inverse links"))
        display.update(
            BuildProgress(phase: .resolving, bytesRead: 2_000_000, totalBytes: 2_000_000, records: 3123, step: "reference checks"))
        display.update(BuildProgress(phase: .indexing, bytesRead: 2_000_000, totalBytes: 2_000_000, records: 3123))
        #expect(
            written == [
                "loading: big.yaml, 5,724,112 bytes\n",
                "planning: 1,041 entities, 31,811 relationships, 1,041 sources\n",
                "resolving: 2000 kB of 2000 kB (100%), 3,123 records, inverse links\n",
                "resolving: 2000 kB of 2000 kB (100%), 3,123 records, reference checks\n",
                "indexing: 2000 kB of 2000 kB (100%), 3,123 records\n",
            ])
    }

    /// A mapping of hundreds of entities counts them while it loads, plans and checks, as
    /// docs/ci.md shows: the bench's big mapping of 300 entities (`seeder-bench generate
    /// bigmapping 300`), validated, prints the page's lines.
    @Test func aBigMappingCountsItsEntitiesAndChecks() async throws {
        let docs = try String(contentsOfFile: repository + "/docs/ci.md", encoding: .utf8)
        let section = try #require(docs.components(separatedBy: "(`seeder-bench generate bigmapping 300`").dropFirst().first)
        let shown = try WhereCommandTests.block("", in: section).split(separator: "\n").map(String.init)
        let scratch = try Workspace()
        let generated = try await program(try seederBenchBinary(), ["generate", "bigmapping", "300", scratch.path("big")])
        #expect(generated.status == 0, "\(generated.stderr)")
        let run = try await seeder(["validate", "mapping.yaml", "dumps", "--progress", "plain"], in: scratch.path("big"))
        #expect(run.status == 0, "\(run.stderr)")
        // Each line the page shows, in order; on a busy machine a step of more than 5 seconds
        // adds a line of its phase every 5 seconds, which the page does not show.
        var unmatched = shown[...]
        var phase = ""
        for line in run.stderr.split(separator: "\n").map(String.init)
        where line.hasPrefix("loading: ") || line.contains("%), ")
            || line.hasPrefix("planning: ")
        {
            if line == unmatched.first {
                unmatched = unmatched.dropFirst()
                phase = String(line.prefix { $0 != ":" })
            } else {
                #expect(line.hasPrefix(phase + ": "), "\(line) is not on the page, in \(run.stderr)")
            }
        }
        #expect(unmatched.isEmpty, "not printed: \(unmatched), in \(run.stderr)")
    }

    /// A planning step that makes thousands of tables says how far it is, every 5 seconds in
    /// plain lines, never a line per table.
    @Test func aLongPlanningStepCountsWhatItHasMade() {
        var now = 0.0
        var written: [String] = []
        let display = ProgressDisplay(style: .plain, clock: { now }, write: { written.append($0) })
        func made(_ done: Int, at time: Double, step: String = "seed tables") {
            now = time
            display.update(.before(.planning, step, parts: .init(done: done, total: 5000, plural: "tables")))
        }
        made(256, at: 0)
        made(512, at: 2)
        made(2048, at: 5)
        made(256, at: 6, step: "working tables")
        #expect(
            written == [
                "planning: seed tables, 256 of 5,000 tables\n",
                "planning: seed tables, 2,048 of 5,000 tables\n",
                "planning: working tables, 256 of 5,000 tables\n",
            ])
    }
}
