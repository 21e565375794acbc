import Decisions

/// The search screen's `@MainActor` observable model, for UI code.
///
/// It is the library's ``Decisions/MainStore`` for ``SearchFeature``, with names for what a view
/// reads and does. The feature runs on the main actor, so the query a text field shows is the one
/// just typed: `queryChanged` has stored it when it returns, and the debounce and the search run
/// off the main actor as long work.
/// ```swift
/// let model = SearchViewModel(state: .init(), deps: .live(source: .bundled(facts: facts)))
/// TextField("Search", text: Binding(get: { model.query }, set: model.queryChanged))
/// ProgressView().opacity(model.isSearching ? 1 : 0)
/// ForEach(model.results, id: \.self) { Text($0) }
/// if let reason = model.failureReason { Button("Retry: \(reason)") { model.retry() } }
/// ```
public typealias SearchViewModel = MainStore<SearchFeature>

extension MainStore where F == SearchFeature {
  /// The query as typed.
  public var query: String { state.query }

  /// The texts of the matching facts on screen.
  public var results: [String] { state.results }

  /// Whether a search is waiting for typing to pause, or in flight.
  public var isSearching: Bool { state.isPending }

  /// Why the last search failed, while the screen shows the failure.
  public var failureReason: String? { state.failureReason }

  /// Forwards a change of the query: the whole text now in the field.
  public func queryChanged(_ query: String) {
    send(.view(.queryChanged(query)))
  }

  /// Forwards a tap on retry.
  public func retry() {
    send(.view(.retry))
  }
}
