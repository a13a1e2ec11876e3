/// Collects the diagnostics of a run, so that all problems are reported, not only the first.
///
/// Errors past `maxErrors` are counted but not kept (docs/commands.md: "up to `--max-errors`, then
/// a count of the rest"). Warnings are always kept.
public final class DiagnosticSink {
    /// The kept diagnostics, in the order they were reported.
    public private(set) var diagnostics: [Diagnostic] = []
    /// How many errors were reported, kept or not.
    public private(set) var errorCount = 0
    /// How many warnings were reported.
    public private(set) var warningCount = 0
    /// How many errors were counted but not kept because of `maxErrors`.
    public var suppressedErrorCount: Int { errorCount - diagnostics.lazy.filter { $0.severity == .error }.count }
    /// The most errors kept; `nil` keeps all.
    public let maxErrors: Int?

    /// Creates an empty sink that keeps at most `maxErrors` errors.
    public init(maxErrors: Int? = nil) {
        self.maxErrors = maxErrors
    }

    /// `true` once any error was reported.
    public var hasErrors: Bool { errorCount > 0 }

    /// Records a diagnostic.
    public func report(_ diagnostic: Diagnostic) {
        switch diagnostic.severity {
        case .error:
            errorCount += 1
            if let maxErrors, errorCount > maxErrors { return }
        case .warning:
            warningCount += 1
        case .note:
            break
        }
        diagnostics.append(diagnostic)
    }

    /// Removes and returns the kept diagnostics, for a sink that collects one thread's
    /// diagnostics and hands them on, in order, to the sink of the run.
    public func takeAll() -> [Diagnostic] {
        guard !diagnostics.isEmpty else { return [] }
        defer { diagnostics = [] }
        return diagnostics
    }

    /// Makes every warning reported so far an error, as a compiler's warnings-as-errors does
    /// (`--strict`, docs/commands.md): its code, message and place stay as they were.
    public func promoteWarnings() {
        guard warningCount > 0 else { return }
        var kept: [Diagnostic] = []
        kept.reserveCapacity(diagnostics.count)
        for var diagnostic in diagnostics {
            if diagnostic.severity == .warning {
                diagnostic.severity = .error
                warningCount -= 1
                errorCount += 1
                if let maxErrors, errorCount > maxErrors { continue }
            }
            kept.append(diagnostic)
        }
        diagnostics = kept
    }

    /// Records an error.
    public func error(_ code: DiagnosticCode, _ message: String, at location: SourceLocation? = nil, jsonPath: String? = nil) {
        report(.error(code, message, at: location, jsonPath: jsonPath))
    }

    /// Records a warning.
    public func warning(_ code: DiagnosticCode, _ message: String, at location: SourceLocation? = nil, jsonPath: String? = nil) {
        report(.warning(code, message, at: location, jsonPath: jsonPath))
    }

    /// Replaces every byte-offset location by its line and column, reading each file once.
    ///
    /// `contents` opens a file by the name diagnostics give it; files it cannot open keep
    /// their offsets.
    public func resolveOffsets(using contents: (String) -> ByteSource?) {
        var offsetsByFile: [String: [Int]] = [:]
        for diagnostic in diagnostics {
            for location in [diagnostic.location, diagnostic.relatedLocation].compactMap({ $0 }) {
                if case let .offset(offset) = location.position {
                    offsetsByFile[location.file, default: []].append(offset)
                }
            }
        }
        var resolved: [String: [Int: SourceLocation.Position]] = [:]
        for (file, offsets) in offsetsByFile {
            guard let source = contents(file) else { continue }
            resolved[file] = (try? LineLocator.locate(offsets, in: source)) ?? [:]
        }
        func resolve(_ location: SourceLocation?) -> SourceLocation? {
            guard let location, case let .offset(offset) = location.position,
                let position = resolved[location.file]?[offset]
            else { return location }
            return SourceLocation(file: location.file, position: position)
        }
        for index in diagnostics.indices {
            diagnostics[index].location = resolve(diagnostics[index].location)
            diagnostics[index].relatedLocation = resolve(diagnostics[index].relatedLocation)
        }
    }
}

extension SourceLocation {
    /// A location with the given position.
    init(file: String, position: Position) {
        self.file = file
        self.position = position
    }
}
