import Foundation
import SeederCore
import SeederFiles

extension RowStore {
    /// Which occurrences wait to go in with others, and the rules of when they must go in, so
    /// that rows, rowids, merges and messages come in source order whether an occurrence waited
    /// or not. `due(before:)` is the one place the rules are kept; the store asks it at each
    /// moment that may need what waits, and sends what it answers.
    ///
    /// | waits in | what | sent before |
    /// |---|---|---|
    /// | `PendingRows` | one entity's occurrences whose identity is the rowid and that name nothing, across batches | a message of the build, any merge, an identity already waiting, an occurrence of another entity that would wait, the load's end |
    /// | `RowRun` | consecutive occurrences of one entity in one batch whose identity is the rowid | any other record of the batch, an identity already in the run, the batch's links |
    ///
    /// Two more queues keep their rule by their type alone: a `SideRowLog` goes in before any
    /// `SideRowLog.Statement` on its table runs, and a `BatchedInsert` of new rows before another
    /// insert into its table (`EntityStatements.insertNew`) and at the load's end. And either
    /// queue above goes in when full (`PendingRows.batch`, `RowRun.limit`).
    ///
    /// A class, its state in plain fields: asked once or twice a record, a struct holding the
    /// sink would be copied, and the sink retained and released, at each question.
    final class WaitingOccurrences {
        // The writing thread's only: no run-time exclusivity checks.
        /// The entity whose `PendingRows` holds occurrences.
        @exclusivity(unchecked) private(set) var pendingEntity: Int?
        /// Where the merges of the pending occurrences report.
        @exclusivity(unchecked) private var pendingDiagnostics: DiagnosticSink?
        /// The entity whose `RowRun` holds occurrences of the batch being added.
        @exclusivity(unchecked) private(set) var runEntity: Int?

        /// A moment when what waits may have to go in first.
        enum Moment {
            /// A message of the build is reported: a waiting merge's comes first.
            case message
            /// An occurrence merges into its row: waiting merges come first.
            case merge
            /// An occurrence of a pending entity arrives; `alreadyWaiting`: its identity waits.
            /// (The row must be in before the occurrence is compared with it.)
            case pendingIdentity(alreadyWaiting: Bool)
            /// An occurrence of `entity` is about to wait in the pending rows.
            case pendingOccurrence(entity: Int)
            /// An occurrence of `entity` is about to join the run; `alreadyInRun`: its identity is
            /// in it.
            case runOccurrence(entity: Int, alreadyInRun: Bool)
            /// Any other record of the batch goes in (or is skipped): the run is consecutive.
            case otherRecord
            /// The batch's links are recorded: they read its rows' keys and merges.
            case links
            /// The load ends: the resolver reads every table.
            case loadEnd
        }

        /// Which queues must go in.
        struct Due: OptionSet {
            let rawValue: UInt8
            static let pending = Due(rawValue: 1)
            static let run = Due(rawValue: 2)
        }

        /// What must go in before `moment`.
        func due(before moment: Moment) -> Due {
            switch moment {
            case .message, .merge, .loadEnd:
                return pendingEntity == nil ? [] : .pending
            case let .pendingIdentity(alreadyWaiting):
                return alreadyWaiting ? .pending : []
            case let .pendingOccurrence(entity):
                return pendingEntity == nil || pendingEntity == entity ? [] : .pending
            case let .runOccurrence(entity, alreadyInRun):
                return runEntity == nil || (runEntity == entity && !alreadyInRun) ? [] : .run
            case .otherRecord, .links:
                return runEntity == nil ? [] : .run
            }
        }

        /// `entity`'s occurrences wait in its `PendingRows`; their merges report to `diagnostics`.
        func pendingWait(_ entity: Int, reportingTo diagnostics: DiagnosticSink) {
            pendingEntity = entity
            pendingDiagnostics = diagnostics
        }

        /// `entity`'s occurrences wait in its `RowRun`.
        func runWaits(_ entity: Int) {
            runEntity = entity
        }

        /// The pending rows are going in: what they were, and none wait.
        func takePending() -> (entity: Int, diagnostics: DiagnosticSink)? {
            guard let entity = pendingEntity, let diagnostics = pendingDiagnostics else { return nil }
            pendingEntity = nil
            return (entity, diagnostics)
        }

        /// The run is going in: its entity, and none waits.
        func takeRun() -> Int? {
            defer { runEntity = nil }
            return runEntity
        }
    }
}
