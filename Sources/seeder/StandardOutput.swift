import Foundation
import SeederStore

/// Standard output, written with `write(2)` so that every failure is seen: a closed pipe
/// (`EPIPE`, SIGPIPE being ignored) or a full disk is `OutputError`, exit status 2 for every
/// command (docs/commands.md, Exit status), never a silent death or a status that means
/// something else.
enum StandardOutput {
    /// Writes `text` whole, or throws.
    static func write(_ text: String) throws(OutputError) {
        var failure: Int32 = 0
        var text = text
        text.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                let result = Foundation.write(STDOUT_FILENO, bytes.baseAddress! + written, bytes.count - written)
                if result < 0, errno == EINTR { continue }
                guard result > 0 else {
                    failure = result < 0 ? errno : EIO
                    return
                }
                written += result
            }
        }
        if failure != 0 { throw OutputError.cannot("write", "standard output", error: failure) }
    }

    /// Makes failed writes errors rather than deaths: SIGPIPE (a reader that went away) and
    /// SIGXFSZ (a file past `ulimit -f`) would end the process without a word and, for a build,
    /// leave its temporary files; ignored, the write fails with `EPIPE` or `EFBIG` instead.
    static func ignoreWriteSignals() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }
}
