import Decisions

/// The search screen: a query field whose results follow the query as the user types.
///
/// Three rules that a hand-written view model tends to get subtly wrong are decided here, in the
/// core:
/// - **Debounce.** A search starts only once typing has paused for ``quietPeriod``: every keystroke
///   starts the wait again, so typing `abc` quickly searches once, for `abc`.
/// - **Latest wins.** A keystroke cancels the search in flight, and a result or failure for any
///   query other than the one on screen is dropped: results carry their query.
/// - **Empty means nothing.** A query that is empty or only white space clears the results and
///   cancels whatever was pending, without searching.
///
/// A failed search shows its reason until the user types again or retries.
public enum SearchFeature: Core {
  /// What the screen shows: the query as typed, and where its search is.
  public struct State: Equatable, Sendable, Codable {
    /// The query as typed, white space included.
    public var query: String
    /// Where the search for ``searchText`` is.
    public var phase: Phase

    /// Creates a state; by default the empty screen.
    public init(query: String = "", phase: Phase = .idle) {
      self.query = query
      self.phase = phase
    }
  }

  /// Where the search for the query on screen is.
  ///
  /// Every phase but ``idle`` is about that query.
  public enum Phase: Equatable, Sendable, Codable {
    /// Nothing to search: the query is empty or only white space. No results are shown.
    case idle
    /// Waiting for typing to pause for ``SearchFeature/quietPeriod`` before searching.
    case debouncing
    /// A search for the query is in flight.
    case searching
    /// The texts of the facts that match the query, in the source's order; empty when none do.
    case loaded([String])
    /// The search failed, for this reason; a retry searches again.
    case failed(String)
  }

  /// Something that happened: to the view, or to the search (the results of waiting and searching).
  public enum Event: Equatable, Sendable, Codable {
    /// The user did something.
    case view(View)
    /// The debounce or the search produced a result.
    case model(Model)

    /// Events from the view.
    public enum View: Equatable, Sendable, Codable {
      /// The user typed: the query is now this text (the whole of it, not the last keystroke).
      case queryChanged(String)
      /// The user asked to run the failed search again.
      case retry
    }

    /// Events from waiting and searching.
    public enum Model: Equatable, Sendable, Codable {
      /// Typing paused for the quiet period after the query with this search text.
      case quietPeriodEnded(String)
      /// A search finished with these results.
      case searchFinished(SearchResults)
      /// The search for `query` failed; `reason` says why, for the screen.
      case searchFailed(query: String, reason: String)
    }
  }

  /// What the executor must do.
  public enum Decision: Equatable, Sendable {
    /// Wait for ``SearchFeature/quietPeriod``, then search for this text. Replaces the wait or
    /// search in flight, which is cancelled.
    case debounce(String)
    /// Search for this text now. Replaces the wait or search in flight, which is cancelled.
    case search(String)
    /// Cancel the wait or search in flight.
    case cancelSearch
  }

  /// How long typing must pause before a search starts: 300 ms.
  public static let quietPeriod: Duration = .milliseconds(300)

  /// Decides what one event does to the screen, and what must happen.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .view(.queryChanged(let query)):
      guard query != state.query else { return [] }
      let wasPending = state.isPending
      state.query = query
      let text = state.searchText
      guard !text.isEmpty else {
        state.phase = .idle
        return wasPending ? [.cancelSearch] : []
      }
      state.phase = .debouncing
      // NB: no `.cancelSearch` first: `.debounce` replaces the work in flight, which cancels it.
      return [.debounce(text)]

    case .view(.retry):
      guard case .failed = state.phase else { return [] }
      state.phase = .searching
      return [.search(state.searchText)]

    // NB: each result below is taken only while it is awaited, and only for the text on screen:
    // anything else is a late answer for an older query, and changes nothing.
    case .model(.quietPeriodEnded(let text)):
      guard state.phase == .debouncing, text == state.searchText else { return [] }
      state.phase = .searching
      return []

    case .model(.searchFinished(let results)):
      guard state.phase == .searching, results.query == state.searchText else { return [] }
      state.phase = .loaded(results.matches)
      return []

    case .model(.searchFailed(let query, let reason)):
      guard state.phase == .searching, query == state.searchText else { return [] }
      state.phase = .failed(reason)
      return []
    }
  }
}

extension SearchFeature.State {
  /// The text searched for: the query without the white space around it.
  public var searchText: String {
    guard let first = query.firstIndex(where: { !$0.isWhitespace }),
      let last = query.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(query[first...last])
  }

  /// The texts of the matching facts on screen: the loaded ones, else none.
  public var results: [String] {
    if case .loaded(let results) = phase { return results }
    return []
  }

  /// Why the last search failed, while the screen shows the failure.
  public var failureReason: String? {
    if case .failed(let reason) = phase { return reason }
    return nil
  }

  /// Whether a search is waiting for typing to pause, or in flight.
  public var isPending: Bool {
    phase == .debouncing || phase == .searching
  }
}
