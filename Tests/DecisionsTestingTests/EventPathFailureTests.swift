import Decisions
import Testing

@testable import DecisionsTesting

/// `EventPath.expectStoreAgrees` fails, with these messages, when the store and the core disagree.
@Suite(.timeLimit(.minutes(3))) struct EventPathFailureTests {
  /// Deps whose load waits for an answer that never comes, until the store stops.
  private static func deps() -> Loader.Deps {
    let load = ControlledDependency<Void, String>()
    return .init(load: { try await load() }, track: { _ in }, log: { _ in }, snackbar: { _ in })
  }

  @Test func aStoreThatEndsInAnotherStateFailsWithADiff() async {
    let path = EventPath<Loader>(from: .idle, events: [.tap])
    let journal = Journal<Loader>(initialState: .loaded("x"))
    let store = Store<Loader>(state: .loaded("x"), deps: Self.deps(), diagnostics: journal.record)
    let failures = await withCapturedFailures {
      await path.expectStoreAgrees(store, journal: journal)
    }
    #expect(
      failures.map(\.message) == [
        """
        Step 1 of .tap, .tap: the store's state differs from the core's one (− core's, + store's):
        Loader.State
          .loading(previous:)
        −   nil
        +   "x"
        """
      ])
    await store.stop()
  }

  @Test func workThatSendsEventsOfItsOwnFails() async {
    let path = EventPath<Echo>(from: 0, events: [.ping])
    let journal = Journal<Echo>(initialState: 0)
    let store = Store<Echo>(state: 0, deps: .init(), diagnostics: journal.record)
    let failures = await withCapturedFailures {
      await path.expectStoreAgrees(store, journal: journal)
    }
    #expect(
      failures.map(\.message) == [
        "The store processed 2 events along .ping, not 1: work must send no events of its own in a "
          + "model-based test (script the deps to wait)."
      ])
  }

  @Test func aJournalWithOtherDecisionsFails() async {
    let path = EventPath<Loader>(from: .idle, events: [.tap])
    // NB: the store records elsewhere; this journal says it decided something else.
    let journal = Journal<Loader>(initialState: .idle)
    journal.record(.received(.tap))
    journal.record(.state(.loading(previous: nil)))
    journal.record(.decided(.load))
    let store = Store<Loader>(state: .idle, deps: Self.deps())
    let failures = await withCapturedFailures {
      await path.expectStoreAgrees(store, journal: journal)
    }
    #expect(
      failures.map(\.message) == [
        """
        Step 1 of .tap, .tap: the store's the decisions differ.
          Expected but not emitted:
            .track("tap")
          Expected: [.track("tap"), .load]
          Emitted:  [.load]
        """
      ])
    await store.stop()
  }
}

/// A feature whose executor answers a ping with an event queued in place.
enum Echo: Feature {
  typealias State = Int
  enum Event: Equatable, Sendable {
    case ping
    case echoed
  }
  enum Decision: Equatable, Sendable { case echo }
  struct Deps: Sendable {}

  static func makeDecisions(event: Event, state: inout Int) -> [Decision] {
    switch event {
    case .ping: return [.echo]
    case .echoed: return []  // no change: only the extra event tells the store from the core
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.send(.echoed)
  }
}
