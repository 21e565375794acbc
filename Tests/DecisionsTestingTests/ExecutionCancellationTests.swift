import Decisions
import Testing

@testable import DecisionsTesting

/// `perform` reports the cancellations a decision asks for, so an executor that cancels the wrong
/// work fails its test.
@Suite(.timeLimit(.minutes(3))) struct ExecutionCancellationTests {
  @Test func cancellingByIdIsReported() async {
    let execution = await perform(Cancelling.Decision.stopLoading, of: Cancelling.self, deps: ())
    #expect(execution.cancellations == [.work(id: WorkID("load"), scope: [])])
    #expect(execution.startedWork.isEmpty)
  }

  @Test func anExecutorThatCancelsTheWrongIdIsCaught() async {
    let execution = await perform(Cancelling.Decision.stopSaving, of: Cancelling.self, deps: ())
    // The executor has a bug: it cancels "load" where it should cancel "save".
    #expect(execution.cancellations != [.work(id: WorkID("save"), scope: [])])
    #expect(execution.cancellations == [.work(id: WorkID("load"), scope: [])])
  }

  @Test func cancelAllIsReportedWithItsScope() async {
    let execution = await perform(Cancelling.Decision.stopEverything, of: Cancelling.self, deps: ())
    #expect(execution.cancellations == [.all(scope: [])])
  }

  @Test func aChildsCancellationsCarryItsScope() async {
    let execution = await perform(
      Cancelling.Decision.row(7, .stopLoading), of: Cancelling.self, deps: ())
    #expect(execution.cancellations == [.work(id: WorkID("load"), scope: [WorkID(7)])])
    let removal = await perform(Cancelling.Decision.removeRow(7), of: Cancelling.self, deps: ())
    #expect(removal.cancellations == [.all(scope: [WorkID(7)])])
  }

  @Test func restartingKeyedWorkIsAStartNotACancellation() async {
    let execution = await perform(Cancelling.Decision.restart, of: Cancelling.self, deps: ())
    #expect(execution.startedWork == [WorkID("load"), WorkID("load")])
    #expect(execution.cancellations.isEmpty)
  }
}

/// Decisions that cancel work, one of them wrongly, with a child in a scope.
private enum Cancelling: Feature {
  typealias State = Int
  typealias Deps = Void

  enum Event: Sendable {
    case unused
  }

  indirect enum Decision: Equatable, Sendable {
    case stopLoading
    case stopSaving
    case stopEverything
    case restart
    case row(Int, Decision)
    case removeRow(Int)
  }

  static func makeDecisions(event: Event, state: inout Int) -> [Decision] { [] }

  static func execute(_ decision: Decision, deps: Void, effects: Effects<Event>) {
    switch decision {
    case .stopLoading: effects.cancel(id: "load")
    case .stopSaving: effects.cancel(id: "load")  // the bug the test catches
    case .stopEverything: effects.cancelAll()
    case .restart:
      effects.run(id: "load") { _ in }
      effects.run(id: "load") { _ in }
    case .row(let id, let child):
      execute(child, deps: (), effects: effects, scope: id) { $0 }
    case .removeRow(let id): effects.cancelAll(in: id)
    }
  }
}
