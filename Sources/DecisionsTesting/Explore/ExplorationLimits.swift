/// How far ``explore(_:from:key:limits:events:)`` may go: bounds on the states it keeps and on the
/// number of events from the initial state.
///
/// The limits bound memory: an exploration keeps at most `states` states, and at most `states` times
/// the events tried per state transitions. When a limit stops the search, the exploration says so
/// (``Exploration/limitReached``), and checks that need the whole graph say it was cut.
public struct ExplorationLimits: Sendable, Hashable {
  /// The most distinct states (keys) to keep.
  public var states: Int
  /// The most steps from the initial state (events; with effects, also answers and deadlines):
  /// states this far away are kept but not expanded.
  public var depth: Int

  /// Creates limits.
  ///
  /// - Precondition: Both limits are at least 1.
  /// - Parameters:
  ///   - states: The most distinct states (keys) to keep; 100,000 unless set.
  ///   - depth: The most steps from the initial state (events; with effects, also answers and
  ///     deadlines); unbounded unless set.
  public init(states: Int = 100_000, depth: Int = .max) {
    precondition(
      states >= 1, "ExplorationLimits: states must be at least 1 (the initial state), not \(states)"
    )
    precondition(depth >= 1, "ExplorationLimits: depth must be at least 1, not \(depth)")
    self.states = states
    self.depth = depth
  }

  /// 100,000 states at any depth.
  public static let standard = ExplorationLimits()

  /// Which limit stopped a search.
  public enum Reached: Sendable, Hashable, CustomStringConvertible {
    /// More distinct states were reachable than the limit allows; the ones beyond were dropped.
    case states(Int)
    /// States at this depth were not expanded.
    case depth(Int)

    /// The limit in words: "the limit of 1,000 states".
    public var description: String {
      switch self {
      case .states(let limit): "the limit of \(limit) states"
      case .depth(let limit): "the depth limit of \(limit) steps"
      }
    }
  }
}
