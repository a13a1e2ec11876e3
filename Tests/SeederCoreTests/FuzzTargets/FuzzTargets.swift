// What each fuzz target does with its bytes. This folder is compiled into the tests, which replay
// the committed corpus through it, and into the fuzz package (fuzz/README.md), which reaches it
// through a symbolic link. Public API only: the fuzz package links a release build of SeederCore.
import SeederCore

/// The bodies of the fuzz targets. Each takes any bytes and returns the invariants they broke
/// (empty when all held); the fuzz executables trap on a broken one, the tests expect none.
/// A crash or a hang in here is a bug in SeederCore: bad input must come out as diagnostics.
public enum FuzzTargets {
    /// The target names, as `fuzz/run` and the corpus folders spell them.
    public static let names = ["json", "mapping", "mapper"]

    /// Runs the target called `name` on `bytes`.
    public static func run(_ name: String, _ bytes: [UInt8]) -> [String] {
        switch name {
        case "json": json(bytes)
        case "mapping": mapping(bytes)
        case "mapper": mapper(bytes)
        default: ["no fuzz target '\(name)'"]
        }
    }
}
