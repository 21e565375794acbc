import Decisions

/// A fact that can be shown on the screen.
public struct Fact: Equatable, Hashable, Sendable, Codable {
  /// The fact's text.
  public var text: String

  /// Creates a fact.
  public init(text: String) {
    self.text = text
  }
}

/// The fact screen: one button that loads a fact and shows it, with a snackbar when loading fails.
///
/// Every tap is tracked for analytics; loaded facts and failures are logged. Two behaviours the old
/// imperative view model got wrong are decided here, in the core:
/// - **A failure never leaves the screen stuck loading.** The state goes back to what it showed
///   before the tap — the previous fact, or nothing — and the next tap retries.
/// - **A tap while a load is in flight starts no second load.** It is still tracked, and nothing else
///   happens; the load in flight answers it.
public enum FactFeature: Core {
  /// What the screen shows.
  public enum State: Hashable, Sendable, Codable {
    /// Nothing loaded yet (or the first load failed).
    case idle
    /// A load is in flight; `previous` is the fact shown before it, which stays visible.
    case loading(previous: String?)
    /// A fact is shown.
    case loaded(String)
  }

  /// Something that happened: to the view, or to the model (the results of loading).
  public enum Event: Equatable, Sendable, Codable {
    /// The user did something.
    case view(View)
    /// Loading produced a result.
    case model(Model)

    /// Events from the view.
    public enum View: Equatable, Sendable, Codable {
      /// The user tapped the button.
      case didTapButton
    }

    /// Events from loading.
    public enum Model: Equatable, Sendable, Codable {
      /// A fact arrived.
      case finishLoading(Fact)
      /// Loading failed; the associated value says why, for the log.
      case failedLoading(String)
    }
  }

  /// What the executor must do.
  public enum Decision: Equatable, Sendable {
    /// Load a fact.
    case load
    /// Track an event for analytics.
    case track(Event)
    /// Write a line to the log.
    case log(String)
    /// Show a snackbar with this text.
    case showSnackbar(String)
  }

  /// The snackbar text shown when loading fails.
  public static let failureMessage = "Went wrong"

  /// Decides what one event does to the screen, and what must happen.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .view(.didTapButton):
      switch state {
      case .loading:
        return [.track(event)]
      case .idle:
        state = .loading(previous: nil)
        return [.track(event), .load]
      case .loaded(let text):
        state = .loading(previous: text)
        return [.track(event), .load]
      }

    case .model(.finishLoading(let fact)):
      // NB: only a load in flight can finish; anything else is a stale event and changes nothing.
      guard case .loading = state else { return [] }
      state = .loaded(fact.text)
      return [.log(fact.text)]

    case .model(.failedLoading(let reason)):
      guard case .loading(let previous) = state else { return [] }
      state = previous.map(State.loaded) ?? .idle
      return [.log("Failed to load a fact: \(reason)"), .showSnackbar(failureMessage)]
    }
  }
}

extension FactFeature.State {
  /// The fact on screen, if any: the loaded one, or while loading, the one shown before.
  public var text: String? {
    switch self {
    case .idle: nil
    case .loading(let previous): previous
    case .loaded(let text): text
    }
  }

  /// Whether a load is in flight.
  public var isLoading: Bool {
    if case .loading = self { return true }
    return false
  }
}
