import Foundation
import SeederCore
import SeederFiles

/// The stages before any work: what the run reads, and the files it writes, checked and locked.
extension SeedBuilder {
    /// A mapping as loaded, with the digest of its bytes (`mapping_sha256`): a big mapping's
    /// megabytes of YAML are not kept through the load for it.
    struct LoadedMapping {
        var mapping: Mapping
        var sha256: String
    }

    /// YAML -> `Mapping`, every problem reported before any dump is read; `--on-conflict`
    /// applied to every entity.
    static func loadMapping(_ options: BuildOptions, diagnostics: DiagnosticSink) throws(Stop) -> LoadedMapping {
        let bytes: [UInt8]
        do {
            bytes = try FileByteSource(path: options.mapping).readAll(atMost: FileByteSource.wholeFileLimit)
        } catch {
            diagnostics.error(
                .io, "cannot read the mapping file: \((error as? InputError)?.reason ?? "\(error)")",
                at: SourceLocation(file: options.mapping))
            throw Stop(outcome: .failed)
        }
        options.progress?(.before(.loading, "\(options.mapping), \(Wording.count(bytes.count, "byte"))"))
        let loader = MappingLoader { step, done, total in
            guard done > 0, done % partsPerReport == 0 else { return }
            options.progress?(.before(.loading, step, parts: .init(done: done, total: total, plural: "entities")))
        }
        guard var mapping = loader.load(bytes: bytes, file: options.mapping, diagnostics: diagnostics) else {
            throw Stop(outcome: .invalid)
        }
        let relationships = mapping.entities.reduce(0) { $0 + $1.relationships.count }
        options.progress?(
            .before(
                .planning,
                "\(Wording.count(mapping.entities.count, "entity", plural: "entities")), \(Wording.count(relationships, "relationship")), "
                    + Wording.count(mapping.sources?.count ?? 0, "source")))
        if let policy = options.onConflict {
            for index in mapping.entities.indices { mapping.entities[index].onConflict = policy }
        }
        return LoadedMapping(mapping: mapping, sha256: SHA256.hex(bytes))
    }

    /// The app's own schema (`schema:`), read and matched with the mapping (`SchemaFitter`);
    /// `nil` without one. The mapping, and the fit's description of it, then require what the
    /// app's schema requires (`SchemaFit.requiring`).
    static func fitSchema(_ mapping: inout Mapping, options: BuildOptions, diagnostics: DiagnosticSink) throws(Stop) -> SchemaFit? {
        guard let source = mapping.schema else { return nil }
        let file: AppSchemaFile
        do {
            file = try AppSchemaFile(source, path: source.resolved(from: options.mapping))
        } catch {
            for message in error.messages { diagnostics.error(error.unreadable ? .io : .schema, message, at: source.location) }
            throw Stop(outcome: error.unreadable ? .failed : .invalid)
        }
        let fitter = SchemaFitter(
            mapping: mapping, schema: file.schema, mode: file.mode, location: source.location, diagnostics: diagnostics)
        guard var fit = fitter.fit(bytes: file.bytes) else { throw Stop(outcome: .invalid) }
        fit.room = file.room
        mapping = fit.requiring(mapping)
        fit.described = fit.requiring(fit.described)
        return fit
    }

    /// Sources -> the dump files, in source and path order (`InputPlanner`).
    static func planInputs(_ mapping: Mapping, options: BuildOptions, diagnostics: DiagnosticSink) throws(Stop) -> [InputFile] {
        var unreadable = false
        let inputs = InputPlanner(mapping: mapping, dumps: options.dumps).plan(diagnostics: diagnostics, unreadable: &unreadable)
        if unreadable { throw Stop(outcome: .failed) }
        return inputs
    }

    /// The files the run will write, checked (`OutputGuard`) and the output locked
    /// (`OutputLock`) before any work; a killed build's leftovers removed. Sets `state.files`
    /// and `state.lock` as they are taken, for `build` to remove and release.
    static func claimFiles(_ mapping: Mapping, options: BuildOptions, state: inout Run, diagnostics: DiagnosticSink) throws(Stop)
        -> BuildFiles
    {
        let output = defaultOutput(for: options, mapping: mapping)
        let files = BuildFiles(output: output, writesOutput: options.writesOutput)
        let outputGuard = OutputGuard(
            mapping: options.mapping, inputs: state.inputs, appSchema: mapping.schema?.resolved(from: options.mapping))
        do {
            if let path = options.report {
                state.reportChecked = false
                try outputGuard.checkReport(path, output: options.writesOutput ? output : nil)
                state.reportChecked = true
            }
            if options.writesOutput {
                try outputGuard.checkOutput(output, force: options.force)
                state.lock = try OutputLock(path: files.lock, shownPath: files.shown(files.lock), output: output)
            }
        } catch {
            diagnostics.error(error.code, error.message)
            throw Stop(outcome: .failed)
        }
        // A killed build's leftovers go first; ours go at the end, whatever happens. The lock
        // file goes last, once nothing of this build is left for another to find.
        options.willCreateTemporaries?(files.temporaries + (state.lock.map { [$0.path] } ?? []))
        state.files = files
        for path in files.temporaries { unlink(path) }
        return files
    }
}
