import SeederCore
import Testing

/// Loads a mapping that must be valid: the test fails with its diagnostics otherwise.
public func validMapping(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Mapping {
    let sink = DiagnosticSink()
    let mapping = MappingLoader().load(yaml: yaml, file: "mapping.yaml", diagnostics: sink)
    return try #require(mapping, "\(sink.diagnostics.map(\.description))", sourceLocation: sourceLocation)
}
