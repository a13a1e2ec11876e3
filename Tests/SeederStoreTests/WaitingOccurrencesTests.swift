import Foundation
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// The rules of when waiting occurrences go in (`RowStore.WaitingOccurrences.due(before:)`), one
/// moment at a time, in each state the store can be in.
struct WaitingOccurrencesTests {
    typealias Waiting = RowStore.WaitingOccurrences

    let sink = DiagnosticSink()

    /// Nothing waits: nothing is ever due.
    @Test func nothingWaitingIsNeverDue() {
        let waiting = Waiting()
        let moments: [Waiting.Moment] = [
            .message, .merge, .loadEnd, .otherRecord, .links, .pendingIdentity(alreadyWaiting: false),
            .pendingOccurrence(entity: 0), .runOccurrence(entity: 0, alreadyInRun: false),
        ]
        for moment in moments { #expect(waiting.due(before: moment) == [], "\(moment)") }
    }

    /// Pending rows go in before a message, a merge, the load's end, an identity already waiting
    /// and another entity's occurrence; not before one more of their own entity, nor for
    /// anything of a batch's run.
    @Test func pendingRows() {
        let waiting = Waiting()
        waiting.pendingWait(3, reportingTo: sink)
        for moment: Waiting.Moment in [.message, .merge, .loadEnd, .pendingIdentity(alreadyWaiting: true), .pendingOccurrence(entity: 4)] {
            #expect(waiting.due(before: moment) == .pending, "\(moment)")
        }
        for moment: Waiting.Moment in [
            .pendingIdentity(alreadyWaiting: false), .pendingOccurrence(entity: 3), .otherRecord, .links,
            .runOccurrence(entity: 3, alreadyInRun: true),
        ] {
            #expect(waiting.due(before: moment) == [], "\(moment)")
        }
        #expect(waiting.takePending()?.entity == 3)
        #expect(waiting.due(before: .message) == [])
    }

    /// A run goes in before any other record of its batch, an identity already in it, another
    /// entity's run and the batch's links; never for a message or a merge, which come between
    /// batches or from the run itself.
    @Test func aRun() {
        let waiting = Waiting()
        waiting.runWaits(1)
        for moment: Waiting.Moment in [
            .otherRecord, .links, .runOccurrence(entity: 1, alreadyInRun: true), .runOccurrence(entity: 2, alreadyInRun: false),
        ] {
            #expect(waiting.due(before: moment) == .run, "\(moment)")
        }
        for moment: Waiting.Moment in [
            .runOccurrence(entity: 1, alreadyInRun: false), .message, .merge, .loadEnd, .pendingOccurrence(entity: 1),
        ] {
            #expect(waiting.due(before: moment) == [], "\(moment)")
        }
        #expect(waiting.takeRun() == 1)
        #expect(waiting.due(before: .links) == [])
    }

    /// Both at once (a batch's run while another entity's rows are pending): each moment sends
    /// only its own.
    @Test func bothWaiting() {
        let waiting = Waiting()
        waiting.pendingWait(0, reportingTo: sink)
        waiting.runWaits(1)
        #expect(waiting.due(before: .links) == .run)
        #expect(waiting.due(before: .merge) == .pending)
        #expect(waiting.due(before: .pendingOccurrence(entity: 2)) == .pending)
    }
}

/// The rules through a build: what waited goes in before what comes after it in the dump.
struct WaitingOccurrencesBuildTests {
    /// A task that waits in its batch's run merges, and reports its conflict, before the tag
    /// embedded after it merges and reports its own.
    @Test func aRunMergesBeforeTheRecordsAfterIt() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Task:
                identity: id
                attributes: { id: integer, title: string }
                relationships:
                  tag: { to: Tag }
              Tag:
                identity: name
                attributes: { name: string, color: string }
            sources:
              - path: tasks.json
                entity: Task

            """)
        try workspace.write(
            "dumps/tasks.json",
            """
            [{"id": 1, "title": "a", "tag": {"name": "x", "color": "red"}},
             {"id": 1, "title": "b", "tag": {"name": "x", "color": "blue"}}]
            """)
        let report = workspace.build()
        #expect(report.outcome == .invalid)
        #expect(report.messages(workspace).map { $0.prefix(while: { $0 != ":" }) } == ["dumps/tasks.json", "dumps/tasks.json"])
        #expect(report.messages(workspace).map { $0.contains("Task 1") } == [true, false])
    }
}
