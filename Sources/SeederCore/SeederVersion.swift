/// The version of seeder: what `seeder --version` prints, what a seed records as
/// `seed_metadata.seeder_version` and what every JSON document names (`JSONDocumentKind`).
/// `scripts/release` reads it from this line and names the release after it, so a release writes
/// the same seeds as `swift build` of the same commit; a release given another version writes
/// that one here for its own build (docs/install.md, Versions).
public enum SeederVersion {
    public static let current = "0.1.0"
}
