import Decisions

extension SearchFeature: Feature {
  /// The capabilities the search screen needs.
  public struct Deps: Sendable {
    /// The clock the quiet period is measured on: `ContinuousClock()` in an app, a test clock in
    /// tests.
    public var clock: any Clock<Duration>
    /// Returns the texts of the facts that match a search text; throws when it cannot.
    public var search: @Sendable (String) async throws -> [String]

    /// Creates deps from a clock and a search.
    public init(
      clock: any Clock<Duration>,
      search: @escaping @Sendable (String) async throws -> [String]
    ) {
      self.clock = clock
      self.search = search
    }
  }

  /// The key of the work in flight: the wait for the quiet period and the search that follows it.
  ///
  /// One key for both, so that starting either replaces (cancels) whichever is running.
  static let searchID = "search"

  /// Performs one decision through the deps.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .debounce(let text):
      effects.run(id: searchID) { send in
        try await deps.clock.sleep(for: quietPeriod)
        await send(.model(.quietPeriodEnded(text)))
        await send(.model(.searchFinished(try await search(text, deps: deps))))
      } catch: { error in
        .model(.searchFailed(query: text, reason: describeFailure(error)))
      }
    case .search(let text):
      effects.run(id: searchID) { send in
        await send(.model(.searchFinished(try await search(text, deps: deps))))
      } catch: { error in
        .model(.searchFailed(query: text, reason: describeFailure(error)))
      }
    case .cancelSearch:
      effects.cancel(id: searchID)
    }
  }

  /// Searches for `text` and labels the matches with it.
  private static func search(_ text: String, deps: Deps) async throws -> SearchResults {
    SearchResults(query: text, matches: try await deps.search(text))
  }

  /// Returns a short, readable cause for a search error, for the screen.
  static func describeFailure(_ error: any Error) -> String {
    if let error = error as? SearchSourceError { return error.description }
    return String(describing: error)
  }
}
