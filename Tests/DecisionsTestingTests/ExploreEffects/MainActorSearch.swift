// The debounced search of issue 38 (d), bug planted, as a main-actor feature: its conformances are
// isolated to the main actor, as a feature with no annotation is in a module with default
// main-actor isolation (Tests/Fixtures/DefaultIsolation), but for its state. Its core checks that it
// runs on the main actor, and its core and executor count the calls made on a thread other than
// the one a test names: the test's own, which runs on the main actor.

import Decisions
import DecisionsTesting
import Foundation

@MainActor
enum MainActorSearch: @MainActor Feature {
  // NB: nonisolated, as `nonisolated struct State` in a module with default main-actor isolation:
  // exploring with effects asks the state's own `Hashable`, of a `Sendable` type (SE-0470).
  struct State: Hashable, Sendable {
    var query = ""
    var resultsQuery: String?
  }

  @MainActor enum Event: @MainActor Equatable, Sendable {
    case queryChanged(String)
    case debounced(String)
    case searched(query: String)
  }

  @MainActor enum Decision: @MainActor Equatable, Sendable {
    case debounce(String)
    case search(String)
  }

  struct Deps: Sendable {
    var search: @Sendable (String) async throws -> [String]
    var clock: any Clock<Duration>
  }

  /// The thread the core and the executor must run on, if a test names one.
  static var expectedThread: Thread?
  /// How many times the core or the executor ran on another thread than `expectedThread`.
  static var callsOnAnotherThread = 0

  private static func countThread() {
    if let expectedThread, Thread.current !== expectedThread { callsOnAnotherThread += 1 }
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    countThread()
    MainActor.preconditionIsolated("the core of a main-actor feature runs on the main actor")
    switch event {
    case .queryChanged(let query):
      state.query = query
      return [.debounce(query)]
    case .debounced(let query):
      return [.search(query)]
    case .searched(let query):
      state.resultsQuery = query
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    countThread()
    switch decision {
    case .debounce(let query):
      effects.run(id: "debounce") { send in
        try await deps.clock.sleep(for: .milliseconds(300))
        await send(.debounced(query))
      }
    case .search(let query):
      // The bug: each query's search is work of its own, so an older one can answer last.
      effects.run { send in
        _ = try await deps.search(query)
        await send(.searched(query: query))
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(search: effects.dependency("search", answers: [.value(["result"])]), clock: effects.clock)
  }

  /// The user types "s", then "sw", at any moment.
  static func typing(_ state: State) -> [Event] {
    switch state.query {
    case "": [.queryChanged("s")]
    case "s": [.queryChanged("sw")]
    default: []
    }
  }
}

extension ExplorationRule<MainActorSearch> {
  /// Once no work is in flight, the results on show are for the query on show.
  @MainActor static var idleResultsMatchTheQuery: Self {
    Self("idle results are for the query") { state, work in
      !work.isEmpty || state.resultsQuery.map { $0 == state.query } ?? true
    }
  }
}
