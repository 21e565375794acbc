import Decisions

/// A screen opened with only an id: it loads its content, then shows it or an error.
///
/// Written once and reused for every ``ContentKind``. The rules, all in the core:
/// - Appearing starts a fetch; appearing again while loading or loaded fetches nothing.
/// - Retry fetches again after a failure, and does nothing otherwise.
/// - Disappearing cancels a fetch in flight; appearing again starts a new one.
/// - A result that arrives when no fetch is in flight (a stale one) changes nothing.
public enum RemoteContent<Kind: ContentKind>: Feature {
  /// Where the screen is.
  public struct State: Equatable, Sendable {
    /// The id of the content to show.
    public let id: ContentID
    /// How far loading has come.
    public var phase: Phase

    /// Creates the state of a screen that has not appeared yet.
    public init(id: ContentID, phase: Phase = .notStarted) {
      self.id = id
      self.phase = phase
    }
  }

  /// How far loading has come.
  public enum Phase: Equatable, Sendable {
    /// The screen has not appeared, or disappeared before its content arrived.
    case notStarted
    /// A fetch is in flight.
    case loading
    /// The content is shown.
    case loaded(Kind.Content)
    /// Loading failed; the error screen says why.
    case failed(LoadFailure)
  }

  /// Something that happened to the screen.
  public enum Event: Equatable, Sendable {
    /// The screen appeared.
    case appear
    /// The user asked to try again.
    case retry
    /// The screen went away (closed, or covered for good).
    case disappear
    /// The content arrived.
    case loaded(Kind.Content)
    /// Loading failed.
    case failed(LoadFailure)
  }

  /// What the screen's executor must do.
  public enum Decision: Equatable, Sendable {
    /// Fetch the content with this id.
    case fetch(ContentID)
    /// Cancel the fetch in flight.
    case cancelFetch
  }

  /// Fetches content by id.
  public struct Deps: Sendable {
    /// Loads the content with an id; throws a ``LoadFailure`` (other errors count as unreachable).
    public var fetch: @Sendable (ContentID) async throws -> Kind.Content

    /// Creates deps from a fetch closure.
    public init(fetch: @escaping @Sendable (ContentID) async throws -> Kind.Content) {
      self.fetch = fetch
    }
  }

  /// Decides what one event does to the screen.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch (event, state.phase) {
    case (.appear, .notStarted), (.retry, .failed):
      state.phase = .loading
      return [.fetch(state.id)]
    case (.appear, _), (.retry, _):
      return []
    case (.disappear, .loading):
      state.phase = .notStarted
      return [.cancelFetch]
    case (.disappear, _):
      return []
    case (.loaded(let content), .loading):
      state.phase = .loaded(content)
      return []
    case (.failed(let failure), .loading):
      state.phase = .failed(failure)
      return []
    case (.loaded, _), (.failed, _):
      return []
    }
  }

  /// The key of the fetch in flight.
  static var fetchID: String { "fetch" }

  /// Performs one decision.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .fetch(let id):
      effects.run(id: fetchID) { send in
        await send(.loaded(try await deps.fetch(id)))
      } catch: { error in
        .failed(error as? LoadFailure ?? .unreachable(String(describing: error)))
      }
    case .cancelFetch:
      effects.cancel(id: fetchID)
    }
  }
}

extension RemoteContent.State {
  /// What the screen shows now: a pure function of the state.
  ///
  /// Loaded content and failures are presented by the content's kind.
  public var screen: ScreenDescription {
    switch phase {
    case .notStarted, .loading:
      ScreenDescription(
        title: Kind.placeholderTitle(id: id), rows: [.progress("Loading \(Kind.name)…")])
    case .loaded(let content):
      Kind.present(content)
    case .failed(let failure):
      Kind.present(failure, id: id)
    }
  }
}

/// The lifecycle events every container shares, whatever its kind.
public enum Lifecycle: Equatable, Sendable {
  /// The screen appeared.
  case appear
  /// The user asked to try again.
  case retry
  /// The screen went away.
  case disappear
}

extension RemoteContent.Event {
  /// The container event for a lifecycle event.
  public init(_ lifecycle: Lifecycle) {
    switch lifecycle {
    case .appear: self = .appear
    case .retry: self = .retry
    case .disappear: self = .disappear
    }
  }
}
