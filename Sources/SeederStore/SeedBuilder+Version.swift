extension SeedBuilder {
    /// The version of seeder: what `seeder --version` prints and what a seed records as
    /// `seed_metadata.seeder_version`. `scripts/release` reads it from this line and names the
    /// release after it, so a release writes the same seeds as `swift build` of the same commit;
    /// a release given another version writes that one here for its own build (docs/install.md,
    /// Versions).
    public static let version = "0.1.0"
}
