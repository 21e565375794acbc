// A debounced search, with the bug of issue 38 (d) planted: each query's search runs as work of
// its own, so an older query's results can arrive after a newer query's, and the screen shows
// them. `fixed` runs the debounce and the search as one piece of keyed work, which a newer query
// replaces, and the core drops results for any query but the one shown.

import Decisions
import DecisionsTesting

enum DebouncedSearch: Feature {
  struct State: Hashable, Sendable {
    var query = ""
    var results: [String] = []
    /// The query the results on show were found for.
    var resultsQuery: String?
    /// Whether the core drops results for a query other than the one shown (the fix).
    var fixed = false
  }

  enum Event: Equatable, Sendable {
    case queryChanged(String)
    case debounced(String)
    case searched(query: String, results: [String])
    case searchFailed(query: String)
  }

  enum Decision: Equatable, Sendable {
    /// Waits for the debounce, then searches, as one piece of work that a newer query replaces.
    case debounceAndSearch(String)
    /// Waits for the debounce alone; the search is a decision of its own (the bug).
    case debounce(String)
    case search(String)
  }

  struct Deps: Sendable {
    var search: @Sendable (String) async throws -> [String]
    var clock: any Clock<Duration>
  }

  static let debounce = Duration.milliseconds(300)

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .queryChanged(let query):
      state.query = query
      return [state.fixed ? .debounceAndSearch(query) : .debounce(query)]
    case .debounced(let query):
      return [.search(query)]
    case .searched(let query, let results):
      if state.fixed, query != state.query { return [] }
      state.results = results
      state.resultsQuery = query
      return []
    case .searchFailed:
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .debounceAndSearch(let query):
      effects.run(id: "search") { send in
        try await deps.clock.sleep(for: debounce)
        await send(.searched(query: query, results: try await deps.search(query)))
      } catch: { _ in
        .searchFailed(query: query)
      }
    case .debounce(let query):
      effects.run(id: "debounce") { send in
        try await deps.clock.sleep(for: debounce)
        await send(.debounced(query))
      }
    case .search(let query):
      effects.run { send in
        await send(.searched(query: query, results: try await deps.search(query)))
      } catch: { _ in
        .searchFailed(query: query)
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      search: effects.dependency("search", answers: [.value(["result"])]),
      clock: effects.clock)
  }

  /// The user types "s", then "sw", then "swi", at any moment.
  static func typing(_ state: State) -> [Event] {
    switch state.query {
    case "": [.queryChanged("s")]
    case "s": [.queryChanged("sw")]
    default: []
    }
  }
}
