import Foundation
import SeederCore
import SeederFiles
import SeederStore

/// Standard output, written with `write(2)` so that every failure is seen: a closed pipe
/// (`EPIPE`, SIGPIPE being ignored) or a full disk is `OutputError`, exit status 2 for every
/// command (docs/commands.md, Exit status), never a silent death or a status that means
/// something else.
enum StandardOutput {
    /// Writes `text` whole, or throws; guarded (`PrintedText.guarded`), as the runner reads
    /// standard output for workflow commands (docs/commands.md, Printed text).
    static func write(_ text: String) throws(OutputError) {
        try writeVerbatim(PrintedText.guarded(text))
    }

    /// Writes `text` as it is: seeder's own workflow commands, whose data the caller escaped.
    static func writeVerbatim(_ text: String) throws(OutputError) {
        var text = text
        let failure = text.withUTF8 { writeAll(STDOUT_FILENO, UnsafeRawBufferPointer($0)) }
        if failure != 0 { throw OutputError.cannot("write", "standard output", error: failure) }
    }

    /// Opens the standard descriptors the command was started without (`2>&-`) on /dev/null,
    /// read-only: else the next file opened takes the number, and a message meant for standard
    /// error would be written into that file (a seed, a report). Read-only, a write to them
    /// still fails (`EBADF`), so a closed standard output is exit status 2 as any other.
    static func reserveClosedDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    /// Makes failed writes errors rather than deaths: SIGPIPE (a reader that went away) and
    /// SIGXFSZ (a file past `ulimit -f`) would end the process without a word and, for a build,
    /// leave its temporary files; ignored, the write fails with `EPIPE` or `EFBIG` instead.
    static func ignoreWriteSignals() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }
}

/// Standard error, written as well as it can be: diagnostics, progress and the messages of
/// failures. A failure to write there changes nothing (there is nowhere left to say why): the
/// exit status stays that of the work. `FileHandle`'s `write` would end the process instead.
enum StandardError {
    /// Writes `text`, guarded (`PrintedText.guarded`): the runner reads standard error for
    /// workflow commands too, and a terminal acts on the control characters it is given.
    static func write(_ text: String) {
        writeVerbatim(PrintedText.guarded(text))
    }

    /// Writes a message on one line of its own: the paths and names in it escaped
    /// (`PrintedText.escaped`), so that none can start another line.
    static func write(line message: String) {
        writeVerbatim(PrintedText.guarded(PrintedText.escaped(message) + "\n"))
    }

    /// Writes `text` as it is: seeder's own terminal codes (colour, the progress line), whose
    /// data the caller escaped.
    static func writeVerbatim(_ text: String) {
        var text = text
        _ = text.withUTF8 { writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }
}
