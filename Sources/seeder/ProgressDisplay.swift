import ArgumentParser
import Foundation
import SeederCore
import SeederFiles
import SeederStore

/// When and how to show progress (docs/commands.md, Progress).
enum ProgressMode: String, ExpressibleByArgument, CaseIterable {
    /// The line on a terminal, nothing otherwise.
    case auto
    /// The line on a terminal, plain lines otherwise.
    case always
    /// A plain line every few seconds: for CI logs, no carriage return or escape code.
    case plain
    case never
}

/// The progress of a long run on standard error: one line redrawn in place on a terminal, or
/// plain lines now and then. The rate is the current one, over the last second or so (over the
/// last interval for plain lines), not the average since the start.
final class ProgressDisplay: @unchecked Sendable {
    enum Style {
        /// Redrawn in place (`\r` and erase-line).
        case line
        /// One line at the start of each phase, then one every `plainInterval` seconds.
        case plain
    }

    static let plainInterval = 5.0
    /// How long a rate is measured over on the redrawn line.
    static let lineWindow = 1.0

    let style: Style
    private let clock: () -> Double
    private let write: (String) -> Void
    private let lock = NSLock()
    private var phase: BuildProgress.Phase?
    private var step: String?
    /// When the current rate's window began, and the records counted then.
    private var windowStart = (time: 0.0, records: 0)
    private var rate: Int?
    private var lastLine = -Double.infinity
    private var shown = false

    /// The display for `mode`, or `nil` when none is shown; `isTerminal` says where standard
    /// error goes.
    convenience init?(mode: ProgressMode, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        guard let style = Self.style(for: mode, isTerminal: isTerminal) else { return nil }
        self.init(style: style, clock: { ProcessInfo.processInfo.systemUptime }, write: StandardError.writeVerbatim)
    }

    /// How `mode` shows progress where standard error goes; `nil` for not at all.
    static func style(for mode: ProgressMode, isTerminal: Bool) -> Style? {
        switch mode {
        case .never: return nil
        case .auto: return isTerminal ? .line : nil
        case .always: return isTerminal ? .line : .plain
        case .plain: return .plain
        }
    }

    init(style: Style, clock: @escaping () -> Double, write: @escaping (String) -> Void) {
        self.style = style
        self.clock = clock
        self.write = write
    }

    /// Takes one report of the work: shows it when it is time to.
    func update(_ progress: BuildProgress) {
        lock.lock()
        defer { lock.unlock() }
        let now = clock()
        let window = style == .line ? Self.lineWindow : Self.plainInterval
        // A resolving stage is a phase of its own for the plain lines: each gets a line.
        let newPhase = progress.phase != phase || progress.step != step
        if newPhase {
            (phase, step) = (progress.phase, progress.step)
            windowStart = (now, progress.records)
            rate = nil
        } else if progress.phase == .reading, now - windowStart.time >= window {
            // (Only reading has records coming in: a later phase's rate would read 0.)
            rate = Int(Double(progress.records - windowStart.records) / max(now - windowStart.time, 0.001))
            windowStart = (now, progress.records)
        }
        switch style {
        case .line:
            shown = true
            write("\r\u{1B}[K" + Self.text(progress, rate: rate))
        case .plain:
            guard newPhase || now - lastLine >= Self.plainInterval else { return }
            lastLine = now
            write(Self.text(progress, rate: rate) + "\n")
        }
    }

    /// Ends the redrawn line, if one was shown.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if shown { write("\r\u{1B}[K") }
        shown = false
    }

    /// `reading: 120 MB of 523 MB (23%), 1,204,000 records, 210,000 records/s`; `resolving: 523
    /// MB of 523 MB (100%), 1,204,000 records, inverse links`; before any dump is read, the
    /// phase and what it works on: `loading: mapping.yaml, 5724 kB`, with how far a step that
    /// counts its parts is: `planning: tables, 2,000 of 5,000 entities`; `resolving: ...,
    /// reference checks, 2,560 of 15,000 relationships`.
    static func text(_ progress: BuildProgress, rate: Int?) -> String {
        let parts = progress.parts.map { ", \(Wording.grouped($0.done)) of \(Wording.grouped($0.total)) \($0.plural)" } ?? ""
        switch progress.phase {
        case .loading, .planning:
            return "\(progress.phase.rawValue): \(progress.step ?? "")" + parts
        case .reading, .resolving, .indexing, .writing, .finishing:
            let percent = progress.totalBytes > 0 ? progress.bytesRead * 100 / progress.totalBytes : 100
            return "\(progress.phase.rawValue): \(megabytes(progress.bytesRead)) of \(megabytes(progress.totalBytes)) (\(percent)%), "
                + Wording.count(progress.records, "record")
                + (rate.map { ", \(Wording.count($0, "record"))/s" } ?? "") + (progress.step.map { ", " + $0 } ?? "") + parts
        }
    }

    static func megabytes(_ bytes: Int) -> String {
        bytes < 10_000_000 ? "\(bytes / 1000) kB" : "\(bytes / 1_000_000) MB"
    }
}
