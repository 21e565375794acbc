import Decisions
import Testing

@testable import DecisionsTesting

@Suite(.timeLimit(.minutes(3))) struct ExecutionTests {
  @Test func longWorkSendsItsResultBack() async {
    let loads = Calls<Void>()
    let execution = await perform(
      Loader.Decision.load, of: Loader.self,
      deps: .init(
        load: loads.recording { "a fact" }, track: unimplemented("track"),
        log: unimplemented("log"), snackbar: unimplemented("snackbar")))
    #expect(execution.events == [.finished("a fact")])
    #expect(execution.startedWork == [WorkID("load")])
    #expect(execution.unhandledErrors.isEmpty)
    #expect(loads.count == 1)
  }

  @Test func aThrowingDependencyBecomesAFailureEvent() async {
    let execution = await perform(
      Loader.Decision.load, of: Loader.self,
      deps: .init(
        load: { throw Loader.Offline() }, track: unimplemented("track"),
        log: unimplemented("log"), snackbar: unimplemented("snackbar")))
    #expect(execution.events == [.failed("Offline()")])
  }

  @Test func quickWorkCallsItsDependencyAndSendsNothing() async {
    let shown = Calls<String>()
    let execution = await perform(
      Loader.Decision.snackbar("Went wrong"), of: Loader.self,
      deps: .init(
        load: unimplemented("load"), track: unimplemented("track"), log: unimplemented("log"),
        snackbar: shown.record))
    #expect(shown.all == ["Went wrong"])
    #expect(execution.events.isEmpty)
    #expect(execution.startedWork.isEmpty)
  }

  @Test func anUnusedUnimplementedDependencyFailsNothing() async {
    let failures = await withCapturedFailures {
      _ = await perform(
        Loader.Decision.log("x"), of: Loader.self,
        deps: .init(
          load: unimplemented("load"), track: unimplemented("track"), log: { _ in },
          snackbar: unimplemented("snackbar")))
    }
    #expect(failures.isEmpty)
  }

  @Test func eventsQueuedInPlaceComeBeforeEventsFromWork() async {
    let execution = await perform(
      Relay.Decision.relay, of: Relay.self, deps: .init(fetch: { 2 }))
    #expect(execution.events == [.queued(1), .fetched(2)])
    #expect(execution.startedWork == [nil])
  }

  @Test func anUnhandledErrorIsReported() async {
    let execution = await perform(
      Relay.Decision.relay, of: Relay.self, deps: .init(fetch: { throw Loader.Offline() }))
    #expect(execution.events == [.queued(1)])
    #expect(execution.unhandledErrors.map { "\($0)" } == ["Offline()"])
  }
}

/// A feature whose one decision queues an event in place and starts unkeyed work without a handler.
private enum Relay: Feature {
  typealias State = Int
  enum Event: Equatable, Sendable {
    case queued(Int)
    case fetched(Int)
  }
  enum Decision: Equatable, Sendable {
    case relay
  }
  struct Deps: Sendable {
    var fetch: @Sendable () async throws -> Int
  }

  static func makeDecisions(event: Event, state: inout Int) -> [Decision] { [] }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .relay:
      effects.send(.queued(1))
      effects.run { send in await send(.fetched(try await deps.fetch())) }
    }
  }
}
