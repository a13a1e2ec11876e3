import SeederCore
import SeederFiles

extension SeedBuilder {
    /// The version of seeder (`SeederVersion`).
    public static let version = SeederVersion.current
}
