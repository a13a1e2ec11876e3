import SeederCore
import SeederFiles

extension SeedBuilder {
    /// The version of seeder (`SeederVersion`).
    package static let version = SeederVersion.current
}
