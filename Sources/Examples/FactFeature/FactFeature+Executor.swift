import Decisions

extension FactFeature: Feature {
  /// The capabilities the fact screen needs.
  public struct Deps: Sendable {
    /// Records an analytics event.
    public var track: @Sendable (Event) -> Void
    /// Shows a snackbar with a message.
    public var showSnackbar: @Sendable (String) -> Void
    /// Writes a line to the log.
    public var log: @Sendable (String) -> Void
    /// Loads a fact; throws when it cannot.
    public var loadFact: @Sendable () async throws -> Fact

    /// Creates deps from their closures.
    public init(
      track: @escaping @Sendable (Event) -> Void,
      showSnackbar: @escaping @Sendable (String) -> Void,
      log: @escaping @Sendable (String) -> Void,
      loadFact: @escaping @Sendable () async throws -> Fact
    ) {
      self.track = track
      self.showSnackbar = showSnackbar
      self.log = log
      self.loadFact = loadFact
    }
  }

  /// The key of the load in flight.
  static let loadID = "load"

  /// Performs one decision through the deps.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: loadID) { send in
        await send(.model(.finishLoading(try await deps.loadFact())))
      } catch: { error in
        .model(.failedLoading(describeFailure(error)))
      }
    case .track(let event):
      deps.track(event)
    case .log(let text):
      deps.log(text)
    case .showSnackbar(let text):
      deps.showSnackbar(text)
    }
  }

  /// Returns a short, readable cause for a loading error, for the log.
  static func describeFailure(_ error: any Error) -> String {
    if let error = error as? FactSourceError { return error.description }
    return String(describing: error)
  }
}
