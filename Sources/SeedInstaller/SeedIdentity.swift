/// What makes a seed the seed it is: its inputs, its mapping and the seeder that built it, from
/// `seed_metadata` (docs/seed.md, Metadata). The input digest alone is not enough: the same dumps
/// under a changed mapping make another seed.
struct SeedIdentity: Equatable {
    static let keys = ["inputs_sha256", "mapping_sha256", "seeder_version"]

    var inputs: String
    var mapping: String
    var seeder: String

    /// The identity `metadata` (key -> value) names, or `nil` with the first key it lacks.
    init(metadata: [String: String]) throws(MissingKey) {
        var values: [String] = []
        for key in Self.keys {
            guard let value = metadata[key] else { throw MissingKey(key: key) }
            values.append(value)
        }
        (inputs, mapping, seeder) = (values[0], values[1], values[2])
    }

    /// A metadata key the identity needs and the table lacks.
    struct MissingKey: Error {
        var key: String
    }
}
