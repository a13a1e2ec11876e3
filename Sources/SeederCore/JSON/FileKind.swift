#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The kind of file a `stat` mode describes, as messages name it: a command reads and writes
/// only regular files (docs/commands.md, Files a command touches), and says what it found instead.
public enum FileKind {
    /// Whether `mode` (`st_mode`) is a regular file's.
    public static func isRegular(_ mode: mode_t) -> Bool {
        mode & S_IFMT == S_IFREG
    }

    /// "a directory", "a FIFO", ...: what a file of `mode` is, with its article.
    public static func name(ofMode mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }

    /// The reason a file of `mode` is refused: "it is a FIFO, not a regular file".
    public static func notRegularReason(_ mode: mode_t) -> String {
        "it is \(name(ofMode: mode)), not a regular file"
    }

    /// The system's reason for `error` (`strerror`).
    public static func reason(_ error: Int32) -> String {
        String(cString: strerror(error))
    }
}
