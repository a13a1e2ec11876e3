import Foundation
import GRDB
import SeederCore
import SeederFiles

/// Builds a seed (docs/seed.md) from a mapping and a dumps directory. `run` composes the stages,
/// each handing the next a named value:
///
/// 1. `loadMapping`: YAML -> `LoadedMapping` (`MappingLoader`), every problem reported before
///    any dump is read; `fitSchema`: with `schema:`, the app's schema matched (`SchemaFit`) and
///    the mapping made to require what it requires;
/// 2. `planInputs`: sources -> `InputFile`s (`InputPlanner`), in source and path order;
/// 3. `claimFiles`: the output and report checked (`OutputGuard`), the output locked
///    (`OutputLock`) -> `BuildFiles`;
/// 4. the tables laid out (`SeedLayout`); `openDatabase`: the seed being built and the working
///    database, on one connection; and how the build will publish decided (`Publication`:
///    the file's finish, which indexes the resolver builds and which the finish);
/// 5. `load`: dump bytes -> JSON values (`JSONReader`) -> `Record`s (`Mapper`) -> rows merged in
///    the seed's own tables (`RowStore`, SQLite as the identity map); then references,
///    inverses, defaults, `required`, `unique` (`ReferenceResolver`) -> `LoadedRows`, the
///    counts of both in one `EntityTally`, taken into the report once the outcome is known
///    (`EntityTotals`);
/// 6. `assemble`: join rows, metadata, constraints, indexes (`SeedFinisher`); the file made final
///    and checked (`FinishedFile`), search tables or the app's schema filled, the last file
///    renamed into place.
///
/// A stage that finds the run cannot go on reports why and throws `Stop`; any other error is
/// reported by `report(_:files:database:diagnostics:)`.
///
///     var options = BuildOptions(mapping: "mappings/tasklist.yaml", dumps: "seeds/tasklist")
///     let report = SeedBuilder.build(options)
///     print(report.outcome, report.output ?? "-")
package enum SeedBuilder {
    /// Runs a build (or a validation) and reports what happened; never throws.
    package static func build(_ options: BuildOptions) -> BuildReport {
        let diagnostics = DiagnosticSink(maxErrors: options.maxErrors)
        var run = Run()
        run.report.outcome = self.run(options, diagnostics: diagnostics, state: &run)
        run.report.entities = run.totals.summaries(for: run.report.outcome)
        // A run stopped early has its warnings shown as errors all the same.
        if options.strict { diagnostics.promoteWarnings() }
        for path in run.files?.temporaries ?? [] { unlink(path) }
        run.lock?.release()
        var report = run.report
        if let path = options.report {
            report.reportMayBeWritten = run.reportChecked ?? checkReportOfFailedRun(path, options: options, diagnostics: diagnostics)
            // A report that may not be written is a file the command cannot write.
            if !report.reportMayBeWritten { report.outcome = .failed }
        }
        diagnostics.resolveOffsets { name in
            run.inputs.first { $0.path == name }.flatMap { try? $0.openBytes() }
        }
        report.diagnostics = diagnostics.diagnostics
        report.suppressedErrors = diagnostics.suppressedErrorCount
        return report
    }

    /// What a run leaves for `build` to tidy up and report, whatever stage it stopped at.
    struct Run {
        var report = BuildReport(outcome: .success, output: nil, entities: [], diagnostics: [], suppressedErrors: 0, inputs: [])
        /// The dump files, once planned: what messages' offsets are resolved in.
        var inputs: [InputFile] = []
        /// The files the run writes, once claimed: their temporaries are removed at the end.
        var files: BuildFiles?
        /// The output's lock, released once the temporaries are gone.
        var lock: OutputLock?
        /// Whether `options.report` passed its checks, once they ran.
        var reportChecked: Bool?
        /// What the load counted, once it is over.
        var totals = EntityTotals()
    }

    /// A stage's verdict that the run stops here, its reasons reported.
    struct Stop: Error {
        let outcome: BuildReport.Outcome
    }

    /// The stages, in order; returns the outcome and fills `state`.
    private static func run(_ options: BuildOptions, diagnostics: DiagnosticSink, state: inout Run) -> BuildReport.Outcome {
        var database: DatabaseQueue?
        do {
            var mapping = try loadMapping(options, diagnostics: diagnostics)
            let fit = try fitSchema(&mapping.mapping, options: options, diagnostics: diagnostics)
            state.inputs = try planInputs(mapping.mapping, options: options, diagnostics: diagnostics)
            state.report.inputs = state.inputs.map(\.path)
            let files = try claimFiles(mapping.mapping, options: options, state: &state, diagnostics: diagnostics)
            let layout = SeedLayout(mapping: mapping.mapping)
            let seed = try openDatabase(files, for: layout)
            database = seed
            let publication = Publication(layout: layout, fit: fit, writesOutput: options.writesOutput)
            let loaded = try load(
                state.inputs, with: layout, as: publication, into: seed, files: files, options: options, diagnostics: diagnostics)
            state.totals = loaded.totals
            state.report.files = loaded.sources.map {
                BuildReport.FileSummary(path: $0.path, sha256: $0.digest.hex, bytes: $0.bytes, records: $0.records)
            }
            // Every warning is one by now: with --strict each is an error, and nothing is written.
            if options.strict { diagnostics.promoteWarnings() }
            // A validation fills the app's schema too: its own UNIQUE or CHECK may refuse a row.
            guard !diagnostics.hasErrors, publication.assembles else {
                try seed.close()
                return diagnostics.hasErrors ? .invalid : .success
            }
            try assemble(loaded, with: layout, as: publication, mapping: mapping, in: seed, files: files, options: options)
            if options.writesOutput { state.report.output = files.output }
            return .success
        } catch let stop as Stop {
            return stop.outcome
        } catch {
            return report(error, files: state.files, database: database, diagnostics: diagnostics)
        }
    }
}
