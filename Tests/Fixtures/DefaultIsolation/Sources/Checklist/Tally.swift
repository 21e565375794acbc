import Decisions

/// A feature that runs off the main actor, in the actor `Store`: in a module whose code is
/// main-actor isolated by default, it says so with `nonisolated`, and so do the types nested in it.
///
/// Without the annotation, `Store<Tally>` fails to compile (.ci/default-isolation.sh checks it):
///
///     error: main actor-isolated conformance of 'Tally' to 'Feature' cannot satisfy conformance
///     requirement for a 'SendableMetatype' type parameter 'F' [#IsolatedConformances]
public nonisolated enum Tally: Feature {
  /// The count of items done so far.
  public struct State: Equatable, Sendable {
    /// How many items are done.
    public var done = 0

    /// No item done.
    public init() {}
  }

  /// What happens to the tally.
  public enum Event: Equatable, Sendable {
    /// An item was done.
    case done(String)
  }

  /// What the tally decides to do.
  public enum Decision: Equatable, Sendable {
    /// Tells the user how many items are done.
    case announce(Int, String)
  }

  /// What the tally needs: a way to announce.
  public struct Deps: Sendable {
    /// Announces a change to the user.
    public var announce: @Sendable (String) -> Void

    /// Deps for the tally.
    public init(announce: @escaping @Sendable (String) -> Void) {
      self.announce = announce
    }
  }

  /// Counts an item done, and decides to say so.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .done(let title):
      state.done += 1
      return [.announce(state.done, title)]
    }
  }

  /// Announces the count.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .announce(let count, let title):
      deps.announce("\(count) done: \(title)")
    }
  }
}
